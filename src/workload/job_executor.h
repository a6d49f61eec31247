// JobExecutor runs a JobGraph on the simulator over a NetworkModel whose
// endpoints are GPU ids (flow/gpu_network.h: GPU g is endpoint g, server
// s's NVSwitch endpoint layout.gpus() + s). A node starts once all its
// dependencies have finished. A GPU runs one compute node at a time, in the
// order they became ready (its compute stream), each for its duration
// (stretched where options.slowdowns slows the GPU); communication runs
// beside compute, as NCCL kernels on their own stream do. A collective node
// compiles to a CollectiveDag (collective_algorithms.h) over its group and
// runs through a CollectiveExecutor (or, with coflow_collectives on a
// network that has them, as one coflow); a transfer node is one transfer. The
// executor records every node's start and finish for metrics and traces.
// Lives inside one Simulator; not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "core/data_rate.h"
#include "core/result.h"
#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "workload/collective_coflow.h"
#include "workload/collective_executor.h"
#include "workload/compute_slowdown.h"
#include "workload/job_graph.h"

namespace aifabric {

struct JobExecutorOptions {
  CollectiveProtocol protocol = CollectiveProtocol::kSimple;
  // The protocol's latencies and efficiencies (a scenario's calibration,
  // as `aifabric collective` times it), which also time the ring-or-tree
  // choice of a default AllReduce; unset: the built-in table's.
  std::optional<ProtocolSpec> protocol_spec;
  int32_t channels = 0;        // per collective; 0 = its GPUs per server (every rail busy)
  uint64_t chunk_bytes = 0;    // 0 = NCCL's (NcclChunkBytes)
  uint64_t max_dag_nodes = CollectiveOptions{}.max_dag_nodes;  // per collective's step DAG
  bool pxn = true;             // relay cross-rail sends over NVLink (multi-server collectives)
  DataRate reduce_rate;        // GPU reduction throughput; zero = free
  uint8_t priority = 3;        // traffic class of every transfer
  FlowId first_flow_id = 0;    // ids from here on are this executor's
  // Run each ring or tree collective as one coflow
  // (workload/collective_coflow.h) rather than its step DAG, when the
  // network supports coflows (flow level, analytic); ignored otherwise.
  bool coflow_collectives = false;
  // The network bandwidth one GPU has (its NIC's share), for choosing
  // between ring and tree. Zero: kDefault AllReduces run as rings.
  DataRate gpu_network_rate;
  // Straggler GPUs: their kernels stretched inside the windows
  // (compute_slowdown.h); empty: every GPU at its nominal speed.
  ComputeSlowdowns slowdowns;
  // Run only nodes 0..node_limit-1 (0: all); the later ones never start
  // (their start and finish stay infinite) and are not waited for. For
  // background work appended to a graph that a run may leave out, e.g. a
  // training step's checkpoint in the steps that write none. REQUIRES:
  // node_limit <= the graph's size; no node below it depends on one at or
  // past it (Start refuses such a graph).
  size_t node_limit = 0;
  // Called once, when the last node has finished (at Start for an empty
  // graph); may be empty. It runs inside the executor's own event, so it
  // must not destroy the executor (defer that, e.g. to a callback at Now()).
  std::function<void()> on_done;
};

class JobExecutor final : public TransferObserver, public EventHandler {
 public:
  // `sim`, `network`, `layout` and `graph` outlive the executor; the caller
  // makes the executor the network's observer. It outlives the run.
  JobExecutor(Simulator& sim, NetworkModel& network, const ClusterLayout& layout, const JobGraph& graph,
              JobExecutorOptions options);
  JobExecutor(const JobExecutor&) = delete;
  JobExecutor& operator=(const JobExecutor&) = delete;

  // Checks every GPU exists in the layout (and that the nodes it runs
  // depend on none it leaves out), then starts the nodes without
  // dependencies at Now(). Errors name the node. Call once.
  Status Start();

