# cmake -DWEB_DIR=... -DECHARTS_VERSION=... -DOUT=... -P embed_report_assets.cmake
# Writes OUT, the definition of EmbeddedReportAssets() (report_assets.h):
# each file as a constexpr unsigned char array (no string literal, so no
# length limit), ending in a 0 byte that is not part of the text. Fails when
# a file to be inlined in a <script> or <style> could close it early.

# AppendArray(<c++ name> <file>): appends the array to `body`.
function(AppendArray name path)
  file(READ ${path} hex HEX)
  file(READ ${path} text)
  string(TOLOWER "${text}" lower)
  foreach(bad "</script" "</style" "<!--")
    string(FIND "${lower}" "${bad}" at)
    if(NOT at EQUAL -1 AND NOT path MATCHES "\\.html$")
      message(FATAL_ERROR "${path} contains \"${bad}\", which would end its <script>/<style> in report.html")
    endif()
  endforeach()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # 16 bytes a line (CMake's regex has no {n}).
  set(one "0x..,")
  string(REGEX REPLACE "(${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one}${one})"
                       "\\1\n" bytes "${bytes}")
  set(body "${body}constexpr unsigned char ${name}[] = {\n${bytes}0x00};\n\n" PARENT_SCOPE)
endfunction()

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
