// Small topologies for the workload tests, built directly with Topology's
// Add* calls (not the builders), header-only and used only by *_test.cc.
#pragma once

#include <string>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"

namespace aifabric::testing_topology {

// prefix + index. (Appending, rather than `"h" + std::to_string(i)`,
// avoids a GCC 12 -Wrestrict false positive, GCC bug 105329.)
inline std::string Name(const char* prefix, int index) {
  std::string name = prefix;
  name += std::to_string(index);
  return name;
}

// `hosts` hosts (node ids 0..hosts-1) under one switch (node id `hosts`),
// each with one link at `rate`.
inline Topology Star(int hosts, DataRate rate = DataRate::Gbps(100)) {
  Topology t;
  for (int i = 0; i < hosts; ++i) t.AddHost(Name("h", i), i, 0);
  const NodeId sw = t.AddSwitch("sw0", 1, -1);
  for (int i = 0; i < hosts; ++i) t.AddLink(i, sw, rate, Time::FromNs(500));
  return t;
}

// Like an HPCC topology file: node ids interleave switches and hosts, so a
// host's node id differs from its host index. Layout: node 0 is a switch,
// then hosts and switches alternate (1 host, 2 switch, 3 host, ...), `hosts`
// hosts in all, every host linked to switch 0.
inline Topology Interleaved(int hosts, DataRate rate = DataRate::Gbps(100)) {
  Topology t;
  const NodeId sw = t.AddSwitch("sw0", 1, -1);
  for (int i = 0; i < hosts; ++i) {
    const NodeId h = t.AddHost(Name("h", i));
    t.AddLink(h, sw, rate, Time::FromNs(500));
    t.AddSwitch(Name("sw", i + 1), 1, -1);
  }
  return t;
}

// `servers` servers of `gpus_per_server` GPUs, one NIC (host) each on its
// own rail, no links: all a network that ignores the fabric (the
// AlphaBetaNetwork) needs.
inline ClusterLayout GpuServers(int servers, int gpus_per_server) {
  Topology t;
  for (int s = 0; s < servers; ++s) {
    for (int r = 0; r < gpus_per_server; ++r) t.AddHost(Name("h", t.num_nodes()), s, r);
  }
  ServerSpec spec;
  spec.gpus_per_server = gpus_per_server;
  return ClusterLayout::Build(t, spec).value();
}

}  // namespace aifabric::testing_topology
