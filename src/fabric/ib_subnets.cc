#include "fabric/ib_subnets.h"

#include <algorithm>

namespace aifabric {
namespace {

// One subnet as a topology of its own: every host, the subnet's switches
// and the links among them, in the whole fabric's order.
struct Subnet {
  Topology topology;
  std::vector<LinkId> link_of;  // by the subnet's LinkId: the fabric's
  std::vector<uint8_t> down;    // by the subnet's LinkId
};

Subnet CutSubnet(const Topology& t, const std::vector<int>& subnet, int s, std::span<const uint8_t> link_down) {
  Subnet out;
  for (const SwitchSpec& spec : t.switch_specs()) out.topology.AddSwitchSpec(spec);
  std::vector<NodeId> in_subnet(t.num_nodes(), kNoNode);
  for (const Node& n : t.nodes()) {
    if (n.kind == NodeKind::kHost) {
      in_subnet[n.id] = out.topology.AddHost(n.name, n.server, n.rail);
    } else if (subnet[n.id] == s) {
      in_subnet[n.id] = out.topology.AddSwitch(n.name, n.tier, n.switch_spec);
      if (n.pod >= 0) out.topology.SetPod(in_subnet[n.id], n.pod);
    }
  }
  for (LinkId l = 0; static_cast<size_t>(l) < t.num_links(); ++l) {
    const Port& p = t.port(2 * l);
    const NodeId a = in_subnet[p.node], b = in_subnet[p.peer];
    const bool host_to_host = t.node(p.node).kind == NodeKind::kHost && t.node(p.peer).kind == NodeKind::kHost;
    if (a == kNoNode || b == kNoNode || host_to_host) continue;
    out.topology.AddLink(a, b, p.rate, p.latency);
    out.link_of.push_back(l);
    out.down.push_back(link_down.empty() ? 0 : link_down[static_cast<size_t>(l)]);
  }
  return out;
}

}  // namespace

std::vector<int> SwitchSubnets(const Topology& topology) {
  std::vector<int> subnet(topology.num_nodes(), -1);
  std::vector<NodeId> stack;
  int next = 0;
  for (const Node& n : topology.nodes()) {
    if (n.kind != NodeKind::kSwitch || subnet[n.id] >= 0) continue;
    subnet[n.id] = next;
    stack.push_back(n.id);
    while (!stack.empty()) {
      const NodeId at = stack.back();
      stack.pop_back();
      for (PortId p : topology.node(at).ports) {
        const NodeId m = topology.port(p).peer;
        if (topology.node(m).kind == NodeKind::kSwitch && subnet[m] < 0) {
          subnet[m] = next;
          stack.push_back(m);
        }
      }
    }
    ++next;
  }
  return subnet;
}

int SubnetCount(const Topology& topology) {
  const std::vector<int> subnet = SwitchSubnets(topology);
  return subnet.empty() ? 0 : *std::max_element(subnet.begin(), subnet.end()) + 1;
}

ForwardingTables RouteSubnets(const Topology& topology, IbRoutingEngine engine, std::span<const uint8_t> link_down) {
  const std::vector<int> subnet = SwitchSubnets(topology);
  const int subnets = subnet.empty() ? 0 : *std::max_element(subnet.begin(), subnet.end()) + 1;
  if (subnets <= 1) return engine(topology, IbLidMap::ForTopology(topology), link_down);
  ForwardingTables all(topology);
  bool least_hop = true;
  const std::vector<NodeId>& hosts = topology.hosts();
  for (int s = 0; s < subnets; ++s) {
    const Subnet cut = CutSubnet(topology, subnet, s, link_down);
    const Topology& sub = cut.topology;
    const ForwardingTables tables = engine(sub, IbLidMap::ForTopology(sub), cut.down);
    least_hop = least_hop && tables.delivers_by_construction();
    // A host whose every link into the subnet is down has left it.
    std::vector<uint8_t> gone(hosts.size(), 0);
    for (size_t i = 0; i < hosts.size(); ++i) {
      const std::vector<PortId>& ports = sub.node(sub.hosts()[i]).ports;
      gone[i] = !ports.empty() && std::all_of(ports.begin(), ports.end(), [&](PortId p) {
        return cut.down[static_cast<size_t>(sub.port(p).link)] != 0;
      });
      least_hop = least_hop && gone[i] == 0;
    }
    const std::vector<NodeId> sub_switches = sub.switches();
    size_t k = 0;
    for (NodeId sw : topology.switches()) {
      if (subnet[sw] != s) continue;
      const NodeId sub_sw = sub_switches[k++];
      for (size_t i = 0; i < hosts.size(); ++i) {
        const PortId q = tables.Get(sub_sw, sub.hosts()[i]);
        if (q == kNoPort || gone[i] != 0) continue;
        all.Set(sw, hosts[i], 2 * cut.link_of[static_cast<size_t>(q / 2)] + (q & 1));
      }
    }
  }
  all.least_hop_ = least_hop;  // each subnet's entries lead to the destination within it
  return all;
}

}  // namespace aifabric
