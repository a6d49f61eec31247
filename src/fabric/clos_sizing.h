// The arithmetic the Clos builders share: checking a TopologySpec's common
// fields, sizing a switch's downlinks and uplinks for an oversubscription
// ratio, spreading uplinks over the layer above, and adding the hosts in the
// order everyone relies on. Pure functions; thread-safe.
#pragma once

#include <string>

#include "core/data_rate.h"
#include "core/result.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

// Checks what every generated fabric needs: cluster.servers >= 1, NICs per
// server >= 1, a positive NIC rate, a switch with >= 2 ports and a positive
// port rate, a non-negative link latency, 1..kMaxPlanes planes. Messages
// name the scenario field.
Status ValidateClusterAndSwitch(const TopologySpec& spec);

// The most planes a fabric may have (HPN builds 2; 8 covers one plane per
// port of today's multi-port NICs with room to spare).
constexpr int kMaxPlanes = 8;

// `value` >= 1 (a downlink:uplink ratio); `field` names it in the message.
Status ValidateOversubscription(double value, const std::string& field);

// A knob that must be >= 0 (0 means "derive it").
Status ValidateKnob(int value, const std::string& field);

// How a NIC attaches to the switch fabric. Each of spec.planes planes is a
// whole copy of the switch tiers; in each plane the NIC has TorSides ports,
// one to each ToR of its ToR group (2 with dual_tor: a ToR pair, Alibaba
// HPN's dual-ToR; else 1). So a NIC has NicLinks = TorSides x planes links,
// and its i-th link (NIC port i) is on plane i / TorSides, side i % TorSides.
// The NIC's rate is split evenly over them (HPN: a 400G NIC as 2 x 200G).
int TorSides(const TopologySpec& spec);
int NicLinks(const TopologySpec& spec);

// Rate of every host link: min(nic_rate / NicLinks, switch port rate).
DataRate HostLinkRate(const TopologySpec& spec);

// Links host `h` to its ToRs, plane-major and side-minor: in plane p to the
// TorSides leaves first_tor + p * leaves_per_plane + s, s = 0 .. TorSides - 1
// (first_tor: its ToR group's first leaf in plane 0), at HostLinkRate.
void AttachHost(const TopologySpec& spec, NodeId h, NodeId first_tor, int leaves_per_plane, Topology& topology);

// Uplinks (at `up_rate`) a switch with `down` downlinks (at `down_rate`)
// needs so that down capacity / up capacity <= oversubscription:
// ceil(down * down_rate / (oversubscription * up_rate)).
// REQUIRES: oversubscription > 0, up_rate > 0.
int UplinksFor(int down, DataRate down_rate, double oversubscription, DataRate up_rate);

// The largest n with n + UplinksFor(n, ...) <= radix. With equal rates this
// is floor(radix * o / (1 + o)): 64 of 128 ports at o = 1, 96 at o = 3.
int MaxDownlinks(int radix, DataRate down_rate, double oversubscription, DataRate up_rate);

// How one layer of switches is wired to the layer above: every lower switch
// links to every one of `upper` switches with `links_each` parallel links.
struct UplinkPlan {
  int upper = 0;
  int links_each = 0;
  int uplinks() const { return upper * links_each; }
};

// Spreads `uplinks` ports over the layer above. `requested_upper` == 0: one
// switch per uplink (upper = uplinks, one link each). Otherwise upper =
// requested_upper and links_each = ceil(uplinks / upper): the uplinks are
// rounded UP to a multiple of the switch count so every pair gets the same
// number of links (equal-cost paths); the caller checks the radix still fits.
// REQUIRES: uplinks >= 1, requested_upper >= 0.
UplinkPlan PlanUplinks(int uplinks, int requested_upper);

// Adds servers * nics_per_server hosts, server-major and NIC-minor, so host
// id == server * nics_per_server + rail, named "h<id>".
// REQUIRES: the topology has no nodes yet.
void AddHosts(const TopologySpec& spec, Topology& topology);

// The first node of each switch tier AddTwoTierNodes added.
struct TwoTierIds {
  NodeId first_leaf = kNoNode;
  NodeId first_spine = kNoNode;
};

// Adds the nodes of a two-tier (leaf-spine) fabric: the hosts (see
// AddHosts), then `leaves` switches "leaf<i>" (tier 1), then `spines`
// switches "spine<j>" (tier 2), all of spec.switch_spec. Adds no links.
// REQUIRES: the topology has no nodes yet.
TwoTierIds AddTwoTierNodes(const TopologySpec& spec, int leaves, int spines, Topology& topology);

// ceil(a / b) for positive ints.
constexpr int CeilDiv(int a, int b) { return (a + b - 1) / b; }

// Links every node in [lower_first, lower_first + lower_count) to every node
// in [upper_first, upper_first + upper_count) with `links_each` parallel
// links, lower-major, all at `rate` and `latency`.
void WireAllToAll(Topology& topology, NodeId lower_first, int lower_count, NodeId upper_first,
                  int upper_count, int links_each, DataRate rate, Time latency);

}  // namespace aifabric
