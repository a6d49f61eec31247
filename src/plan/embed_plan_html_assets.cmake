# cmake -DWEB_DIR=... -DOUT=... -P embed_plan_html_assets.cmake
# Writes OUT, the definition of EmbeddedPlanHtmlAssets() (plan_html_assets.h):
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
      message(FATAL_ERROR "${path} contains \"${bad}\", which would end its <script>/<style> in plan.html")
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
AppendArray(kTemplateHtml ${WEB_DIR}/plan.template.html)
AppendArray(kPlanCss ${WEB_DIR}/plan.css)
AppendArray(kPlanJs ${WEB_DIR}/plan.js)

file(WRITE ${OUT}.tmp "// GENERATED from web/plan/ by src/plan/embed_plan_html_assets.cmake; do not edit.
#include \"plan/plan_html_assets.h\"

#include <cstddef>

namespace aifabric {
namespace {

${body}// The text of `bytes` without its terminating 0.
template <size_t N>
std::string_view Text(const unsigned char (&bytes)[N]) {
  return std::string_view(reinterpret_cast<const char*>(bytes), N - 1);
}

}  // namespace

const PlanHtmlAssets& EmbeddedPlanHtmlAssets() {
  static const PlanHtmlAssets assets{Text(kTemplateHtml), Text(kPlanCss), Text(kPlanJs)};
  return assets;
}

}  // namespace aifabric
")
file(RENAME ${OUT}.tmp ${OUT})
