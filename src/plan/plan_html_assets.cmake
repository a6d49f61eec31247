# plan.html's assets (src/plan/plan_html_assets.h): the page's template, JS
# and CSS from web/plan/ are compiled into aifabric_plan as byte arrays, by
# embed_plan_html_assets.cmake at build time (re-run whenever one of the
# files changes). ECharts comes from aifabric_telemetry (report_assets.h).
set(plan_web_dir ${PROJECT_SOURCE_DIR}/web/plan)
set(plan_html_assets_cc ${CMAKE_CURRENT_BINARY_DIR}/plan_html_assets.cc)
add_custom_command(
  OUTPUT ${plan_html_assets_cc}
  COMMAND ${CMAKE_COMMAND} -DWEB_DIR=${plan_web_dir} -DOUT=${plan_html_assets_cc}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/embed_plan_html_assets.cmake
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/embed_plan_html_assets.cmake ${PROJECT_SOURCE_DIR}/src/telemetry/embed_byte_array.cmake
          ${plan_web_dir}/plan.template.html ${plan_web_dir}/plan.css ${plan_web_dir}/plan.js
  COMMENT "Embedding plan.html assets"
  VERBATIM)
set(AIFABRIC_EXTRA_SOURCES ${plan_html_assets_cc})
