// CollectiveExecutor runs one CollectiveDag on the simulator: it maps ranks
// to fabric nodes, starts each node once all its dependencies have finished
// and its fixed latency has passed, sends transfers between different nodes
// through any NetworkModel and transfers within a node through a
// LocalTransferModel, times reductions as bytes / reduce rate, and records
// every node's start and finish. It knows no concrete model, so the packet
// model today and a flow-level model later run the same DAGs.
// Lives inside one Simulator; not thread-safe.
//
// Observers: the caller routes completions to the executor — set it as the
// NetworkModel's and the LocalTransferModel's observer, or forward the ids
// OwnsTransfer() claims (transfer node i has id first_flow_id + i).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/result.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/network_model.h"
#include "workload/collective_dag.h"
#include "workload/collective_local_transfer.h"

namespace aifabric {

struct CollectiveExecutorOptions {
  // GPU reduction throughput; a reduce node of b bytes takes b / rate.
  // Zero: reductions take no time. Reductions on switch ranks (NVLS) always
  // take no time: the switch reduces at line rate as data streams through.
  DataRate reduce_rate;
  FlowId first_flow_id = 0;  // ids first_flow_id .. first_flow_id + dag.size() - 1 are used
  uint8_t priority = 3;      // traffic class of the transfers
  uint16_t dport = 4791;
  // Called once, when the last node has finished (at once for an empty
  // DAG); may be empty.
  std::function<void()> on_done;
};

class CollectiveExecutor final : public TransferObserver, public EventHandler {
 public:
  // `rank_nodes[r]` is the fabric node of rank r (GPU ranks, then switch
  // ranks). `sim`, `network`, `local` and `dag` outlive the executor, and it
  // outlives the run (pending events point at it).
  CollectiveExecutor(Simulator& sim, NetworkModel& network, LocalTransferModel& local,
                     const CollectiveDag& dag, std::vector<NodeId> rank_nodes,
                     CollectiveExecutorOptions options);
  CollectiveExecutor(const CollectiveExecutor&) = delete;
  CollectiveExecutor& operator=(const CollectiveExecutor&) = delete;

  // Checks the mapping (one node per rank, none missing), then starts every
  // node without dependencies at Now(). Call once.
  Status Start();

  bool done() const { return finished_ == dag_.size(); }
  Time start_time() const { return start_time_; }
  // The last node's finish (start_time() for an empty DAG). REQUIRES: done().
  Time finish_time() const;
  Time duration() const { return finish_time() - start_time_; }
  // Per DAG node: when it began (after its latency) and finished;
  // Time::Infinite() if not yet.
  const std::vector<Time>& node_start() const { return start_; }
  const std::vector<Time>& node_finish() const { return finish_; }

  bool OwnsTransfer(FlowId id) const {
    return id >= options_.first_flow_id && id < options_.first_flow_id + static_cast<FlowId>(dag_.size());
  }
  void OnTransferDone(FlowId id, Time finish) override;
  void OnEvent(uint64_t tag) override;

 private:
  void Begin(DagNodeIndex i);
  // Readies the nodes without dependencies.
  void ReadyRoots();
  // Processes finished and ready nodes until none is left (no recursion, so
  // long chains of zero-time nodes cost no stack).
  void Drain();

  // Fixed at construction.
  Simulator& sim_;
  NetworkModel& network_;
  LocalTransferModel& local_;
  const CollectiveDag& dag_;
  const std::vector<NodeId> rank_nodes_;
  const CollectiveExecutorOptions options_;

  Time start_time_;
  std::vector<uint32_t> waiting_;  // unfinished dependencies per node
  std::vector<Time> start_;
  std::vector<Time> finish_;
  size_t finished_ = 0;
  std::vector<DagNodeIndex> newly_finished_;
  std::vector<DagNodeIndex> newly_ready_;
  bool draining_ = false;
  bool started_ = false;
  bool reported_done_ = false;
};

}  // namespace aifabric
