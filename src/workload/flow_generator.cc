#include "workload/flow_generator.h"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>

#include "workload/host_check.h"
#include "workload/hpcc_flow_file.h"
#include "workload/poisson_flows.h"

namespace aifabric {
namespace {

constexpr int kMaxPriority = 7;

using Flows = std::vector<FlowSpec>;

Status CheckCommon(uint64_t bytes, uint8_t priority, Time start, const std::string& field) {
  if (bytes == 0) return Error{field + ".size: expected a size > 0 bytes, got 0"};
  if (priority > kMaxPriority) {
    return Error{field + ".priority: expected a traffic class 0..7, got " +
                 std::to_string(priority)};
  }
  if (start < Time::Zero() || start.IsInfinite()) {
    return Error{field + ".start: expected a finite start time >= 0"};
  }
  return Status::Ok();
}

Status NeedHosts(const Topology& topology, size_t n, const std::string& field) {
  if (topology.hosts().size() < n) {
    return Error{field + ": needs at least " + std::to_string(n) + " hosts, the topology has " +
                 std::to_string(topology.hosts().size())};
  }
  return Status::Ok();
}

FlowSpec Make(NodeId src, NodeId dst, uint64_t bytes, Time start, uint8_t priority) {
  FlowSpec f;
  f.src = src;
  f.dst = dst;
  f.bytes = bytes;
  f.start = start;
  f.priority = priority;
  return f;
}

Result<Flows> FromList(const FlowListSpec& spec, const Topology& topology,
                       const std::string& prefix) {
  for (size_t i = 0; i < spec.flows.size(); ++i) {
    const FlowSpec& f = spec.flows[i];
    const std::string field = prefix + ".flows[" + std::to_string(i) + "]";
    if (auto problem = HostProblem(topology, f.src)) return Error{field + ".src: " + *problem};
    if (auto problem = HostProblem(topology, f.dst)) return Error{field + ".dst: " + *problem};
    if (f.src == f.dst) {
      return Error{field + ".dst: same node as src (" + std::to_string(f.src) + ")"};
    }
    if (Status s = CheckCommon(f.bytes, f.priority, f.start, field); !s.ok()) return s.error();
  }
  return spec.flows;
}

Result<Flows> FromHpccFile(const HpccFlowFileSpec& spec, const Topology& topology,
                           const std::string& prefix) {
  if (spec.file.empty()) return Error{prefix + ".flows.file: expected a path to a flow.txt file"};
  return ReadHpccFlowFile(spec.file, topology);
}

Result<Flows> Permutation(const PermutationSpec& spec, const Topology& topology, Rng& rng,
                          const std::string& prefix) {
  const std::string field = prefix + ".permutation";
  if (Status s = CheckCommon(spec.bytes, spec.priority, spec.start, field); !s.ok()) {
    return s.error();
  }
  if (Status s = NeedHosts(topology, 2, field); !s.ok()) return s.error();
  const std::vector<NodeId>& hosts = topology.hosts();
  const size_t n = hosts.size();
  // Uniform over derangements: shuffle until no host maps to itself.
  std::vector<size_t> target(n);
  while (true) {
    for (size_t i = 0; i < n; ++i) target[i] = i;
    for (size_t i = n - 1; i > 0; --i) std::swap(target[i], target[rng.Below(i + 1)]);
    bool fixed_point = false;
    for (size_t i = 0; i < n && !fixed_point; ++i) fixed_point = target[i] == i;
    if (!fixed_point) break;
  }
  Flows flows;
  flows.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    flows.push_back(Make(hosts[i], hosts[target[i]], spec.bytes, spec.start, spec.priority));
  }
  return flows;
}

Result<Flows> Incast(const IncastSpec& spec, const Topology& topology,
                     const std::string& prefix) {
  const std::string field = prefix + ".incast";
  if (Status s = CheckCommon(spec.bytes, spec.priority, spec.start, field); !s.ok()) {
    return s.error();
  }
  const std::vector<NodeId>& hosts = topology.hosts();
  if (hosts.empty()) return Error{field + ": the topology has no hosts"};
  NodeId receiver = hosts.front();
  if (spec.receiver != kNoNode) {
    if (auto problem = HostProblem(topology, spec.receiver)) {
      return Error{field + ".receiver: " + *problem};
    }
    receiver = spec.receiver;
  }
  const size_t n = hosts.size();
  if (spec.senders < 1 || static_cast<size_t>(spec.senders) >= n) {
    return Error{field + ".senders: expected 1.." + std::to_string(n - 1) +
                 " (the other hosts; the topology has " + std::to_string(n) + "), got " +
                 std::to_string(spec.senders)};
  }
  const size_t r = static_cast<size_t>(topology.host_index(receiver));
  Flows flows;
  flows.reserve(static_cast<size_t>(spec.senders));
  for (size_t k = 1; k <= static_cast<size_t>(spec.senders); ++k) {
    flows.push_back(Make(hosts[(r + k) % n], receiver, spec.bytes, spec.start, spec.priority));
  }
  return flows;
}

Result<Flows> AllToAll(const AllToAllSpec& spec, const Topology& topology,
                       const std::string& prefix) {
  const std::string field = prefix + ".all_to_all";
  if (Status s = CheckCommon(spec.bytes, spec.priority, spec.start, field); !s.ok()) {
    return s.error();
  }
  if (Status s = NeedHosts(topology, 2, field); !s.ok()) return s.error();
  const std::vector<NodeId>& hosts = topology.hosts();
  const uint64_t n = hosts.size();
  if (n * (n - 1) > kMaxGeneratedFlows) {
    return Error{field + ": " + std::to_string(n) + " hosts make " + std::to_string(n * (n - 1)) +
                 " flows, more than the limit of " + std::to_string(kMaxGeneratedFlows)};
  }
  Flows flows;
  flows.reserve(n * (n - 1));
  for (NodeId src : hosts) {
    for (NodeId dst : hosts) {
      if (src != dst) flows.push_back(Make(src, dst, spec.bytes, spec.start, spec.priority));
    }
  }
  return flows;
}

Result<Flows> Poisson(const PoissonSpec& spec, const Topology& topology, Rng& rng,
                      const std::string& prefix) {
  if (spec.priority > kMaxPriority) {
    return Error{prefix + ".poisson.priority: expected a traffic class 0..7, got " +
                 std::to_string(spec.priority)};
  }
  return BuildPoissonFlows(spec, topology, rng, prefix);
}

}  // namespace

