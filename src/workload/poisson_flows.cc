#include "workload/poisson_flows.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <sstream>

#include "workload/flow_generator.h"

namespace aifabric {
namespace {

// The NIC's rate: the sum of its links' (a dual-ToR or multi-plane NIC has several).
DataRate HostRate(const Topology& topology, NodeId host) {
  const Node& node = topology.node(host);
  assert(!node.ports.empty());
  uint64_t bps = 0;
  for (PortId p : node.ports) bps += topology.port(p).rate.bps();
  return DataRate::BitsPerSecond(bps);
}

// `v` as a stream prints it: 6 significant digits ("0.75", "1e+06").
std::string StreamedNumber(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

double ExpectedPoissonFlows(const PoissonSpec& spec, const Topology& topology,
                            const FlowSizeCdf& cdf) {
  const double mean_bits = cdf.Mean() * 8.0;
  double total = 0;
  for (NodeId host : topology.hosts()) {
    const double rate_bps = static_cast<double>(HostRate(topology, host).bps());
    total += spec.duration.seconds() * rate_bps * spec.load / mean_bits;
  }
  return total;
}

Result<std::vector<FlowSpec>> BuildPoissonFlows(const PoissonSpec& spec,
                                                const Topology& topology, Rng& rng,
                                                const std::string& field_prefix) {
  const std::string field = field_prefix + ".poisson";
  if (!(spec.load > 0 && spec.load <= 1)) {
    return Error{field + ".load: expected a fraction of the host link rate in (0, 1], got " +
                 StreamedNumber(spec.load)};
  }
  if (spec.duration <= Time::Zero() || spec.duration.IsInfinite()) {
    return Error{field + ".duration: expected a finite duration > 0"};
  }
  if (spec.start < Time::Zero() || spec.start.ps() > Time::Infinite().ps() - spec.duration.ps()) {
    return Error{field + ".start: expected a start >= 0 with start + duration representable"};
  }
  const std::vector<NodeId>& hosts = topology.hosts();
  if (hosts.size() < 2) {
    return Error{field + ": needs at least 2 hosts, the topology has " +
                 std::to_string(hosts.size())};
  }
  for (NodeId host : hosts) {
    const Node& node = topology.node(host);
    if (node.ports.empty()) {
      return Error{field + ": host " + std::to_string(host) + " (" + node.name +
                   ") has no link, so it has no link rate to load"};
    }
    if (HostRate(topology, host).IsZero()) {
      return Error{field + ": host " + std::to_string(host) + " (" + node.name +
                   ") has a link of rate 0"};
    }
  }
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Load(spec.cdf_file);
  if (!cdf.ok()) return Error{field + ".cdf_file: " + cdf.error().message};

  const double expected = ExpectedPoissonFlows(spec, topology, *cdf);
  if (expected > static_cast<double>(kMaxGeneratedFlows)) {
    return Error{field + ".duration: about " + std::to_string(std::llround(expected)) +
                 " flows expected, more than the limit of " + std::to_string(kMaxGeneratedFlows) +
                 "; shorten the duration, lower the load or use fewer hosts"};
  }

  const Rng workload_rng(rng.Next());
  const double mean_bits = cdf->Mean() * 8.0;
  const int64_t end_ps = spec.start.ps() + spec.duration.ps();
  const uint64_t num_hosts = hosts.size();
  std::vector<FlowSpec> flows;
  flows.reserve(static_cast<size_t>(expected * 1.01 + 16));
  for (uint64_t i = 0; i < num_hosts; ++i) {
    Rng host_rng = workload_rng.Fork(i);
    const double rate_bps = static_cast<double>(HostRate(topology, hosts[i]).bps());
    const double mean_gap_ps = mean_bits / (rate_bps * spec.load) * 1e12;
    double t = static_cast<double>(spec.start.ps());
    while (true) {
      t += host_rng.Exponential(mean_gap_ps);
      const double at = std::round(t);
      if (at >= static_cast<double>(end_ps)) break;
      uint64_t dst_index = host_rng.Below(num_hosts - 1);
      if (dst_index >= i) ++dst_index;  // skip the host itself
      FlowSpec flow;
      flow.src = hosts[i];
      flow.dst = hosts[dst_index];
      flow.bytes = cdf->Sample(host_rng);
      flow.start = Time::FromPs(static_cast<int64_t>(at));
      flow.priority = spec.priority;
      flows.push_back(flow);
    }
  }
  std::stable_sort(flows.begin(), flows.end(),
                   [](const FlowSpec& a, const FlowSpec& b) { return a.start < b.start; });
  return flows;
}

}  // namespace aifabric
