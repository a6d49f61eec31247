// The straggler rule: the rank the others wait on. See diagnosis.h.
#include <algorithm>

#include "diagnosis/rules.h"

namespace aifabric {

std::vector<Finding> FindStragglers(const DiagnosisContext& ctx) {
  std::vector<Finding> out;
  for (const RankObservation& r : ctx.observation().ranks) {
    if (r.last_at == 0 || r.held <= Time::Zero() || r.compute <= Time::Zero() || r.peer_compute <= Time::Zero()) {
      continue;
    }
    if (r.node < 0 || static_cast<size_t>(r.node) >= ctx.topology().num_nodes()) continue;
    const double speed = static_cast<double>(r.peer_compute.ps()) / static_cast<double>(r.compute.ps());
    if (speed > ctx.options().straggler_speed) continue;
    const double share =
        r.job_time > Time::Zero() ? static_cast<double>(r.held.ps()) / static_cast<double>(r.job_time.ps()) : 1.0;
    Finding f;
    f.kind = kStraggler;
    f.node = r.node;
    f.severity = std::clamp(0.5 + 0.5 * std::min(1.0, share), 0.0, 1.0);
    f.evidence["gpu"] = r.gpu;
    f.evidence["compute_speed"] = Round4(speed);
    f.evidence["compute_ns"] = r.compute.ns_f();
    f.evidence["peer_compute_ns"] = r.peer_compute.ns_f();
    f.evidence["step_cost_ns"] = r.held.ns_f();
    f.evidence["others_waited_ns"] = r.waited_on.ns_f();
    f.evidence["sync_points"] = r.last_at;
    if (!r.owner.empty()) f.owners.push_back(r.owner);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace aifabric
