#include "scenario/yaml_text.h"

namespace aifabric {

Result<YAML::Node> ParseYamlText(const std::string& text, Diagnostics& d) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    d.FailAt(e.mark, "invalid YAML: " + e.msg);
    return d.error();
  }
}

}  // namespace aifabric
