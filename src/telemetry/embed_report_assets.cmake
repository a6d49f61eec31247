# cmake -DWEB_DIR=... -DECHARTS_VERSION=... -DOUT=... -P embed_report_assets.cmake
# Writes OUT, the definition of EmbeddedReportAssets() (report_assets.h):
# each file as a constexpr unsigned char array (no string literal, so no
# length limit), ending in a 0 byte that is not part of the text. Fails when
# a file to be inlined in a <script> or <style> could close it early.

include(${CMAKE_CURRENT_LIST_DIR}/embed_byte_array.cmake)

set(body "")
AppendArray(kEChartsJs ${WEB_DIR}/node_modules/echarts/dist/echarts.min.js)
AppendArray(kTemplateHtml ${WEB_DIR}/report.template.html)
AppendArray(kReportCss ${WEB_DIR}/report.css)
AppendArray(kReportJs ${WEB_DIR}/report.js)

file(WRITE ${OUT}.tmp "// GENERATED from web/report/ by src/telemetry/embed_report_assets.cmake; do not edit.
#include \"telemetry/report_assets.h\"

#include <cstddef>

namespace aifabric {
namespace {

${body}// The text of `bytes` without its terminating 0.
template <size_t N>
std::string_view Text(const unsigned char (&bytes)[N]) {
  return std::string_view(reinterpret_cast<const char*>(bytes), N - 1);
}

}  // namespace

const ReportAssets& EmbeddedReportAssets() {
  static const ReportAssets assets{Text(kEChartsJs), \"${ECHARTS_VERSION}\", Text(kTemplateHtml), Text(kReportCss),
                                   Text(kReportJs)};
  return assets;
}

}  // namespace aifabric
")
file(RENAME ${OUT}.tmp ${OUT})
