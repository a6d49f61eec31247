#include "scenario/set_override.h"

#include <cctype>
#include <optional>

namespace aifabric {
namespace {

Error SetError(const SetOverride& ov, const std::string& what) {
  return Error{"--set " + ov.text + ": " + what};
}

std::string Join(const std::vector<std::string>& path, size_t count) {
  std::string out;
  for (size_t i = 0; i < count && i < path.size(); ++i) {
    if (i > 0) out += '.';
    out += path[i];
  }
  return out;
}

std::vector<std::string> SplitDots(const std::string& key) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    size_t dot = key.find('.', begin);
    parts.push_back(key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin));
    if (dot == std::string::npos) return parts;
    begin = dot + 1;
  }
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// The value under `key` of map `map`, if present (never inserts).
std::optional<YAML::Node> FindKey(const YAML::Node& map, const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return std::nullopt;
}

std::optional<size_t> ParseIndex(const std::string& seg) {
  if (seg.empty() || seg.size() > 9) return std::nullopt;
  size_t v = 0;
  for (char c : seg) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + static_cast<size_t>(c - '0');
  }
  return v;
}

// Checks `seg` indexes list `seq`; returns the index.
Result<size_t> ListIndex(const SetOverride& ov, const YAML::Node& seq, size_t depth) {
  const std::string& seg = ov.path[depth];
  const std::string where = depth == 0 ? std::string("the top level") : Join(ov.path, depth);
  std::optional<size_t> index = ParseIndex(seg);
  if (!index) {
    return SetError(ov, where + " is a list; expected a list index (0, 1, ...), got '" + seg + "'");
  }
  if (*index >= seq.size()) {
    return SetError(ov, "index " + seg + " is out of range: " + where + " has " + std::to_string(seq.size()) +
                            " item(s)");
  }
  return *index;
}

// Returns the child of `cur` at path[depth], creating an empty map when a
// map key is missing or null.
Result<YAML::Node> Descend(const SetOverride& ov, YAML::Node& cur, size_t depth) {
  const std::string& seg = ov.path[depth];
  if (cur.IsSequence()) {
    Result<size_t> index = ListIndex(ov, cur, depth);
    if (!index) return index.error();
    return YAML::Node(cur[*index]);
  }
  if (cur.IsMap()) {
    std::optional<YAML::Node> child = FindKey(cur, seg);
    if (child && !child->IsNull()) return *child;
    cur[seg] = YAML::Node(YAML::NodeType::Map);
    return *FindKey(cur, seg);
  }
  return SetError(ov, Join(ov.path, depth) + " is a value ('" + cur.Scalar() + "'), not a map; cannot set '" +
                          seg + "' inside it");
}

}  // namespace

std::string SetOverride::DottedPath() const {
  return Join(path, path.size());
}

Result<SetOverride> ParseSetOverride(const std::string& text) {
  SetOverride ov;
  ov.text = text;
  size_t eq = text.find('=');
  if (eq == std::string::npos) return SetError(ov, "expected KEY=VALUE (e.g. fabric.mtu=9KiB), found no '='");
  std::string key = Trim(text.substr(0, eq));
  if (key.empty()) return SetError(ov, "expected KEY=VALUE (e.g. fabric.mtu=9KiB), the key is empty");
  ov.path = SplitDots(key);
  for (const std::string& seg : ov.path) {
    if (seg.empty())
      return SetError(ov, "the key '" + key + "' has an empty part; expected names joined by dots");
  }
  try {
    ov.value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    return SetError(ov, "the value is not valid YAML (" + e.msg + ")");
  }
  return ov;
}

Status ApplySetOverride(YAML::Node& root, const SetOverride& ov) {
  if (!root.IsMap()) {
    if (!root.IsNull() && root.IsDefined()) {
      return SetError(ov, "the scenario's top level is not a map");
    }
    root = YAML::Node(YAML::NodeType::Map);
  }
  YAML::Node cur = root;
  for (size_t depth = 0; depth + 1 < ov.path.size(); ++depth) {
    Result<YAML::Node> child = Descend(ov, cur, depth);
    if (!child) return child.error();
    cur.reset(*child);
  }
  const size_t last = ov.path.size() - 1;
  if (cur.IsSequence()) {
    Result<size_t> index = ListIndex(ov, cur, last);
    if (!index) return index.error();
    cur[*index] = ov.value;
  } else if (cur.IsMap()) {
    cur[ov.path[last]] = ov.value;
  } else {
    return SetError(ov, Join(ov.path, last) + " is a value ('" + cur.Scalar() +
                            "'), not a map; cannot set '" + ov.path[last] + "' inside it");
  }
  return Status::Ok();
}

}  // namespace aifabric
