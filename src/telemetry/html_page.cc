#include "telemetry/html_page.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

void AppendEscapedForScript(TextSink& out, std::string_view json_text) {
  while (true) {
    const size_t open = json_text.find('<');
    out.Append(json_text.substr(0, open));
    if (open == std::string_view::npos) return;
    const std::string_view rest = json_text.substr(open);
    if (rest.starts_with("</")) {
      out.Append("<\\/");
      json_text.remove_prefix(open + 2);
    } else if (rest.starts_with("<!--")) {
      out.Append("\\u003c");
      json_text.remove_prefix(open + 1);
    } else {
      out.Append('<');
      json_text.remove_prefix(open + 1);
    }
  }
}

void AppendVerbatim(TextSink& out, std::string_view text) { out.Append(text); }

std::string EscapeHtml(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void FillTemplate(TextSink& out, std::string_view page, std::span<const TemplateValue> values) {
  size_t at = 0;
  while (true) {
    const size_t open = page.find("{{", at);
    if (open == std::string_view::npos) break;
    const size_t close = page.find("}}", open);
    if (close == std::string_view::npos) break;
    const std::string_view name = page.substr(open + 2, close - open - 2);
    const auto it = std::find_if(values.begin(), values.end(), [&](const TemplateValue& v) { return v.name == name; });
    assert(it != values.end() && "the page template holds an unknown marker");
    out.Append(page.substr(at, open - at));
    if (it != values.end()) it->write(out, it->text);
    at = close + 2;
  }
  out.Append(page.substr(at));
}

}  // namespace aifabric
