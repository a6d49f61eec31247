# report.html's assets (src/telemetry/report_assets.h): ECharts from
# web/report/node_modules and the page's template, JS and CSS are compiled
# into aifabric_telemetry as byte arrays, by embed_report_assets.cmake at
# build time (re-run whenever one of the files changes).
set(report_web_dir ${PROJECT_SOURCE_DIR}/web/report)
set(report_echarts_dir ${report_web_dir}/node_modules/echarts)
if(NOT EXISTS ${report_echarts_dir}/dist/echarts.min.js)
  message(FATAL_ERROR "report.html bundles ECharts from npm, but ${report_echarts_dir}/dist/echarts.min.js "
                      "is missing: run `scripts/setup.sh run` (it runs `npm ci --omit=dev` in web/report).")
endif()
# The installed ECharts must be the one package.json pins.
file(READ ${report_web_dir}/package.json report_package_json)
string(JSON report_pinned_echarts GET "${report_package_json}" dependencies echarts)
file(READ ${report_echarts_dir}/package.json report_echarts_package_json)
string(JSON report_installed_echarts GET "${report_echarts_package_json}" version)
if(NOT report_pinned_echarts STREQUAL report_installed_echarts)
  message(FATAL_ERROR "web/report/package.json pins echarts ${report_pinned_echarts} but node_modules holds "
                      "${report_installed_echarts}: run `scripts/setup.sh run` (it reinstalls web/report's npm packages "
                      "when one differs from package-lock.json).")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${report_web_dir}/package.json ${report_echarts_dir}/package.json)

set(report_assets_cc ${CMAKE_CURRENT_BINARY_DIR}/report_assets.cc)
add_custom_command(
  OUTPUT ${report_assets_cc}
  COMMAND ${CMAKE_COMMAND} -DWEB_DIR=${report_web_dir} -DECHARTS_VERSION=${report_installed_echarts}
          -DOUT=${report_assets_cc} -P ${CMAKE_CURRENT_SOURCE_DIR}/embed_report_assets.cmake
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/embed_report_assets.cmake ${CMAKE_CURRENT_SOURCE_DIR}/embed_byte_array.cmake
          ${report_echarts_dir}/dist/echarts.min.js
          ${report_web_dir}/report.template.html ${report_web_dir}/report.css ${report_web_dir}/report.js
  COMMENT "Embedding report.html assets (ECharts ${report_installed_echarts})"
  VERBATIM)
set(AIFABRIC_EXTRA_SOURCES ${report_assets_cc})
