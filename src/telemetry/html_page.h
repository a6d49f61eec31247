// What the self-contained HTML pages (report.html, the planner's
// plan.html) share: a template whose {{NAME}} markers are filled with
// values, data embedded safely inside a <script> element, and HTML
// escaping. Pure functions; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/text_sink.h"

namespace aifabric {

// Writes `json_text` made safe inside <script>: "</" becomes "<\/" (the
// same string to JSON.parse) so no value can close the element, and "<!--"
// becomes "\u003c!--" so none can switch the HTML parser into its
// script-escaped states. Both occur only inside JSON strings.
void AppendEscapedForScript(TextSink& out, std::string_view json_text);

// Writes `text` as it is.
void AppendVerbatim(TextSink& out, std::string_view text);

// & < > " ' as entities.
std::string EscapeHtml(std::string_view text);

// What a {{NAME}} marker of a template is replaced by: `text`, as `write`
// puts it.
struct TemplateValue {
  std::string_view name;
  std::string_view text;
  void (*write)(TextSink&, std::string_view) = AppendVerbatim;
};

// Writes `page` with every {{NAME}} marker replaced by its value; the
// values are not scanned for markers. REQUIRES: every marker has a value
// (checked by assert; an unknown marker is written as nothing).
void FillTemplate(TextSink& out, std::string_view page, std::span<const TemplateValue> values);

}  // namespace aifabric
