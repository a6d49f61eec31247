#include "run/straggler_plan.h"

#include <vector>

namespace aifabric {

Result<ComputeSlowdowns> ResolveStragglers(const Scenario& scenario, const ClusterLayout& layout) {
  std::vector<SlowWindow> windows;
  for (const FaultSpec& f : scenario.faults) {
    if (f.kind != FaultKind::kStraggler) continue;
    if (f.gpu >= layout.gpus()) {
      return Error{f.path + ".gpu: GPU " + std::to_string(f.gpu) + " is beyond the cluster's " +
                   std::to_string(layout.gpus()) + " GPUs (0.." + std::to_string(layout.gpus() - 1) + ")"};
    }
    windows.push_back({f.gpu, f.at, f.until, f.factor});
  }
  return ComputeSlowdowns(std::move(windows));
}

std::vector<FaultOutcome> FaultOutcomesOf(const Scenario& scenario, const std::vector<FaultOutcome>& link_outcomes) {
  std::vector<FaultOutcome> out;
  size_t next = 0;
  for (const FaultSpec& f : scenario.faults) {
    if (f.kind != FaultKind::kStraggler) {
      if (next < link_outcomes.size()) out.push_back(link_outcomes[next++]);
      continue;
    }
    FaultOutcome o;
    o.kind = f.kind;
    o.name = "gpu" + std::to_string(f.gpu);
    o.at = f.at;
    out.push_back(std::move(o));
  }
  return out;
}

Status RefuseStragglers(const Scenario& scenario, const std::string& run) {
  for (const FaultSpec& f : scenario.faults) {
    if (f.kind == FaultKind::kStraggler) {
      return Error{f.path + ".kind: a straggler slows a GPU's compute kernels and " + run +
                   " has none; give it a training or chakra job"};
    }
  }
  return Status::Ok();
}

}  // namespace aifabric
