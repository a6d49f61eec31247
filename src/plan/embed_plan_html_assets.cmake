# cmake -DWEB_DIR=... -DOUT=... -P embed_plan_html_assets.cmake
# Writes OUT, the definition of EmbeddedPlanHtmlAssets() (plan_html_assets.h):
# each file as a constexpr unsigned char array (no string literal, so no
# length limit), ending in a 0 byte that is not part of the text. Fails when
# a file to be inlined in a <script> or <style> could close it early.

include(${CMAKE_CURRENT_LIST_DIR}/../telemetry/embed_byte_array.cmake)

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
