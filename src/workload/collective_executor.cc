#include "workload/collective_executor.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "workload/traffic_injector.h"

namespace aifabric {
namespace {

// Event tags: node index << 1, low bit 0 = its latency has passed (begin),
// 1 = its computation is done.
constexpr uint64_t kComputeDone = 1;
// The base latency has passed (no node index is this large).
constexpr uint64_t kBaseLatencyTag = ~0ull;

}  // namespace

CollectiveExecutor::CollectiveExecutor(Simulator& sim, NetworkModel& network, LocalTransferModel& local,
                                       const CollectiveDag& dag, std::vector<NodeId> rank_nodes,
                                       CollectiveExecutorOptions options)
    : sim_(sim),
      network_(network),
      local_(local),
      dag_(dag),
      rank_nodes_(std::move(rank_nodes)),
      options_(options) {}

Status CollectiveExecutor::Start() {
  assert(!started_);
  started_ = true;
  if (rank_nodes_.size() != static_cast<size_t>(dag_.num_ranks())) {
    std::string message = "collective: ";
    message += std::to_string(dag_.num_ranks());
    message += " ranks need a node each, got ";
    message += std::to_string(rank_nodes_.size());
    return Error{message};
  }
  for (size_t r = 0; r < rank_nodes_.size(); ++r) {
    if (rank_nodes_[r] < 0) {
      std::string message = "collective: rank ";
      message += std::to_string(r);
      message += " is not mapped to a node";
      return Error{message};
    }
  }
  start_time_ = sim_.Now();
  const size_t n = dag_.size();
  waiting_.resize(n);
  start_.assign(n, Time::Infinite());
  finish_.assign(n, Time::Infinite());
  for (DagNodeIndex i = 0; i < n; ++i) {
    waiting_[i] = dag_.in_degree(i);
  }
  // The base latency passes once, before the first nodes are ready.
  if (dag_.base_latency() > Time::Zero() && n > 0) {
    sim_.ScheduleIn(dag_.base_latency(), this, kBaseLatencyTag);
    return Status::Ok();
  }
  ReadyRoots();
  return Status::Ok();
}

void CollectiveExecutor::ReadyRoots() {
  for (DagNodeIndex i = 0; i < dag_.size(); ++i) {
    if (waiting_[i] == 0) newly_ready_.push_back(i);
  }
  Drain();
}

Time CollectiveExecutor::finish_time() const {
  assert(done());
  Time last = start_time_;
  for (Time t : finish_) last = Max(last, t);
  return last;
}

void CollectiveExecutor::Begin(DagNodeIndex i) {
  const DagNode& node = dag_.node(i);
  start_[i] = sim_.Now();
  if (node.is_transfer()) {
    const FlowId id = options_.first_flow_id + static_cast<FlowId>(i);
    const NodeId src = rank_nodes_[static_cast<size_t>(node.src)];
    const NodeId dst = rank_nodes_[static_cast<size_t>(node.dst)];
    if (node.wire_bytes == 0) {
      newly_finished_.push_back(i);
    } else if (src == dst) {
      LocalTransferRequest request;
      request.id = id;
      request.node = src;
      request.src = node.src;
      request.dst = node.dst;
      request.src_is_switch = dag_.IsSwitchRank(node.src);
      request.dst_is_switch = dag_.IsSwitchRank(node.dst);
      request.bytes = node.wire_bytes;
      local_.StartLocalTransfer(request);
    } else {
      TransferRequest request;
      request.id = id;
      request.src = src;
      request.dst = dst;
      request.bytes = node.wire_bytes;
      request.priority = options_.priority;
      request.sport = TrafficInjector::SourcePort(id);
      request.dport = options_.dport;
      network_.StartTransfer(request);
    }
    return;
  }
  const bool free = options_.reduce_rate.IsZero() || dag_.IsSwitchRank(node.src) || node.bytes == 0;
  if (free) {
    newly_finished_.push_back(i);
  } else {
    sim_.ScheduleIn(options_.reduce_rate.TransmitTime(node.bytes), this,
                    (static_cast<uint64_t>(i) << 1) | kComputeDone);
  }
}

void CollectiveExecutor::Drain() {
  if (draining_) return;  // a model reporting inside StartTransfer
  draining_ = true;
  while (!newly_finished_.empty() || !newly_ready_.empty()) {
    while (!newly_finished_.empty()) {
      const DagNodeIndex i = newly_finished_.back();
      newly_finished_.pop_back();
      finish_[i] = sim_.Now();
      ++finished_;
      for (DagNodeIndex s : dag_.successors(i)) {
        if (--waiting_[s] == 0) newly_ready_.push_back(s);
      }
    }
    while (!newly_ready_.empty()) {
      const DagNodeIndex i = newly_ready_.back();
      newly_ready_.pop_back();
      const Time latency = dag_.node(i).latency;
      if (latency > Time::Zero()) {
        sim_.ScheduleIn(latency, this, static_cast<uint64_t>(i) << 1);
      } else {
        Begin(i);
      }
    }
  }
  draining_ = false;
  if (done() && !reported_done_) {
    reported_done_ = true;
    if (options_.on_done) options_.on_done();
  }
}

void CollectiveExecutor::OnTransferDone(FlowId id, Time /*finish*/) {
  assert(OwnsTransfer(id));
  newly_finished_.push_back(static_cast<DagNodeIndex>(id - options_.first_flow_id));
  Drain();
}

void CollectiveExecutor::OnEvent(uint64_t tag) {
  if (tag == kBaseLatencyTag) {
    ReadyRoots();
    return;
  }
  const DagNodeIndex i = static_cast<DagNodeIndex>(tag >> 1);
  if ((tag & kComputeDone) != 0) {
    newly_finished_.push_back(i);
  } else {
    Begin(i);
  }
  Drain();
}

}  // namespace aifabric
