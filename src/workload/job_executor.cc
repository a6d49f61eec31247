#include "workload/job_executor.h"

#include <cassert>
#include <string>
#include <utility>

#include "workload/collective_coflow.h"
#include "workload/traffic_injector.h"

namespace aifabric {
namespace {

constexpr uint64_t kTransferOwner = 1ull << 63;  // owner_ value flag: a transfer node

std::string JobNodeError(const JobGraph& g, JobNodeIndex i, const std::string& what) {
  std::string m = "job node ";
  m += std::to_string(i);
  const std::string& label = g.label(g.node(i).label);
  if (!label.empty()) {
    m += " (";
    m += label;
    m += ")";
  }
  m += ": ";
  m += what;
  return m;
}

}  // namespace

JobExecutor::JobExecutor(Simulator& sim, NetworkModel& network, const ClusterLayout& layout, const JobGraph& graph,
                         JobExecutorOptions options)
    : sim_(sim),
      network_(network),
      layout_(layout),
      graph_(graph),
      options_(options),
      run_nodes_(options.node_limit > 0 ? options.node_limit : graph.size()),
      unused_local_(sim, DataRate::Gbps(1), Time::Zero()),
      next_flow_id_(options.first_flow_id) {}

Status JobExecutor::CheckGpus() const {
  const GpuId gpus = layout_.gpus();
  for (JobNodeIndex i = 0; i < graph_.size(); ++i) {
    const JobNode& n = graph_.node(i);
    if (n.kind != JobNodeKind::kCollective && (n.gpu >= gpus || n.peer >= gpus)) {
      return Error{JobNodeError(graph_, i, "GPU beyond the cluster's " + std::to_string(gpus))};
    }
  }
  for (uint32_t g = 0; g < graph_.group_count(); ++g) {
    const std::vector<GpuId>& group = graph_.group(g);
    std::map<int, int> per_server;
    for (GpuId id : group) {
      if (id >= gpus) return Error{"job group " + std::to_string(g) + ": GPU beyond the cluster's " + std::to_string(gpus)};
      ++per_server[layout_.server_of(id)];
    }
    // The collective algorithms need server-major ranks, equally many per
    // server.
    const int first = per_server.begin()->second;
    for (const auto& [server, count] : per_server) {
      if (count != first) {
        return Error{"job group " + std::to_string(g) + ": uneven GPUs per server (" + std::to_string(first) +
                     " and " + std::to_string(count) + ")"};
      }
    }
    for (size_t r = 1; r < group.size(); ++r) {
      if (layout_.server_of(group[r]) < layout_.server_of(group[r - 1])) {
        return Error{"job group " + std::to_string(g) + ": GPUs are not in server order"};
      }
    }
  }
  return Status::Ok();
}

Status JobExecutor::Start() {
  assert(!started_);
  started_ = true;
  assert(run_nodes_ <= graph_.size());
  if (Status s = CheckGpus(); !s.ok()) return s;
  // A node it runs waiting on one it leaves out would never start.
  for (JobNodeIndex i = static_cast<JobNodeIndex>(run_nodes_); i < graph_.size(); ++i) {
    for (JobNodeIndex s : graph_.successors(i)) {
      if (s < run_nodes_) {
        return Error{JobNodeError(graph_, s, "depends on node " + std::to_string(i) + ", past the executor's " +
                                              std::to_string(run_nodes_) + " nodes")};
      }
    }
  }
  start_time_ = finish_time_ = sim_.Now();
  const size_t n = graph_.size();
  waiting_.resize(n);
  start_.assign(n, Time::Infinite());
  finish_.assign(n, Time::Infinite());
  compute_queue_.assign(static_cast<size_t>(layout_.gpus()), {});
  gpu_busy_.assign(static_cast<size_t>(layout_.gpus()), 0);
  std::vector<JobNodeIndex> roots;
  for (JobNodeIndex i = 0; i < run_nodes_; ++i) {
    waiting_[i] = graph_.in_degree(i);
    if (waiting_[i] == 0) roots.push_back(i);
  }
  for (JobNodeIndex i : roots) Ready(i);
  if (run_nodes_ == 0 && options_.on_done) {
    reported_done_ = true;
    options_.on_done();
  }
  return Status::Ok();
}

void JobExecutor::Ready(JobNodeIndex i) {
  const JobNode& n = graph_.node(i);
  if (n.kind == JobNodeKind::kCompute) {
    compute_queue_[static_cast<size_t>(n.gpu)].push_back(i);
    RunNextCompute(n.gpu);
    return;
  }
  Begin(i);
}

void JobExecutor::RunNextCompute(GpuId gpu) {
  const size_t g = static_cast<size_t>(gpu);
  if (gpu_busy_[g] || compute_queue_[g].empty()) return;
  const JobNodeIndex i = compute_queue_[g].front();
  compute_queue_[g].pop_front();
  gpu_busy_[g] = 1;
  start_[i] = sim_.Now();
  sim_.Schedule(options_.slowdowns.KernelEnd(gpu, sim_.Now(), graph_.node(i).duration), this, i);
}

void JobExecutor::OnEvent(uint64_t tag) {
  FreeRetired();
  const JobNodeIndex i = static_cast<JobNodeIndex>(tag);
  const GpuId gpu = graph_.node(i).gpu;
  gpu_busy_[static_cast<size_t>(gpu)] = 0;
  Finish(i);
  RunNextCompute(gpu);
}

void JobExecutor::Begin(JobNodeIndex i) {
  const JobNode& n = graph_.node(i);
  start_[i] = sim_.Now();
  if (n.kind == JobNodeKind::kCollective) {
    StartCollective(i);
    return;
  }
  // A transfer.
  if (n.bytes == 0) {
    Finish(i);
    return;
  }
  const FlowId id = next_flow_id_++;
  owner_.emplace(id, kTransferOwner | i);
  TransferRequest r;
  r.id = id;
  r.src = n.gpu;
  r.dst = n.peer;
  r.bytes = n.bytes;
  r.priority = n.priority >= 0 ? static_cast<uint8_t>(n.priority) : options_.priority;
  // One connection per GPU pair (a NCCL send/recv communicator): its
  // transfers keep one path.
  r.sport = TrafficInjector::SourcePort(static_cast<FlowId>(n.gpu) * 65537 + static_cast<FlowId>(n.peer));
  network_.StartTransfer(r);
}

void JobExecutor::StartCollective(JobNodeIndex i) {
  const JobNode& n = graph_.node(i);
  const std::vector<GpuId>& group = graph_.group(n.group);
  const int32_t ranks = static_cast<int32_t>(group.size());
  int32_t per_server = 0;
  for (GpuId g : group) per_server += layout_.server_of(g) == layout_.server_of(group[0]) ? 1 : 0;
  CollectiveOptions o;
  o.op = n.op;
  o.algorithm = n.algorithm;
  o.ranks = ranks;
  o.ranks_per_server = per_server;
  o.bytes = n.bytes;
  o.channels = options_.channels > 0 ? options_.channels : per_server;
  o.chunk_bytes = ChunkBytes(n.op, n.algorithm, ranks);
  o.max_dag_nodes = options_.max_dag_nodes;
  o.protocol = options_.protocol;
  o.pxn = options_.pxn && ranks > per_server;
  // The protocol's latencies and efficiencies (the scenario's calibration,
  // else the built-in table's), before the choice below, which times its
  // candidates with them as `aifabric collective` does.
  const ProtocolSpec spec = options_.protocol_spec ? *options_.protocol_spec : GetProtocolSpec(o.protocol);
  o.step_latency = spec.step_latency;
  o.net_step_latency = spec.net_step_latency;
  o.base_latency = spec.base_latency;
  o.bus_efficiency = spec.bus_efficiency;
  o.nvls_tree_efficiency = spec.nvls_tree_efficiency;
  if (n.algorithm == CollectiveAlgorithm::kDefault && n.op == CollectiveOp::kAllReduce && ranks > per_server &&
      options_.gpu_network_rate.bps() > 0) {
    o.algorithm = ChooseAllReduce(o);
    o.chunk_bytes = ChunkBytes(n.op, o.algorithm, ranks);
  }
  if (n.fold > 1) {
    // k collectives in one: k times every latency the protocol adds.
    o.step_latency = spec.step_latency * n.fold;
    o.net_step_latency = spec.net_step_latency * n.fold;
    o.base_latency = spec.base_latency * n.fold;
    o.chunk_bytes *= n.fold;
  }
  if (options_.coflow_collectives && network_.SupportsCoflows() && HasCoflowForm(o.op, o.algorithm) &&
      StartCoflow(i, o, group)) {
    return;
  }
  Result<CollectiveDag> dag = BuildCollective(o);
  // The group was checked at Start and the options come from it, so a bad
  // algorithm choice (e.g. halving-doubling on 6 ranks) fails here: fall
  // back to a ring rather than stall the job. A DAG too large to build
  // (one chunk per channel past the node limit: a wide collective run step
  // by step) stops the run with an error.
  if (!dag.ok() && o.op != CollectiveOp::kAllToAll) {
    o.algorithm = CollectiveAlgorithm::kRing;
    Result<CollectiveDag> ring = BuildCollective(o);
    if (ring.ok()) dag = std::move(ring);
  }
  if (!dag.ok()) {
    error_ = Error{JobNodeError(graph_, i, "cannot run this " + std::string(CollectiveOpName(n.op)) + " over " +
                                            std::to_string(ranks) + " GPUs step by step: " + dag.error().message +
                                            "; at this scale use the flow model with collectives as coflows")};
    sim_.Stop();
    return;
  }
  auto c = std::make_unique<Collective>();
  c->dag = std::move(dag).value();
  std::vector<NodeId> endpoints(group.begin(), group.end());
  for (int32_t s = 0; s < c->dag.num_switch_ranks(); ++s) {
    endpoints.push_back(layout_.gpus() + layout_.server_of(group[static_cast<size_t>(s * per_server)]));
  }
  CollectiveExecutorOptions exec;
  exec.reduce_rate = options_.reduce_rate;
  exec.first_flow_id = next_flow_id_;
  exec.priority = n.priority >= 0 ? static_cast<uint8_t>(n.priority) : options_.priority;
  const size_t index = collectives_.size();
  exec.on_done = [this, i, index] {
    retired_.push_back(index);
    Finish(i);
  };
  next_flow_id_ += static_cast<FlowId>(c->dag.size());
  owner_.emplace(exec.first_flow_id, collectives_.size());
  // No transfer of a collective stays inside one endpoint, so the local
  // model is never used; it still needs an observer.
  c->executor = std::make_unique<CollectiveExecutor>(sim_, network_, unused_local_, c->dag, std::move(endpoints),
                                                     std::move(exec));
  CollectiveExecutor* executor = c->executor.get();
  collectives_.push_back(std::move(c));
  const Status started = executor->Start();
  assert(started.ok());
  (void)started;
}

uint64_t JobExecutor::ChunkBytes(CollectiveOp op, CollectiveAlgorithm algorithm, int32_t ranks) const {
  return options_.chunk_bytes != 0 ? options_.chunk_bytes : NcclChunkBytes(op, algorithm, ranks);
}

JobExecutor::Shape JobExecutor::ShapeOf(const CollectiveOptions& o) {
  const auto ps = [](const std::optional<Time>& t) { return t ? t->ps() : int64_t{-1}; };
  return Shape{static_cast<int>(o.op), static_cast<int>(o.algorithm), o.ranks, o.ranks_per_server, o.bytes,
               o.channels, o.chunk_bytes, static_cast<int>(o.protocol), ps(o.step_latency), ps(o.net_step_latency),
               ps(o.base_latency), o.root, o.pxn, o.connection_window};
}

CollectiveAlgorithm JobExecutor::ChooseAllReduce(const CollectiveOptions& o) {
  const Shape key = ShapeOf(o);
  if (const auto it = chosen_.find(key); it != chosen_.end()) return it->second;
  CollectiveAlgorithm best = CollectiveAlgorithm::kRing;
  Time best_time = Time::Infinite();
  for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kTree}) {
    CollectiveOptions candidate = o;
    candidate.algorithm = a;
    candidate.chunk_bytes = ChunkBytes(o.op, a, o.ranks);
    Result<CollectiveCoflow> coflow = BuildCollectiveCoflow(candidate, Rates());
    if (!coflow.ok()) continue;
    const Time t = EstimateCoflowTime(*coflow, o.ranks_per_server, Rates().nvlink, Rates().network,
                                      options_.reduce_rate);
    if (t < best_time) {
      best_time = t;
      best = a;
    }
  }
  chosen_.emplace(key, best);
  return best;
}

