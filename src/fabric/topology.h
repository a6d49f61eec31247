// Topology is the fabric as a graph: hosts (one per NIC endpoint), switches,
// and bidirectional links. Each link is two directed ports, 2*link (a->b) and
// 2*link+1 (b->a), so a port's reverse is `port ^ 1`. Node and port ids are
// dense indices. Built once by a builder or reader, then read-only; safe to
// share between threads once built.
#pragma once

#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"
#include "fabric/catalog.h"

namespace aifabric {

enum class NodeKind : uint8_t { kHost, kSwitch };

struct Node {
  NodeId id = kNoNode;
  NodeKind kind = NodeKind::kHost;
  // 0 for hosts; switches count up from the hosts: 1 leaf/ToR/edge,
  // 2 spine/aggregation, 3 core. -1 when unknown (e.g. an HPCC file).
  int tier = 0;
  std::string name;        // "h12", "leaf3", or the id/label from the input file
  int server = -1;         // hosts: index of the server the NIC sits in
  int rail = -1;           // hosts: NIC index within its server
  int pod = -1;            // switches in a 3-tier fat-tree: pod index
  int switch_spec = -1;    // switches: index into Topology::switch_specs()
  std::vector<PortId> ports;  // outgoing directed ports, in creation order
};

struct Port {
  PortId id = kNoPort;
  NodeId node = kNoNode;   // the sender
  NodeId peer = kNoNode;   // the receiver at the far end
  LinkId link = -1;
  DataRate rate;
  Time latency;            // propagation delay of the cable
  PortId reverse() const { return id ^ 1; }
};

class Topology {
 public:
  Topology() = default;

  // Adds a node; returns its id (ids are assigned 0, 1, 2, ...).
  NodeId AddHost(std::string name, int server = -1, int rail = -1);
  NodeId AddSwitch(std::string name, int tier, int switch_spec);
  // Adds a switch spec (from the catalog); returns its index.
  int AddSwitchSpec(const SwitchSpec& spec);
  // Adds a bidirectional link; both directions get `rate` and `latency`.
  // REQUIRES: a and b are existing nodes, a != b.
  LinkId AddLink(NodeId a, NodeId b, DataRate rate, Time latency);
  // Changes a node's kind (HPCC files list switches after the node count).
  // A host loses its server/rail and leaves hosts(); calling it on a switch
  // updates its tier and spec.
  void MarkSwitch(NodeId id, int tier, int switch_spec);
  // Sets a switch's pod (3-tier fat-trees and the Lingjun reader).
  void SetPod(NodeId id, int pod);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Port>& ports() const { return ports_; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  const Port& port(PortId id) const { return ports_[id]; }
  const std::vector<SwitchSpec>& switch_specs() const { return switch_specs_; }
  size_t num_nodes() const { return nodes_.size(); }
  size_t num_links() const { return ports_.size() / 2; }

  // Hosts in id order, and each host's dense index among hosts.
  const std::vector<NodeId>& hosts() const { return hosts_; }
  int host_index(NodeId id) const { return host_index_[id]; }
  std::vector<NodeId> switches() const;
  // Deepest switch tier present (0 if there are no switches).
  int max_tier() const;

  // Finds a node by name; kNoNode if absent. Linear in the node count.
  NodeId FindByName(const std::string& name) const;

 private:
  std::vector<Node> nodes_;
  std::vector<Port> ports_;
  std::vector<SwitchSpec> switch_specs_;
  std::vector<NodeId> hosts_;
  std::vector<int> host_index_;  // by NodeId; -1 for switches
};

}  // namespace aifabric
