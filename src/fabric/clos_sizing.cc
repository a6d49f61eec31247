#include "fabric/clos_sizing.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/units.h"

namespace aifabric {
namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

Status ValidateClusterAndSwitch(const TopologySpec& spec) {
  if (spec.servers < 1) {
    return Error{"cluster.servers: must be >= 1, got " + std::to_string(spec.servers)};
  }
  if (spec.nics_per_server < 1) {
    return Error{"cluster.nic: NICs per server (gpus_per_server x nic.per_gpu) must be >= 1, got " +
                 std::to_string(spec.nics_per_server)};
  }
  if (static_cast<int64_t>(spec.servers) * spec.nics_per_server > 1000000) {
    return Error{"cluster: " + std::to_string(spec.servers) + " servers x " +
                 std::to_string(spec.nics_per_server) + " NICs is more than the 1,000,000 hosts supported"};
  }
  if (spec.nic_rate.IsZero()) return Error{"cluster.nic.rate: must be > 0"};
  const std::string sw = spec.switch_spec.name.empty() ? "fabric.switch" : "fabric.switch (" + spec.switch_spec.name + ")";
  if (spec.switch_spec.radix < 2) {
    return Error{sw + ".ports: a switch needs at least 2 ports, got " + std::to_string(spec.switch_spec.radix)};
  }
  if (spec.switch_spec.port_rate.IsZero()) return Error{sw + ".port_rate: must be > 0"};
  if (spec.link_latency < Time::Zero()) {
    return Error{"fabric.link.latency: must be >= 0, got " + FormatTime(spec.link_latency)};
  }
  if (spec.planes < 1 || spec.planes > kMaxPlanes) {
    return Error{"fabric.topology.planes: must be 1.." + std::to_string(kMaxPlanes) + ", got " +
                 std::to_string(spec.planes)};
  }
  return Status::Ok();
}

Status ValidateOversubscription(double value, const std::string& field) {
  if (!(value >= 1.0) || !std::isfinite(value)) {
    return Error{field + ": must be >= 1 (downlink:uplink capacity), got " + Num(value)};
  }
  return Status::Ok();
}

Status ValidateKnob(int value, const std::string& field) {
  if (value < 0) return Error{field + ": must be >= 0 (0 derives it), got " + std::to_string(value)};
  return Status::Ok();
}

int TorSides(const TopologySpec& spec) { return spec.dual_tor ? 2 : 1; }

int NicLinks(const TopologySpec& spec) { return TorSides(spec) * spec.planes; }

DataRate HostLinkRate(const TopologySpec& spec) {
  const DataRate per_port = DataRate::BitsPerSecond(spec.nic_rate.bps() / static_cast<uint64_t>(NicLinks(spec)));
  return Min(per_port, spec.switch_spec.port_rate);
}

void AttachHost(const TopologySpec& spec, NodeId h, NodeId first_tor, int leaves_per_plane, Topology& topology) {
  const DataRate rate = HostLinkRate(spec);
  for (int p = 0; p < spec.planes; ++p) {
    for (int s = 0; s < TorSides(spec); ++s) {
      topology.AddLink(h, first_tor + p * leaves_per_plane + s, rate, spec.link_latency);
    }
  }
}

int UplinksFor(int down, DataRate down_rate, double oversubscription, DataRate up_rate) {
  assert(oversubscription > 0 && !up_rate.IsZero());
  const double need = static_cast<double>(down) * static_cast<double>(down_rate.bps()) /
                      (oversubscription * static_cast<double>(up_rate.bps()));
  // The epsilon keeps an exact quotient (96 / 3 = 32) from rounding up.
  return static_cast<int>(std::ceil(need - 1e-9));
}

int MaxDownlinks(int radix, DataRate down_rate, double oversubscription, DataRate up_rate) {
  int n = 0;
  while (n + 1 + UplinksFor(n + 1, down_rate, oversubscription, up_rate) <= radix) ++n;
  return n;
}

UplinkPlan PlanUplinks(int uplinks, int requested_upper) {
  assert(uplinks >= 1 && requested_upper >= 0);
  if (requested_upper == 0) return UplinkPlan{uplinks, 1};
  return UplinkPlan{requested_upper, CeilDiv(uplinks, requested_upper)};
}

void AddHosts(const TopologySpec& spec, Topology& topology) {
  assert(topology.num_nodes() == 0);
  for (int s = 0; s < spec.servers; ++s) {
    for (int r = 0; r < spec.nics_per_server; ++r) {
      const NodeId id = static_cast<NodeId>(topology.num_nodes());
      std::string name = "h";
      name += std::to_string(id);
      topology.AddHost(std::move(name), s, r);
    }
  }
}

TwoTierIds AddTwoTierNodes(const TopologySpec& spec, int leaves, int spines, Topology& topology) {
  AddHosts(spec, topology);
  const int sw = topology.AddSwitchSpec(spec.switch_spec);
  TwoTierIds ids;
  ids.first_leaf = static_cast<NodeId>(topology.num_nodes());
  for (int i = 0; i < leaves; ++i) {
    std::string name = "leaf";
    name += std::to_string(i);
    topology.AddSwitch(std::move(name), 1, sw);
  }
  ids.first_spine = static_cast<NodeId>(topology.num_nodes());
  for (int j = 0; j < spines; ++j) {
    std::string name = "spine";
    name += std::to_string(j);
    topology.AddSwitch(std::move(name), 2, sw);
  }
  return ids;
}

void WireAllToAll(Topology& topology, NodeId lower_first, int lower_count, NodeId upper_first,
                  int upper_count, int links_each, DataRate rate, Time latency) {
  for (int i = 0; i < lower_count; ++i) {
    for (int j = 0; j < upper_count; ++j) {
      for (int l = 0; l < links_each; ++l) topology.AddLink(lower_first + i, upper_first + j, rate, latency);
    }
  }
}

}  // namespace aifabric
