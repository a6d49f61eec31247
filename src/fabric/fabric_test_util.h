// Helpers shared by the fabric tests (test-only; not part of the library).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "fabric/catalog.h"
#include "fabric/network_model.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "fabric/topology_builder.h"
#include "fabric/topology_spec.h"

namespace aifabric::fabric_testing {

// A transfer of `bytes` from host src to host dst in class `priority`.
inline TransferRequest Request(FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t priority = 3) {
  TransferRequest r;
  r.id = id;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.priority = priority;
  return r;
}

// A switch spec with only a name (tests that do not size anything).
inline SwitchSpec NamedSwitch(const std::string& name) {
  SwitchSpec s;
  s.name = name;
  return s;
}

// A spec using the built-in catalog switch `switch_name`.
inline TopologySpec MakeSpec(TopologyType type, const std::string& switch_name, int servers, int nics_per_server,
                             DataRate nic_rate) {
  TopologySpec spec;
  spec.type = type;
  const SwitchSpec* sw = Catalog::BuiltIn().FindSwitch(switch_name);
  EXPECT_NE(sw, nullptr) << switch_name;
  if (sw) spec.switch_spec = *sw;
  spec.servers = servers;
  spec.nics_per_server = nics_per_server;
  spec.nic_rate = nic_rate;
  return spec;
}

// Number of distinct shortest paths from `src` to host `dst`: the sum over
// next hops of the paths from the next node (1 at dst). On a symmetric Clos
// this is the product of the next-hop counts along any one path.
inline int64_t CountShortestPaths(const Topology& t, const RoutingTable& rt, NodeId src, NodeId dst) {
  if (src == dst) return 1;
  int64_t paths = 0;
  for (PortId p : rt.NextHops(src, dst)) paths += CountShortestPaths(t, rt, t.port(p).peer, dst);
  return paths;
}

// The names of the peers of node `n`'s links, in link order (for a host,
// NIC port 0, 1, ...).
inline std::vector<std::string> PeerNames(const Topology& t, NodeId n) {
  std::vector<std::string> out;
  for (PortId p : t.node(n).ports) out.push_back(t.node(t.port(p).peer).name);
  return out;
}

// Switches of `tier`.
inline int CountTier(const Topology& t, int tier) {
  int n = 0;
  for (const Node& node : t.nodes()) n += node.kind == NodeKind::kSwitch && node.tier == tier;
  return n;
}


// 4 leaves x 4 hosts, 4 spines, one link from each leaf to each spine:
// hosts h0..h15 (ids 0-15), leaf0..3 (16-19), spine0..3 (20-23).
inline Topology LeafSpine4x4() {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.hosts_per_leaf = 4;
  spec.spines = 4;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// h0 - sw - h1, 100G links with 500 ns cables: link 0 gives ports 0
// (h0 -> sw) and 1 (sw -> h0), link 1 ports 2 (h1 -> sw) and 3 (sw -> h1).
inline Topology TwoHostsOnASwitch() {
  Topology t;
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  const NodeId sw = t.AddSwitch("sw", 1, -1);
  t.AddLink(h0, sw, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(h1, sw, DataRate::Gbps(100), Time::FromNs(500));
  return t;
}

// One path of four hops, every switch of `spec`, 500 ns cables:
// h0 (id 0) -100G- leaf0 -400G- spine0 -400G- leaf1 -100G- h1 (id 1).
inline Topology FourHopPath(const SwitchSpec& spec) {
  Topology t;
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  const int s = t.AddSwitchSpec(spec);
  const NodeId l0 = t.AddSwitch("leaf0", 1, s), l1 = t.AddSwitch("leaf1", 1, s);
  const NodeId sp = t.AddSwitch("spine0", 2, s);
  const Time cable = Time::FromNs(500);
  t.AddLink(h0, l0, DataRate::Gbps(100), cable);
  t.AddLink(l0, sp, DataRate::Gbps(400), cable);
  t.AddLink(sp, l1, DataRate::Gbps(400), cable);
  t.AddLink(l1, h1, DataRate::Gbps(100), cable);
  return t;
}

// An irregular 2-tier fabric (all links 100G):
//   leaf0 (id 9):  h0 h1        up: spine0, spine1, spine2
//   leaf1 (id 10): h2 h3 h4 h5  up: spine0, spine1
//   leaf2 (id 11): h6 h7 h8     up: spine0, spine0 (two links), spine2
// spines are ids 12-14. Host links come first, so a leaf's IB ports are its
// hosts, then its up-links in the order above.
inline Topology Irregular() {
  Topology t;
  auto name = [](const char* prefix, int i) {
    std::string n = prefix;  // appended, not "literal" + string (GCC 12 -Wrestrict)
    n += std::to_string(i);
    return n;
  };
  for (int h = 0; h < 9; ++h) t.AddHost(name("h", h), h, 0);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  for (int l = 0; l < 3; ++l) t.AddSwitch(name("leaf", l), 1, spec);
  for (int s = 0; s < 3; ++s) t.AddSwitch(name("spine", s), 2, spec);
  const DataRate r = DataRate::Gbps(100);
  const int leaf_of[9] = {9, 9, 10, 10, 10, 10, 11, 11, 11};
  for (int h = 0; h < 9; ++h) t.AddLink(h, leaf_of[h], r, Time::Zero());
  for (auto [leaf, spine] : std::vector<std::pair<int, int>>{{9, 12}, {9, 13}, {9, 14}, {10, 12}, {10, 13},
                                                              {11, 12}, {11, 12}, {11, 14}}) {
    t.AddLink(leaf, spine, r, Time::Zero());
  }
  return t;
}

// The link-fault tests' switch: 64 ports of 400G, 400 ns
// store-and-forward, 64 MiB of buffer.
inline SwitchSpec LinkFaultTestSwitch() {
  SwitchSpec spec;
  spec.name = "test";
  spec.radix = 64;
  spec.port_rate = DataRate::Gbps(400);
  spec.latency = Time::FromNs(400);
  spec.buffer_bytes = 64ull << 20;
  return spec;
}

// h0 under leaf0, h1 under leaf1, each leaf joined to spine0 and spine1:
// two equal-cost paths, every link 400G with 500 ns cables, switches
// LinkFaultTestSwitch().
struct TwoSpines {
  TwoSpines() {
    const SwitchSpec spec = LinkFaultTestSwitch();
    h0 = t.AddHost("h0");
    h1 = t.AddHost("h1");
    const int s = t.AddSwitchSpec(spec);
    leaf0 = t.AddSwitch("leaf0", 1, s);
    leaf1 = t.AddSwitch("leaf1", 1, s);
    spine0 = t.AddSwitch("spine0", 2, s);
    spine1 = t.AddSwitch("spine1", 2, s);
    const DataRate r = DataRate::Gbps(400);
    const Time cable = Time::FromNs(500);
    t.AddLink(h0, leaf0, r, cable);
    t.AddLink(h1, leaf1, r, cable);
    for (NodeId leaf : {leaf0, leaf1}) {
      for (NodeId spine : {spine0, spine1}) t.AddLink(leaf, spine, r, cable);
    }
  }
  // The link joining a and b (-1 if none).
  LinkId Link(NodeId a, NodeId b) const {
    for (PortId p : t.node(a).ports) {
      if (t.port(p).peer == b) return t.port(p).link;
    }
    return -1;
  }
  Topology t;
  NodeId h0, h1, leaf0, leaf1, spine0, spine1;
};

}  // namespace aifabric::fabric_testing
