#include "sched/replay_options.h"

#include <cmath>
#include <limits>
#include <span>
#include <string_view>

#include "sched/placement_policy.h"

namespace aifabric {
namespace {

// Each failure: a switch-to-switch link of `topology`, at and for >= 0,
// not overlapping another failure of the same link.
Status ValidateLinkFailures(std::span<const LinkFailure> failures, const Topology& topology) {
  for (size_t f = 0; f < failures.size(); ++f) {
    const LinkFailure& failure = failures[f];
    const std::string field = "link_failures." + std::to_string(f) + ": ";
    if (!(std::isfinite(failure.at_s) && failure.at_s >= 0 && std::isfinite(failure.for_s) && failure.for_s >= 0)) {
      return Error{field + "expected at >= 0 and for >= 0 (0 = to the end)"};
    }
    if (failure.link < 0 || static_cast<size_t>(failure.link) >= topology.num_links()) {
      return Error{field + "link " + std::to_string(failure.link) + " is not in the topology"};
    }
    const Port& port = topology.port(static_cast<PortId>(failure.link * 2));
    if (topology.node(port.node).kind == NodeKind::kHost || topology.node(port.peer).kind == NodeKind::kHost) {
      return Error{field + "the link " + topology.node(port.node).name + " - " + topology.node(port.peer).name +
                   " has a host at one end; only switch-to-switch links may fail (a host's link would cut its "
                   "server off)"};
    }
    const double end_f = failure.for_s > 0 ? failure.at_s + failure.for_s : std::numeric_limits<double>::infinity();
    for (size_t g = 0; g < f; ++g) {
      const LinkFailure& other = failures[g];
      const double end_g = other.for_s > 0 ? other.at_s + other.for_s : std::numeric_limits<double>::infinity();
      if (other.link == failure.link && failure.at_s < end_g && other.at_s < end_f) {
        return Error{field + "overlaps link_failures." + std::to_string(g) + " on the same link"};
      }
    }
  }
  return {};
}

}  // namespace

Status ValidateReplayOptions(const ReplayOptions& o, const Topology& topology, const ClusterLayout& layout) {
  bool known = false;
  for (std::string_view n : PlacementPolicyNames()) known = known || n == o.policy;
  if (!known) {
    std::string names;
    for (std::string_view n : PlacementPolicyNames()) names += (names.empty() ? "" : ", ") + std::string(n);
    return Error{"policy: unknown policy '" + o.policy + "' (expected one of: " + names + ")"};
  }
  if (Status st = ValidateJobModelOptions(o.job_model); !st.ok()) return st;
  if (o.max_phases_per_job < 1 || o.max_phases_per_job > 1'000'000) {
    return Error{"max_phases_per_job: expected 1 to 1000000, got " + std::to_string(o.max_phases_per_job)};
  }
  for (size_t i = 0; i < o.storage_servers.size(); ++i) {
    const int s = o.storage_servers[i];
    if (s < 0 || s >= layout.servers()) {
      return Error{"storage_servers: server " + std::to_string(s) + " is not in the cluster (0 to " +
                   std::to_string(layout.servers() - 1) + ")"};
    }
    if (i > 0 && s <= o.storage_servers[i - 1]) return Error{"storage_servers: expected sorted, distinct servers"};
  }
  if (static_cast<int>(o.storage_servers.size()) >= layout.servers()) {
    return Error{"storage_servers: " + std::to_string(o.storage_servers.size()) +
                 " storage servers leave no server for jobs (the cluster has " + std::to_string(layout.servers()) + ")"};
  }
  if (o.job_model.checkpoint_interval_s > 0 && o.storage_servers.empty()) {
    return Error{"scheduling.jobs.checkpoint_interval: checkpoints need storage servers (scheduling.storage_servers)"};
  }
  if (!(o.payload_efficiency > 0 && o.payload_efficiency <= 1)) {
    return Error{"payload_efficiency: expected a fraction in (0, 1], got " + std::to_string(o.payload_efficiency)};
  }
  if (!(std::isfinite(o.load_window_s) && o.load_window_s > 0)) {
    return Error{"load_window: expected a positive time, got " + std::to_string(o.load_window_s) + " s"};
  }
  if (Status st = ValidateLinkFailures(o.link_failures, topology); !st.ok()) return st;
  if (o.window_start_s >= 0 && !(std::isfinite(o.window_s) && o.window_s > 0 && std::isfinite(o.window_start_s))) {
    return Error{"window: expected a positive duration, got " + std::to_string(o.window_s) + " s"};
  }
  return {};
}

}  // namespace aifabric
