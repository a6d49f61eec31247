// FabricLoad is what a placement policy may know of the fabric's live
// state while a replay runs: how loaded each directed port is, whether its
// link is up, and where storage sits. The replay (cluster_replay.h)
// implements it from its flow-level network; tests implement it by hand.
// Read-only to the policy; valid for the duration of one Place call.
#pragma once

#include <span>

#include "core/ids.h"

namespace aifabric {

class FabricLoad {
 public:
  virtual ~FabricLoad() = default;
  // The load of directed port `port` (a PortId of the replay's Topology) as
  // a fraction of its capacity: the larger of what it carried over the
  // recent window and what the running jobs' traffic asks of it on
  // average. Usually in [0, 1]; above 1 when the jobs ask more than it can
  // carry.
  virtual double PortLoad(PortId port) const = 0;
  // False when the port's link is down.
  virtual bool PortUp(PortId port) const = 0;
  // Servers (ClusterLayout indices) that hold the cluster's storage, sorted;
  // they take no jobs. Empty when the cluster has none.
  virtual std::span<const int> StorageServers() const = 0;
};

}  // namespace aifabric