  bool done() const { return finished_ == run_nodes_; }
  size_t finished() const { return finished_; }  // nodes finished so far
  size_t run_nodes() const { return run_nodes_; }  // the nodes it runs: 0..run_nodes()-1
  // Set when a collective could not be built (the simulation was stopped).
  const std::optional<Error>& error() const { return error_; }
  Time start_time() const { return start_time_; }
  Time finish_time() const { return finish_time_; }  // REQUIRES: done()
  const std::vector<Time>& node_start() const { return start_; }
  const std::vector<Time>& node_finish() const { return finish_; }
  const JobGraph& graph() const { return graph_; }
  // Flow ids used so far: first_flow_id .. first_flow_id + flow_ids_used() - 1.
  FlowId flow_ids_used() const { return next_flow_id_ - options_.first_flow_id; }

  void OnTransferDone(FlowId id, Time finish) override;
  void OnEvent(uint64_t tag) override;  // a compute node finished (tag = node)

 private:
  void Ready(JobNodeIndex i);
  void Begin(JobNodeIndex i);
  // Marks `i` finished and readies its successors; nodes that finish at
  // once (empty collectives, zero-byte transfers) are queued, not recursed
  // into, so long chains cost no stack.
  void Finish(JobNodeIndex i);
  void StartCollective(JobNodeIndex i);
  // The pipeline chunk: the options' or NCCL's for the algorithm.
  uint64_t ChunkBytes(CollectiveOp op, CollectiveAlgorithm algorithm, int32_t ranks) const;
  // What a coflow's chain is timed by: a GPU's NVLink and its NICs.
  CoflowLinkRates Rates() const { return {layout_.spec().nvlink_per_dir, options_.gpu_network_rate}; }
  // A kDefault AllReduce spanning servers: ring or tree, whichever
  // EstimateCoflowTime says is faster (NCCL's tuner picks by its own
  // latency + bandwidth model the same way); remembered per group and size.
  CollectiveAlgorithm ChooseAllReduce(const CollectiveOptions& o);
  // The collective as one coflow (options_.coflow_collectives); false if
  // it has none (then nothing started).
  bool StartCoflow(JobNodeIndex i, const CollectiveOptions& o, const std::vector<GpuId>& group);
  // Starts the GPU's next ready compute node if it is idle.
  void RunNextCompute(GpuId gpu);
  Status CheckGpus() const;

  // Fixed at construction.
  Simulator& sim_;
  NetworkModel& network_;
  const ClusterLayout& layout_;
  const JobGraph& graph_;
  const JobExecutorOptions options_;
  const size_t run_nodes_;  // options_.node_limit, or the graph's size
  FixedRateLocalTransfers unused_local_;  // collectives here never stay inside one endpoint

  struct Collective {
    CollectiveDag dag;
    std::unique_ptr<CollectiveExecutor> executor;
  };
  Time start_time_;
  Time finish_time_;
  std::vector<uint32_t> waiting_;
  std::vector<Time> start_;
  std::vector<Time> finish_;
  size_t finished_ = 0;
  std::vector<std::deque<JobNodeIndex>> compute_queue_;  // per GPU
  std::vector<uint8_t> gpu_busy_;
  // Flow ids: each collective takes a block, each transfer one id. Keyed by
  // the first id of the block: the collective's index, or ~node for a
  // transfer.
  std::map<FlowId, uint64_t> owner_;
  // Live collectives; a finished one is freed at the next safe point (an
  // executor may not be deleted from inside its own callback).
  std::vector<std::unique_ptr<Collective>> collectives_;
  std::vector<size_t> retired_;
  void FreeRetired();
  FlowId next_flow_id_;
  // Every option BuildCollectiveCoflow reads (CollectiveOptions holds no
  // group identity): collectives of one shape, in any group, have one
  // coflow in rank space and one algorithm choice.
  using Shape = std::tuple<int, int, int32_t, int32_t, uint64_t, int32_t, uint64_t, int, int64_t, int64_t, int64_t,
                           int32_t, bool, uint32_t>;
  static Shape ShapeOf(const CollectiveOptions& o);
  std::map<Shape, CollectiveAlgorithm> chosen_;  // by the shape with the default algorithm
  std::map<Shape, CollectiveCoflow> coflows_;    // built lately
  std::vector<JobNodeIndex> finished_pending_;
  bool draining_ = false;
  bool started_ = false;
  bool reported_done_ = false;
  std::optional<Error> error_;
};

}  // namespace aifabric
