// A fabric for the observe tests: hosts h0, h1, h2 on one switch "sw",
// each link 100 Gbps. Link i joins h<i> and sw: port 2i is h<i> -> sw,
// port 2i+1 is sw -> h<i>.
#pragma once

#include <string>

#include "fabric/topology.h"

namespace aifabric::observe_testing {

inline Topology ThreeHostsOneSwitch() {
  Topology t;
  SwitchSpec spec;
  spec.name = "test";
  spec.port_rate = DataRate::Gbps(100);
  const int s = t.AddSwitchSpec(spec);
  for (int i = 0; i < 3; ++i) {
    std::string name = "h";  // appended, not "h" + string (GCC 12 -Wrestrict)
    name += std::to_string(i);
    t.AddHost(name, i, 0);
  }
  const NodeId sw = t.AddSwitch("sw", 1, s);
  for (NodeId h = 0; h < 3; ++h) t.AddLink(h, sw, DataRate::Gbps(100), Time::FromNs(500));
  return t;
}

inline PortId HostUp(int i) { return 2 * i; }        // h<i> -> sw
inline PortId SwitchDown(int i) { return 2 * i + 1; }  // sw -> h<i>

}  // namespace aifabric::observe_testing
