#include "scenario/policy_spec.h"

#include <algorithm>

#include "core/text_file.h"
#include "sched/placement_policy.h"

namespace aifabric {
namespace {

std::string PolicyNameList() {
  std::string names;
  for (std::string_view n : PlacementPolicyNames()) {
    if (!names.empty()) names += ", ";
    names += n;
  }
  return names;
}

}  // namespace

std::string PolicySpec::Name() const {
  std::string name = policy;
  if (crux) name += "+crux";
  if (cassini) name += "+cassini";
  return name;
}

std::string PolicySpec::Comm() const {
  if (crux && cassini) return "crux+cassini";
  if (crux) return "crux";
  if (cassini) return "cassini";
  return "none";
}

Result<PolicySpec> ParsePolicySpec(std::string_view text) {
  std::string quoted = "'";  // appended, not "'" + string (GCC 12 -Wrestrict)
  quoted.append(text).append("'");
  if (text.empty()) return Error{"empty policy spec (expected NAME[+crux][+cassini], NAME one of: " + PolicyNameList() + ")"};
  const size_t plus = text.find('+');
  PolicySpec spec;
  spec.policy = std::string(text.substr(0, plus));
  const std::span<const std::string_view> names = PlacementPolicyNames();
  if (std::find(names.begin(), names.end(), spec.policy) == names.end()) {
    return Error{"unknown policy '" + spec.policy + "' in " + quoted + " (expected one of: " + PolicyNameList() + ")"};
  }
  std::string_view rest = plus == std::string_view::npos ? std::string_view() : text.substr(plus);
  while (!rest.empty()) {
    const size_t next = rest.find('+', 1);
    const std::string_view option = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
    bool* flag = option == "+crux" ? &spec.crux : option == "+cassini" ? &spec.cassini : nullptr;
    if (flag == nullptr) {
      return Error{"unknown option '" + std::string(option) + "' in " + quoted + " (expected +crux or +cassini)"};
    }
    if (*flag) return Error{"option '" + std::string(option) + "' given twice in " + quoted};
    *flag = true;
  }
  return spec;
}

Result<std::vector<PolicySpec>> ParsePolicySpecList(std::string_view text) {
  const std::vector<std::string_view> items = SplitTrimmed(text, ',');
  if (items.size() == 1 && items[0].empty()) return Error{"expected a comma-separated list of policy specs, got nothing"};
  std::vector<PolicySpec> specs;
  for (std::string_view item : items) {
    Result<PolicySpec> spec = ParsePolicySpec(item);
    if (!spec.ok()) return spec.error();
    for (const PolicySpec& earlier : specs) {
      if (earlier.Name() == spec->Name()) return Error{"policy spec '" + spec->Name() + "' listed twice"};
    }
    specs.push_back(std::move(spec).value());
  }
  return specs;
}

}  // namespace aifabric