bool JobExecutor::StartCoflow(JobNodeIndex i, const CollectiveOptions& o, const std::vector<GpuId>& group) {
  const JobNode& n = graph_.node(i);
  const Shape key = ShapeOf(o);
  auto cached = coflows_.find(key);
  if (cached == coflows_.end()) {
    // Only an algorithm that cannot serve this group, or an all-to-all too
    // wide for one coflow, fails: the caller runs its steps instead.
    Result<CollectiveCoflow> built = BuildCollectiveCoflow(o, Rates());
    if (!built.ok()) return false;
    if (coflows_.size() >= 256) coflows_.clear();
    cached = coflows_.emplace(key, std::move(built).value()).first;
  }
  const CollectiveCoflow* coflow = &cached->second;
  if (coflow->edges.empty()) {
    Finish(i);
    return true;
  }
  const std::vector<NodeId> endpoints(group.begin(), group.end());
  const FlowId id = next_flow_id_++;
  owner_.emplace(id, kTransferOwner | i);
  const uint8_t priority = n.priority >= 0 ? static_cast<uint8_t>(n.priority) : options_.priority;
  // One communicator per group: its collectives reuse its connections (and paths).
  const FlowId entropy = static_cast<FlowId>(n.group) * 4099;
  const Status started =
      network_.StartCoflow(MakeCoflowRequest(*coflow, endpoints, id, entropy, priority, options_.reduce_rate));
  assert(started.ok());
  (void)started;
  return true;
}

