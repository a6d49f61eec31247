#include "workload/inference_server.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

#include "core/concat.h"

namespace aifabric {
namespace {

// Flow ids per executor: far more than one iteration's collectives use,
// and 2^31 such blocks fit in a FlowId.
constexpr FlowId kIdsPerExecutor = FlowId{1} << 32;
constexpr uint64_t kArrivalStream = 0x696e666572656e63ull;  // "inferenc"

Error InferenceFieldError(const char* field, const std::string& what) { return Error{Concat("inference.", field, ": ", what)}; }

std::string Str(int64_t v) { return std::to_string(v); }

std::string Gb(double bytes) {
  std::string s = std::to_string(std::round(bytes / 1e8) / 10);
  s.erase(s.find('.') + 2);
  s += " GB";
  return s;
}

}  // namespace

std::string_view InferenceRouterName(InferenceRouter router) {
  return router == InferenceRouter::kLeastLoaded ? "least_loaded" : "round_robin";
}

Result<InferenceRouter> ParseInferenceRouter(std::string_view name) {
  if (name == "round_robin") return InferenceRouter::kRoundRobin;
  if (name == "least_loaded") return InferenceRouter::kLeastLoaded;
  return Error{Concat("router: expected round_robin or least_loaded, got '", std::string(name), "'")};
}

int64_t ReplicaKvCapacityTokens(const InferenceSpec& spec, const ReplicaPlacement& replica) {
  int64_t capacity = std::numeric_limits<int64_t>::max();
  for (int32_t s = 0; s < replica.pp(); ++s) {
    const size_t i = static_cast<size_t>(s);
    const double weights = StageWeightBytesPerRank(spec.model, replica.first_layer[i], replica.layer_count[i],
                                                   replica.tp(), s == 0, s + 1 == replica.pp());
    const double free = spec.gpu.hbm_bytes * spec.gpu.memory_utilization - weights;
    const double per_token = static_cast<double>(KvBytesPerTokenPerRank(spec.model, replica.layer_count[i], replica.tp()));
    capacity = std::min(capacity, free < 0 ? int64_t{-1} : static_cast<int64_t>(std::floor(free / per_token)));
  }
  return capacity;
}

Status ValidateInferenceSpec(const InferenceSpec& spec, const ClusterLayout& layout) {
  if (Status s = ValidateInferenceModel(spec.model); !s.ok()) return Error{Concat("inference.", s.error().message)};
  const InferenceModel& m = spec.model;
  const InferenceGpu& g = spec.gpu;
  if (!(g.peak_flops > 0) || !(g.hbm_bytes_per_s > 0) || !(g.hbm_bytes > 0)) {
    return InferenceFieldError("gpu", "peak_flops, hbm_bytes_per_s and hbm_bytes must be positive");
  }
  for (double e : {g.compute_efficiency, g.memory_efficiency, g.memory_utilization}) {
    if (!(e > 0 && e <= 1)) return InferenceFieldError("gpu", "efficiencies and memory_utilization must be in (0, 1]");
  }
  const int32_t tp = spec.tp, pp = spec.pp;
  if (tp < 1) return InferenceFieldError("tp", "must be >= 1, got " + Str(tp));
  if (pp < 1) return InferenceFieldError("pp", "must be >= 1, got " + Str(pp));
  if (pp > m.layers) return InferenceFieldError("pp", Concat(Str(pp), " stages for ", Str(m.layers), " layers"));
  if (m.heads % tp != 0) return InferenceFieldError("tp", Concat(Str(tp), " does not divide the model's ", Str(m.heads), " heads"));
  if (m.kv_heads % tp != 0 && tp % m.kv_heads != 0) {
    return InferenceFieldError("tp", Concat(Str(tp), " and the model's ", Str(m.kv_heads), " KV heads: one must divide the other"));
  }
  if (m.experts > 0 && m.experts % tp != 0) {
    return InferenceFieldError("tp", Concat(Str(tp), " does not divide the model's ", Str(m.experts), " experts"));
  }
  const int32_t gps = layout.gpus_per_server();
  if (gps % tp != 0 && tp % gps != 0) {
    return InferenceFieldError("tp", Concat(Str(tp), " must divide the ", Str(gps), " GPUs per server or be a multiple of it"));
  }
  if (spec.first_gpu < 0 || spec.first_gpu % std::min(tp, gps) != 0) {
    return InferenceFieldError("first_gpu", Concat(Str(spec.first_gpu), " must be a multiple of ", Str(std::min(tp, gps)),
                                          " so no stage straddles servers"));
  }
  int64_t replicas = spec.replicas;
  if (spec.disaggregated) {
    if (spec.prefill_replicas < 1) return InferenceFieldError("prefill_replicas", "must be >= 1");
    if (spec.decode_replicas < 1) return InferenceFieldError("decode_replicas", "must be >= 1");
    replicas = int64_t{spec.prefill_replicas} + spec.decode_replicas;
  } else if (spec.replicas < 1) {
    return InferenceFieldError("replicas", "must be >= 1");
  }
  const int64_t needed = spec.first_gpu + replicas * tp * pp;
  if (needed > layout.gpus()) {
    return InferenceFieldError("replicas", Concat(Str(replicas), " replicas of ", Str(tp), " x ", Str(pp), " GPUs from GPU ",
                                         Str(spec.first_gpu), " need ", Str(needed), " GPUs; the cluster has ",
                                         Str(layout.gpus())));
  }
  const ReplicaPlacement one = PlaceReplica(m, tp, pp, 0, 0);
  for (int32_t s = 0; s < pp; ++s) {
    const size_t i = static_cast<size_t>(s);
    const double weights = StageWeightBytesPerRank(m, one.first_layer[i], one.layer_count[i], tp, s == 0, s + 1 == pp);
    const double usable = g.hbm_bytes * g.memory_utilization;
    if (weights >= usable) {
      return InferenceFieldError("tp", Concat("the model does not fit: stage ", Str(s), " holds ", Gb(weights),
                                     " of weights per GPU, ", Gb(usable), " usable"));
    }
  }
  if (spec.max_num_batched_tokens < 1) return InferenceFieldError("max_num_batched_tokens", "must be >= 1");
  if (spec.max_num_seqs < 1) return InferenceFieldError("max_num_seqs", "must be >= 1");
  if (spec.max_num_batched_tokens < spec.max_num_seqs) {
    return InferenceFieldError("max_num_batched_tokens", Concat(Str(spec.max_num_batched_tokens), " is below max_num_seqs ",
                                                       Str(spec.max_num_seqs), " (as vLLM, every running request must fit)"));
  }
  if (spec.layers_per_block < 1) return InferenceFieldError("layers_per_block", "must be >= 1");
  if (spec.channels < 0 || spec.channels > 64) return InferenceFieldError("channels", "must be in 0..64");
  if (spec.priority > 7) return InferenceFieldError("priority", "must be in 0..7");
  if (!(spec.ttft_slo_ms > 0) || !(spec.tpot_slo_ms > 0)) return InferenceFieldError("ttft_slo_ms", "SLOs must be positive");
  if (spec.trace.empty()) {
    if (!(spec.rate_per_s > 0) || !std::isfinite(spec.rate_per_s)) return InferenceFieldError("rate_per_s", "must be positive");
    if (spec.num_requests < 1 || spec.num_requests > kMaxInferenceRequests) {
      return InferenceFieldError("num_requests", Concat("must be in 1..", Str(kMaxInferenceRequests)));
    }
    if (spec.input_tokens_min < 1 || spec.input_tokens_min > spec.input_tokens_max) {
      return InferenceFieldError("input_tokens_min", "need 1 <= min <= max");
    }
    if (spec.output_tokens_min < 1 || spec.output_tokens_min > spec.output_tokens_max) {
      return InferenceFieldError("output_tokens_min", "need 1 <= min <= max");
    }
  } else {
    if (spec.trace.size() > kMaxInferenceRequests) {
      return InferenceFieldError("trace", Concat(Str(static_cast<int64_t>(spec.trace.size())), " requests; at most ",
                                        Str(kMaxInferenceRequests)));
    }
    for (size_t i = 0; i < spec.trace.size(); ++i) {
      const InferenceRequestSpec& r = spec.trace[i];
      if (!(r.arrival_us >= 0) || !std::isfinite(r.arrival_us) || r.input_tokens < 1 || r.output_tokens < 1) {
        return InferenceFieldError("trace", Concat("request ", Str(static_cast<int64_t>(i)),
                                          ": needs arrival_us >= 0 and at least 1 input and 1 output token"));
      }
    }
  }
  return Status::Ok();
}

InferenceServer::InferenceServer(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout,
                                 InferenceSpec spec)
    : sim_(sim), network_(gpu_network), layout_(layout), spec_(std::move(spec)) {}

InferenceServer::InferenceServer(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout,
                                 InferenceSpec spec, Hosting hosting)
    : sim_(sim),
      network_(gpu_network),
      layout_(layout),
      spec_(std::move(spec)),
      hosted_(true),
      on_done_(std::move(hosting.on_done)),
      arrivals_(hosting.arrivals),
      dispatcher_(hosting.first_flow_id) {}

InferenceServer::~InferenceServer() = default;

Status InferenceServer::MakeRequests() {
  if (!spec_.trace.empty()) {
    std::vector<InferenceRequestSpec> trace = spec_.trace;
    std::stable_sort(trace.begin(), trace.end(),
                     [](const InferenceRequestSpec& a, const InferenceRequestSpec& b) { return a.arrival_us < b.arrival_us; });
    for (const InferenceRequestSpec& t : trace) {
      Request q;
      q.arrival = sim_.Now() + Time::FromSeconds(t.arrival_us * 1e-6);
      q.input = t.input_tokens;
      q.output = t.output_tokens;
      requests_.push_back(q);
    }
    return Status::Ok();
  }
  Rng rng = (hosted_ ? arrivals_ : sim_.rng()).Fork(kArrivalStream);
  double at_s = 0;
  const auto draw = [&rng](uint32_t lo, uint32_t hi) {
    return lo + static_cast<uint32_t>(rng.Below(static_cast<uint64_t>(hi - lo) + 1));
  };
  for (uint32_t i = 0; i < spec_.num_requests; ++i) {
    at_s += rng.Exponential(1.0 / spec_.rate_per_s);
    Request q;
    q.arrival = sim_.Now() + Time::FromSeconds(at_s);
    q.input = draw(spec_.input_tokens_min, spec_.input_tokens_max);
    q.output = draw(spec_.output_tokens_min, spec_.output_tokens_max);
    requests_.push_back(q);
  }
  return Status::Ok();
}

Status InferenceServer::CheckRequests() const {
  uint64_t prefill_cap = std::numeric_limits<uint64_t>::max(), decode_cap = prefill_cap;
  for (const Replica& r : replicas_) {
    (r.role == Role::kPrefill ? prefill_cap : decode_cap) = std::min(
        r.role == Role::kPrefill ? prefill_cap : decode_cap, r.kv_capacity);
  }
  uint64_t iterations = 0;
  for (size_t i = 0; i < requests_.size(); ++i) {
    const Request& q = requests_[i];
    const std::string which = Concat("request ", Str(static_cast<int64_t>(i)), " (", Str(q.input), " + ",
                                     Str(q.output), " tokens)");
    if (!spec_.chunked_prefill && q.input > spec_.max_num_batched_tokens) {
      return InferenceFieldError("max_num_batched_tokens", Concat(which, ": the prompt exceeds the budget of ",
                                                          Str(spec_.max_num_batched_tokens),
                                                          " tokens; raise it or turn chunked_prefill on"));
    }
    const uint64_t held = spec_.disaggregated ? q.input : uint64_t{q.input} + q.output;
    if (held > (spec_.disaggregated ? prefill_cap : decode_cap) ||
        (spec_.disaggregated && uint64_t{q.input} + q.output > decode_cap)) {
      return InferenceFieldError("replicas", Concat(which, ": its KV cache exceeds a replica's room of ",
                                           Str(static_cast<int64_t>(std::min(prefill_cap, decode_cap))), " tokens"));
    }
    iterations += q.output + (q.input + spec_.max_num_batched_tokens - 1) / spec_.max_num_batched_tokens;
  }
  if (iterations > kMaxInferenceIterations) {
    return InferenceFieldError("num_requests", Concat("up to ", Str(static_cast<int64_t>(iterations)),
                                             " batch iterations; the limit is ", Str(kMaxInferenceIterations)));
  }
  return Status::Ok();
}

Status InferenceServer::Start() {
  assert(!started_);
  started_ = true;
  if (Status s = ValidateInferenceSpec(spec_, layout_); !s.ok()) return s;
  const auto add = [&](Role role, int32_t count) {
    for (int32_t i = 0; i < count; ++i) {
      Replica r;
      r.role = role;
      r.placement = PlaceReplica(spec_.model, spec_.tp, spec_.pp, spec_.first_gpu, static_cast<int32_t>(replicas_.size()));
      r.kv_capacity = static_cast<uint64_t>(ReplicaKvCapacityTokens(spec_, r.placement));
      replicas_.push_back(std::move(r));
    }
  };
  if (spec_.disaggregated) {
    add(Role::kPrefill, spec_.prefill_replicas);
    add(Role::kDecode, spec_.decode_replicas);
  } else {
    add(Role::kUnified, spec_.replicas);
  }
  if (Status s = MakeRequests(); !s.ok()) return s;
  if (Status s = CheckRequests(); !s.ok()) return s;
  if (!hosted_) network_.SetObserver(&dispatcher_);
  ScheduleNextArrival();
  return Status::Ok();
}

void InferenceServer::ScheduleNextArrival() {
  if (next_arrival_ >= requests_.size()) return;
  const uint32_t i = next_arrival_++;
  sim_.ScheduleCallback(requests_[i].arrival, [this, i] { OnArrival(i); });
}

int32_t InferenceServer::Route(Role role) {
  int32_t first = 0, count = 0;
  for (size_t i = 0; i < replicas_.size(); ++i) {
    if (replicas_[i].role != role) continue;
    if (count == 0) first = static_cast<int32_t>(i);
    ++count;
  }
  assert(count > 0);
  if (spec_.router == InferenceRouter::kRoundRobin) {
    Replica& pool_head = replicas_[static_cast<size_t>(first)];
    const int32_t pick = first + static_cast<int32_t>(pool_head.rr_next % static_cast<uint32_t>(count));
    ++pool_head.rr_next;
    return pick;
  }
  int32_t best = first;
  for (int32_t i = first + 1; i < first + count; ++i) {
    if (replicas_[static_cast<size_t>(i)].unfinished < replicas_[static_cast<size_t>(best)].unfinished) best = i;
  }
  return best;
}

void InferenceServer::OnArrival(uint32_t request) {
  ScheduleNextArrival();
  const int32_t r = Route(spec_.disaggregated ? Role::kPrefill : Role::kUnified);
  requests_[request].replica = r;
  Replica& replica = replicas_[static_cast<size_t>(r)];
  replica.waiting.push_back(request);
  ++replica.unfinished;
  // The scheduler looks at its queue once the current instant's arrivals
  // are in (the next arrival, if simultaneous, was scheduled first).
  if (!replica.busy && !replica.kick_pending) {
    replica.kick_pending = true;
    sim_.ScheduleCallback(sim_.Now(), [this, r] {
      replicas_[static_cast<size_t>(r)].kick_pending = false;
      TryStartIteration(r);
    });
  }
}

void InferenceServer::FormBatch(Replica& r) {
  r.batch.clear();
  uint32_t budget = spec_.max_num_batched_tokens;
  // Running requests first, in admission order: decodes take one token, a
  // prompt being chunked its next chunk.
  for (uint32_t i : r.running) {
    if (budget == 0 || r.batch.size() >= spec_.max_num_seqs) break;
    const Request& q = requests_[i];
    if (q.prefilled < q.input) {
      const uint32_t chunk = std::min(q.input - q.prefilled, budget);
      r.batch.push_back({i, chunk, true});
      budget -= chunk;
    } else {
      r.batch.push_back({i, 1, false});
      budget -= 1;
    }
  }
  // Then waiting prompts, in arrival order, while they fit.
  while (!r.waiting.empty() && budget > 0 && r.running.size() < spec_.max_num_seqs &&
         r.batch.size() < spec_.max_num_seqs) {
    const uint32_t i = r.waiting.front();
    Request& q = requests_[i];
    const uint64_t kv = r.role == Role::kPrefill ? q.input : uint64_t{q.input} + q.output;
    if (r.kv_used + kv > r.kv_capacity) break;
    if (!spec_.chunked_prefill && q.input > budget) break;
    const uint32_t chunk = std::min(q.input, budget);
    r.waiting.pop_front();
    r.kv_used += kv;
    r.running.push_back(i);
    q.phase = Phase::kRunning;
    r.batch.push_back({i, chunk, true});
    budget -= chunk;
  }
}

JobExecutorOptions InferenceServer::ExecutorOptions(CollectiveProtocol protocol, int32_t tp) {
  JobExecutorOptions o;
  o.protocol = protocol;
  o.channels = spec_.channels > 0 ? spec_.channels : (tp > layout_.gpus_per_server() ? 0 : 1);
  o.priority = spec_.priority;
  o.slowdowns = spec_.slowdowns;
  o.first_flow_id = dispatcher_.Reserve(kIdsPerExecutor);
  return o;
}

void InferenceServer::TryStartIteration(int32_t index) {
  Replica& r = replicas_[static_cast<size_t>(index)];
  if (r.busy || !status_.ok()) return;
  FormBatch(r);
  if (r.batch.empty()) return;
  if (++iterations_ > kMaxInferenceIterations) {
    status_ = Error{Concat("inference: over ", Str(kMaxInferenceIterations), " batch iterations; stopped")};
    sim_.Stop();
    return;
  }
  BatchWork work;
  for (const Entry& e : r.batch) {
    const Request& q = requests_[e.request];
    if (e.prefill) {
      work.AddPrefill(q.prefilled, e.tokens, q.prefilled + e.tokens == q.input);
    } else {
      work.AddDecode(uint64_t{q.input} + q.generated - 1);
    }
  }
  batch_tokens_ += static_cast<double>(work.tokens);
  batch_sequences_ += static_cast<double>(work.sequences);
  const int32_t tp = r.placement.tp();
  const uint64_t allreduce = work.tokens * static_cast<uint64_t>(spec_.model.hidden) *
                             static_cast<uint64_t>(spec_.model.dtype_bytes);
  IterationGraphOptions g;
  g.layers_per_block = spec_.layers_per_block;
  g.tp_algorithm = spec_.tp_algorithm;
  const CollectiveProtocol protocol = spec_.protocol.has_value()
                                          ? *spec_.protocol
                                          : PickAllReduceProtocol(allreduce, tp, layout_.spec().nvlink_per_dir);
  r.graph = std::make_unique<JobGraph>(BuildIterationGraph(spec_.model, spec_.gpu, r.placement, work, g));
  JobExecutorOptions o = ExecutorOptions(protocol, tp);
  r.block = o.first_flow_id;
  o.on_done = [this, index] { sim_.ScheduleCallback(sim_.Now(), [this, index] { OnIterationDone(index); }); };
  r.executor = std::make_unique<JobExecutor>(sim_, network_, layout_, *r.graph, std::move(o));
  dispatcher_.SetOwner(r.block, r.executor.get());
  r.busy = true;
  const Status started = r.executor->Start();
  assert(started.ok());  // placement was validated
  (void)started;
}

void InferenceServer::FinishRequest(Replica& r, Request& q) {
  q.finish = sim_.Now();
  q.phase = Phase::kDone;
  r.kv_used -= uint64_t{q.input} + q.output;
  --r.unfinished;
  ++finished_;
  if (done() && on_done_) sim_.ScheduleCallback(sim_.Now(), on_done_);
}

void InferenceServer::OnIterationDone(int32_t index) {
  Replica& r = replicas_[static_cast<size_t>(index)];
  assert(r.executor->flow_ids_used() <= kIdsPerExecutor);
  dispatcher_.Release(r.block);
  r.executor.reset();
  r.graph.reset();
  r.busy = false;
  const Time now = sim_.Now();
  std::vector<uint32_t> handed_off;
  for (const Entry& e : r.batch) {
    Request& q = requests_[e.request];
    if (e.prefill) {
      q.prefilled += e.tokens;
      if (q.prefilled < q.input) continue;
      if (r.role == Role::kPrefill) {
        q.phase = Phase::kHandoff;
        --r.unfinished;
        handed_off.push_back(e.request);
        continue;
      }
      q.first_token = now;
    }
    if (++q.generated == q.output) FinishRequest(r, q);
  }
  std::erase_if(r.running, [this](uint32_t i) {
    const Phase p = requests_[i].phase;
    return p == Phase::kDone || p == Phase::kHandoff;
  });
  for (uint32_t i : handed_off) StartHandoff(i);
  if (r.role == Role::kDecode) TryStartHandoffs(index);
  TryStartIteration(index);
}

void InferenceServer::StartHandoff(uint32_t request) {
  const int32_t d = Route(Role::kDecode);
  requests_[request].decode_replica = d;
  Replica& decode = replicas_[static_cast<size_t>(d)];
  decode.incoming.push_back(request);
  ++decode.unfinished;
  TryStartHandoffs(d);
}

void InferenceServer::TryStartHandoffs(int32_t index) {
  Replica& d = replicas_[static_cast<size_t>(index)];
  while (!d.incoming.empty()) {
    const uint32_t i = d.incoming.front();
    const Request& q = requests_[i];
    const uint64_t kv = uint64_t{q.input} + q.output;
    if (d.running.size() + d.receiving >= spec_.max_num_seqs || d.kv_used + kv > d.kv_capacity) return;
    d.incoming.pop_front();
    d.kv_used += kv;
    ++d.receiving;
    uint64_t slot = handoffs_.size();
    if (!free_handoffs_.empty()) {
      slot = free_handoffs_.back();
      free_handoffs_.pop_back();
    } else {
      handoffs_.emplace_back();
    }
    auto h = std::make_unique<Handoff>();
    h->request = i;
    const Replica& from = replicas_[static_cast<size_t>(q.replica)];
    h->graph = std::make_unique<JobGraph>(BuildKvTransferGraph(spec_.model, from.placement, d.placement, q.input));
    JobExecutorOptions o = ExecutorOptions(CollectiveProtocol::kSimple, d.placement.tp());
    h->block = o.first_flow_id;
    o.on_done = [this, slot] { sim_.ScheduleCallback(sim_.Now(), [this, slot] { OnHandoffDone(slot); }); };
    h->executor = std::make_unique<JobExecutor>(sim_, network_, layout_, *h->graph, std::move(o));
    dispatcher_.SetOwner(h->block, h->executor.get());
    JobExecutor* executor = h->executor.get();
    handoffs_[slot] = std::move(h);
    const Status started = executor->Start();
    assert(started.ok());
    (void)started;
  }
}

void InferenceServer::OnHandoffDone(uint64_t slot) {
  std::unique_ptr<Handoff> h = std::move(handoffs_[slot]);
  free_handoffs_.push_back(slot);
  dispatcher_.Release(h->block);
  const uint32_t i = h->request;
  h.reset();  // the executor, then its graph
  ++kv_transfers_;
  Request& q = requests_[i];
  replicas_[static_cast<size_t>(q.replica)].kv_used -= q.input;
  Replica& d = replicas_[static_cast<size_t>(q.decode_replica)];
  --d.receiving;
  q.first_token = sim_.Now();
  q.generated = 1;
  if (q.output == 1) {
    FinishRequest(d, q);
    TryStartHandoffs(q.decode_replica);
  } else {
    q.phase = Phase::kRunning;
    d.running.push_back(i);
  }
  TryStartIteration(q.replica);  // its KV room is free again
  TryStartIteration(q.decode_replica);
}

InferenceResult InferenceServer::result() const {
  assert(done());
  InferenceResult out;
  out.requests.reserve(requests_.size());
  for (const Request& q : requests_) {
    InferenceRequestRecord rec;
    rec.arrival = q.arrival;
    rec.first_token = q.first_token;
    rec.finish = q.finish;
    rec.input_tokens = q.input;
    rec.output_tokens = q.output;
    rec.replica = q.replica;
    rec.decode_replica = q.decode_replica;
    out.requests.push_back(rec);
  }
  out.summary = SummarizeInference(out.requests, spec_.ttft_slo_ms, spec_.tpot_slo_ms);
  out.summary.iterations = iterations_;
  if (iterations_ > 0) {
    out.summary.mean_batch_tokens = batch_tokens_ / static_cast<double>(iterations_);
    out.summary.mean_batch_sequences = batch_sequences_ / static_cast<double>(iterations_);
  }
  out.summary.kv_transfers = kv_transfers_;
  return out;
}

Result<InferenceResult> RunInference(Simulator& sim, NetworkModel& gpu_network, const ClusterLayout& layout,
                                     const InferenceSpec& spec) {
  InferenceServer server(sim, gpu_network, layout, spec);
  if (Status s = server.Start(); !s.ok()) return s.error();
  sim.Run();
  if (!server.status().ok()) return server.status().error();
  if (!server.done()) return Error{"inference: the simulation ended before every request finished"};
  return server.result();
}

}  // namespace aifabric
