// InferenceServer simulates LLM inference serving on a GPU cluster:
// requests arrive (Poisson or a trace), a router sends each to a model
// replica, and every replica runs a continuous-batching scheduler whose
// iterations (decode one token for each running request, plus waiting
// prompts up to a token budget) are JobGraphs run by JobExecutors over the
// network, so TP all-reduces, pipeline activations, MoE all-to-alls and,
// with prefill/decode disaggregation, KV-cache hand-offs all cross the
// modelled fabric. Many executors share the network through a
// TransferDispatcher (the network's observer). docs/inference.md describes
// the model. Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/rng.h"
#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "workload/inference_iteration.h"
#include "workload/inference_metrics.h"
#include "workload/inference_spec.h"
#include "workload/job_executor.h"
#include "workload/transfer_dispatcher.h"

namespace aifabric {

// Checks the spec on its own and against the cluster: model, parallelism,
// placement (replicas fit, stages within or across whole servers), memory
// (weights fit, KV room), scheduler limits, request source, SLOs. Errors
// name the field ("inference.tp: ...").
Status ValidateInferenceSpec(const InferenceSpec& spec, const ClusterLayout& layout);

// KV-cache capacity of one replica in tokens: per stage, (HBM x
// memory_utilization - weights per GPU) / KV bytes per token per GPU;
// the smallest stage's. Negative if the weights do not fit.
int64_t ReplicaKvCapacityTokens(const InferenceSpec& spec, const ReplicaPlacement& replica);

class InferenceServer {
 public:
  // `sim`, `gpu_network` (endpoints are GPU ids, as flow/gpu_network.h) and
  // `layout` outlive the server, and it outlives the run.
  InferenceServer(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout, InferenceSpec spec);
  // Hosted beside other workloads on one network (run/tenant_simulation.h):
  // its flow ids start at `first_flow_id`, the caller routes the network's
  // completions to dispatcher() (Start does not make it the observer), and
  // `on_done` runs (at the instant, after the request's own work) when the
  // last request finishes, and arrivals are drawn from `arrivals` (not the
  // simulator's generator, which the other workloads may have moved).
  struct Hosting {
    FlowId first_flow_id = 0;
    std::function<void()> on_done;
    Rng arrivals{0};
  };
  InferenceServer(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout, InferenceSpec spec,
                  Hosting hosting);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;
  ~InferenceServer();

  // Validates the spec, draws (or takes) the requests and checks each can
  // be served, makes the dispatcher the network's observer (unless hosted)
  // and schedules the first arrival; arrivals count from now. Call once.
  Status Start();

  bool done() const { return finished_ == requests_.size(); }
  // An error met while running (the iteration limit); Ok otherwise.
  const Status& status() const { return status_; }
  // REQUIRES: done().
  InferenceResult result() const;
  // Other workloads on the same network reserve their flow ids here.
  TransferDispatcher& dispatcher() { return dispatcher_; }

 private:
  enum class Role : uint8_t { kUnified, kPrefill, kDecode };
  enum class Phase : uint8_t { kWaiting, kRunning, kHandoff, kDone };
  struct Request {
    Time arrival;
    Time first_token;
    Time finish;
    uint32_t input = 0;
    uint32_t output = 0;
    uint32_t prefilled = 0;  // prompt tokens processed
    uint32_t generated = 0;  // output tokens produced
    int32_t replica = -1;
    int32_t decode_replica = -1;
    Phase phase = Phase::kWaiting;
  };
  struct Entry {
    uint32_t request;
    uint32_t tokens;  // new tokens this iteration
    bool prefill;
  };
  struct Replica {
    Role role = Role::kUnified;
    ReplicaPlacement placement;
    uint64_t kv_capacity = 0;  // tokens
    uint64_t kv_used = 0;
    std::deque<uint32_t> waiting;   // routed here, not admitted
    std::vector<uint32_t> running;  // admitted: prefilling or decoding
    std::deque<uint32_t> incoming;  // decode pool: prefilled, waiting for room here
    uint32_t receiving = 0;         // decode pool: KV hand-offs in flight to here
    uint64_t unfinished = 0;        // routed here, not yet done (or handed off)
    uint32_t rr_next = 0;
    // The iteration in flight.
    bool busy = false;
    bool kick_pending = false;  // a TryStartIteration is scheduled at Now()
    std::vector<Entry> batch;
    std::unique_ptr<JobGraph> graph;
    std::unique_ptr<JobExecutor> executor;
    FlowId block = 0;
  };
  struct Handoff {
    uint32_t request;
    std::unique_ptr<JobGraph> graph;
    std::unique_ptr<JobExecutor> executor;
    FlowId block = 0;
  };

  Status MakeRequests();
  Status CheckRequests() const;
  void ScheduleNextArrival();
  void OnArrival(uint32_t request);
  int32_t Route(Role role);
  void TryStartIteration(int32_t replica);
  void FormBatch(Replica& r);
  void OnIterationDone(int32_t replica);
  void FinishRequest(Replica& r, Request& q);
  // Routes a prefilled request to the decode pool and queues its KV hand-off.
  void StartHandoff(uint32_t request);
  void TryStartHandoffs(int32_t decode_replica);
  void OnHandoffDone(uint64_t slot);
  JobExecutorOptions ExecutorOptions(CollectiveProtocol protocol, int32_t tp);

  // Fixed at construction.
  Simulator& sim_;
  NetworkModel& network_;
  const ClusterLayout& layout_;
  const InferenceSpec spec_;
  const bool hosted_ = false;
  const std::function<void()> on_done_;
  const Rng arrivals_{0};  // hosted: the generator arrivals fork from

  TransferDispatcher dispatcher_;
  std::vector<Request> requests_;  // by arrival
  std::vector<Replica> replicas_;  // unified, or prefill pool then decode pool
  std::vector<std::unique_ptr<Handoff>> handoffs_;  // slots; null when free
  std::vector<uint64_t> free_handoffs_;
  uint32_t next_arrival_ = 0;
  size_t finished_ = 0;
  uint64_t iterations_ = 0;
  double batch_tokens_ = 0;
  double batch_sequences_ = 0;
  uint64_t kv_transfers_ = 0;
  Status status_;
  bool started_ = false;
};

// Runs `spec` on `gpu_network` until every request has finished (or an
// error). The simulator should hold nothing else that runs forever.
Result<InferenceResult> RunInference(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout,
                                     const InferenceSpec& spec);

}  // namespace aifabric