Result<std::vector<FlowSpec>> BuildFlows(const TrafficSpec& spec, const Topology& topology,
                                         Rng& rng, FlowId first_id,
                                         const std::string& field_prefix) {
  Result<Flows> built = std::visit(
      [&](const auto& s) -> Result<Flows> {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, FlowListSpec>) {
          return FromList(s, topology, field_prefix);
        } else if constexpr (std::is_same_v<T, HpccFlowFileSpec>) {
          return FromHpccFile(s, topology, field_prefix);
        } else if constexpr (std::is_same_v<T, PermutationSpec>) {
          return Permutation(s, topology, rng, field_prefix);
        } else if constexpr (std::is_same_v<T, IncastSpec>) {
          return Incast(s, topology, field_prefix);
        } else if constexpr (std::is_same_v<T, AllToAllSpec>) {
          return AllToAll(s, topology, field_prefix);
        } else {
          static_assert(std::is_same_v<T, PoissonSpec>, "unhandled TrafficSpec alternative");
          return Poisson(s, topology, rng, field_prefix);
        }
      },
      spec);
  if (!built.ok()) return built;
  Flows flows = std::move(built).value();
  for (size_t i = 0; i < flows.size(); ++i) flows[i].id = first_id + static_cast<FlowId>(i);
  std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
    return a.start < b.start || (a.start == b.start && a.id < b.id);
  });
  return flows;
}

}  // namespace aifabric