void JobExecutor::FreeRetired() {
  // Called only from the simulator's callbacks into this executor, before
  // any collective executor runs: none of them is on the stack.
  for (size_t index : retired_) collectives_[index].reset();
  retired_.clear();
}

void JobExecutor::OnTransferDone(FlowId id, Time /*finish*/) {
  FreeRetired();
  auto it = owner_.upper_bound(id);
  assert(it != owner_.begin());
  --it;
  if (it->second & kTransferOwner) {
    const JobNodeIndex i = static_cast<JobNodeIndex>(it->second & ~kTransferOwner);
    owner_.erase(it);
    Finish(i);
    return;
  }
  collectives_[it->second]->executor->OnTransferDone(id, sim_.Now());
}

void JobExecutor::Finish(JobNodeIndex i) {
  finished_pending_.push_back(i);
  if (draining_) return;
  draining_ = true;
  while (!finished_pending_.empty()) {
    const JobNodeIndex f = finished_pending_.back();
    finished_pending_.pop_back();
    finish_[f] = sim_.Now();
    finish_time_ = Max(finish_time_, finish_[f]);
    ++finished_;
    for (JobNodeIndex s : graph_.successors(f)) {
      if (s < run_nodes_ && --waiting_[s] == 0) Ready(s);
    }
  }
  draining_ = false;
  if (done() && !reported_done_ && options_.on_done) {
    reported_done_ = true;
    options_.on_done();
  }
}

}  // namespace aifabric
