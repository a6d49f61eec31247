#include "fabric/topology.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

NodeId Topology::AddHost(std::string name, int server, int rail) {
  const NodeId id = static_cast<NodeId>(nodes_.size());
  Node n;
  n.id = id;
  n.kind = NodeKind::kHost;
  n.tier = 0;
  n.name = std::move(name);
  n.server = server;
  n.rail = rail;
  nodes_.push_back(std::move(n));
  host_index_.push_back(static_cast<int>(hosts_.size()));
  hosts_.push_back(id);
  return id;
}

NodeId Topology::AddSwitch(std::string name, int tier, int switch_spec) {
  assert(switch_spec >= -1 && switch_spec < static_cast<int>(switch_specs_.size()));
  const NodeId id = static_cast<NodeId>(nodes_.size());
  Node n;
  n.id = id;
  n.kind = NodeKind::kSwitch;
  n.tier = tier;
  n.name = std::move(name);
  n.switch_spec = switch_spec;
  nodes_.push_back(std::move(n));
  host_index_.push_back(-1);
  return id;
}

int Topology::AddSwitchSpec(const SwitchSpec& spec) {
  switch_specs_.push_back(spec);
  return static_cast<int>(switch_specs_.size()) - 1;
}

LinkId Topology::AddLink(NodeId a, NodeId b, DataRate rate, Time latency) {
  assert(a >= 0 && a < static_cast<NodeId>(nodes_.size()));
  assert(b >= 0 && b < static_cast<NodeId>(nodes_.size()));
  assert(a != b);
  const LinkId link = static_cast<LinkId>(ports_.size() / 2);
  const PortId forward = 2 * link;
  ports_.push_back(Port{forward, a, b, link, rate, latency});
  ports_.push_back(Port{forward + 1, b, a, link, rate, latency});
  nodes_[a].ports.push_back(forward);
  nodes_[b].ports.push_back(forward + 1);
  return link;
}

void Topology::MarkSwitch(NodeId id, int tier, int switch_spec) {
  assert(id >= 0 && id < static_cast<NodeId>(nodes_.size()));
  assert(switch_spec >= -1 && switch_spec < static_cast<int>(switch_specs_.size()));
  Node& n = nodes_[id];
  if (n.kind == NodeKind::kHost) {
    const int index = host_index_[id];
    assert(index >= 0 && hosts_[index] == id);
    hosts_.erase(hosts_.begin() + index);
    host_index_[id] = -1;
    for (size_t i = index; i < hosts_.size(); ++i) host_index_[hosts_[i]] = static_cast<int>(i);
    n.kind = NodeKind::kSwitch;
    n.server = -1;
    n.rail = -1;
  }
  n.tier = tier;
  n.switch_spec = switch_spec;
}

void Topology::SetPod(NodeId id, int pod) {
  assert(id >= 0 && id < static_cast<NodeId>(nodes_.size()));
  nodes_[id].pod = pod;
}

std::vector<NodeId> Topology::switches() const {
  std::vector<NodeId> out;
  out.reserve(nodes_.size() - hosts_.size());
  for (const Node& n : nodes_) {
    if (n.kind == NodeKind::kSwitch) out.push_back(n.id);
  }
  return out;
}

int Topology::max_tier() const {
  int tier = 0;
  for (const Node& n : nodes_) {
    if (n.kind == NodeKind::kSwitch) tier = std::max(tier, n.tier);
  }
  return tier;
}

NodeId Topology::FindByName(const std::string& name) const {
  for (const Node& n : nodes_) {
    if (n.name == name) return n.id;
  }
  return kNoNode;
}

}  // namespace aifabric
