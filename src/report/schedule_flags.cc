#include "report/schedule_flags.h"

#include <utility>

namespace aifabric {

Result<std::vector<PolicySpec>> PolicySpecsFromFlags(const std::string& policy, const std::string& compare,
                                                     const Scenario& scenario) {
  if (!compare.empty()) {
    Result<std::vector<PolicySpec>> specs = ParsePolicySpecList(compare);
    if (!specs.ok()) return Error{"--compare: " + specs.error().message};
    return specs;
  }
  if (policy.empty()) return std::vector<PolicySpec>{scenario.scheduling.policy};
  Result<PolicySpec> spec = ParsePolicySpec(policy);
  if (!spec.ok()) return Error{"--policy: " + spec.error().message};
  return std::vector<PolicySpec>{std::move(spec).value()};
}

}  // namespace aifabric
