#include "scenario/section_reading.h"

#include <filesystem>

#include "packet/packet_config.h"

namespace aifabric {

void RequireKeys(const MapReader& m, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (!m.Has(key)) m.Fail(key, "required, missing");
  }
}

uint8_t ReadPriority(const SectionContext& c, const MapReader& m, uint8_t fallback) {
  if (m.Has("class")) {
    if (m.Has("priority")) m.FailAt("class", "give either class or priority, not both");
    const std::string name = m.String("class", "");
    const auto it = c.classes->find(name);
    if (it != c.classes->end()) return it->second;
    std::string known;
    for (const auto& [n, p] : *c.classes) known += (known.empty() ? "" : ", ") + n;
    m.FailAt("class", "unknown class '" + name + "'; fabric.qos.classes defines " + (known.empty() ? "none" : known));
    return 0;
  }
  return static_cast<uint8_t>(m.Int("priority", fallback, 0, kNumPriorities - 1));
}

std::string ResolveFile(const SectionContext& c, const MapReader& m, const std::string& key) {
  namespace fs = std::filesystem;
  std::optional<YAML::Node> v = m.Get(key);
  if (!v) {
    m.Fail(key, "required, missing (a file path)");
    return "";
  }
  std::optional<std::string> text = ReadString(c.d, *v, m.Path(key));
  if (!text) return "";
  fs::path p(*text);
  if (p.is_relative()) p = fs::path(c.base_dir.empty() ? "." : c.base_dir) / p;
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec).lexically_normal();
  if (ec) abs = p.lexically_normal();
  if (!fs::is_regular_file(abs, ec)) {
    c.d.Fail(*v, m.Path(key), "file not found: " + abs.string());
    return "";
  }
  return abs.string();
}

}  // namespace aifabric
