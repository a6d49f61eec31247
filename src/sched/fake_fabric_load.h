// FakeFabricLoad is a FabricLoad set by hand, for the scheduling tests
// (test-only; not part of the library): every port starts idle and up, and
// the cluster has no storage until a test says otherwise.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "sched/fabric_load.h"

namespace aifabric::sched_testing {

class FakeFabricLoad final : public FabricLoad {
 public:
  explicit FakeFabricLoad(const Topology& topology)
      : load_(topology.ports().size(), 0.0), up_(topology.ports().size(), 1) {}

  double PortLoad(PortId port) const override { return load_[static_cast<size_t>(port)]; }
  bool PortUp(PortId port) const override { return up_[static_cast<size_t>(port)] != 0; }
  std::span<const int> StorageServers() const override { return storage_; }

  // Sets both directions of `port`'s link.
  void SetLinkLoad(PortId port, double load) {
    load_[static_cast<size_t>(port)] = load;
    load_[static_cast<size_t>(port ^ 1)] = load;
  }
  void SetLinkUp(PortId port, bool up) {
    up_[static_cast<size_t>(port)] = up;
    up_[static_cast<size_t>(port ^ 1)] = up;
  }
  void SetStorageServers(std::vector<int> servers) { storage_ = std::move(servers); }
  size_t ports() const { return load_.size(); }

 private:
  std::vector<double> load_;  // per port, fraction of capacity
  std::vector<char> up_;      // per port
  std::vector<int> storage_;  // sorted server indices
};

// The port from node `from` to node `to` (by name); the first link when
// there are several. Fails the test (and returns port 0) when they are not
// linked, so a wrong name cannot index out of range.
inline PortId PortBetween(const Topology& topology, const std::string& from, const std::string& to) {
  const NodeId a = topology.FindByName(from), b = topology.FindByName(to);
  if (a != kNoNode && b != kNoNode) {
    for (PortId p : topology.node(a).ports) {
      if (topology.port(p).peer == b) return p;
    }
  }
  ADD_FAILURE() << from << " -> " << to << ": no such link";
  return 0;
}

}  // namespace aifabric::sched_testing
