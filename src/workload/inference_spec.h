// InferenceSpec is one inference-serving experiment: the model and GPU,
// how replicas are cut out of the cluster (tensor parallel x pipeline
// stages, optionally split into prefill and decode pools), the scheduler's
// limits, where requests come from (Poisson or a trace), the SLOs, and the
// simulation's cost knobs. A plain value with commented defaults; the scenario
// loader fills it (src/scenario). docs/inference.md describes each field.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "workload/collective_algorithms.h"
#include "workload/collective_protocol.h"
#include "workload/compute_slowdown.h"
#include "workload/inference_model.h"

namespace aifabric {

// One request of a trace.
struct InferenceRequestSpec {
  double arrival_us = 0;       // from the start of the run
  uint32_t input_tokens = 1;   // prompt length, >= 1
  uint32_t output_tokens = 1;  // tokens to generate, >= 1 (the first comes from the prefill)
};

enum class InferenceRouter : uint8_t {
  kRoundRobin,   // the next replica of the pool in turn
  kLeastLoaded,  // the replica with the fewest unfinished requests (lowest index on ties)
};
std::string_view InferenceRouterName(InferenceRouter router);  // "round_robin", "least_loaded"
Result<InferenceRouter> ParseInferenceRouter(std::string_view name);

struct InferenceSpec {
  InferenceModel model;  // default: Llama 3 70B
  InferenceGpu gpu;      // default: H100 SXM
  // Straggler windows (docs/faults.md): the iterations' kernels on a slow
  // GPU stretch by its factor. Set by the run from `faults`, not parsed.
  ComputeSlowdowns slowdowns;

  // Replicas. Each is `pp` stages of `tp` GPUs; stage slots of tp GPUs are
  // taken in GPU-id order from `first_gpu` on (tp divides the GPUs per
  // server, or is a multiple of it: a stage then spans whole servers), so
  // with tp = GPUs per server each stage is one server.
  int32_t tp = 8;
  int32_t pp = 1;
  int32_t replicas = 1;          // serving both phases (disaggregated = false)
  // Prefill/decode disaggregation: `prefill_replicas` run prompts only,
  // then ship each request's KV cache over the fabric to one of the
  // `decode_replicas` (same tp and pp), which generate the rest.
  bool disaggregated = false;
  int32_t prefill_replicas = 1;
  int32_t decode_replicas = 1;
  int32_t first_gpu = 0;

  // Continuous-batching scheduler, per replica (vLLM's names). An
  // iteration takes every running request (decode: one token each), then
  // waiting prompts in arrival order while the token budget and the
  // sequence limit allow and the KV cache has room.
  uint32_t max_num_batched_tokens = 8192;  // token budget per iteration
  uint32_t max_num_seqs = 256;             // running requests per replica
  // Off: a prompt is admitted whole or waits (no prompt may exceed the
  // budget). On: prompts are cut into chunks that fill the budget left.
  bool chunked_prefill = false;
  InferenceRouter router = InferenceRouter::kRoundRobin;

  // Requests: the trace if non-empty, else `num_requests` Poisson arrivals
  // at `rate_per_s`, lengths uniform in [min, max], drawn from the
  // simulator's Rng (a forked stream).
  std::vector<InferenceRequestSpec> trace;
  double rate_per_s = 1.0;
  uint32_t num_requests = 100;
  uint32_t input_tokens_min = 1024;
  uint32_t input_tokens_max = 1024;
  uint32_t output_tokens_min = 256;
  uint32_t output_tokens_max = 256;

  // SLOs for goodput (MLPerf Inference's Llama-2-70B server constraints,
  // loadgen/mlperf.conf: TTFT 2000 ms, TPOT 200 ms).
  double ttft_slo_ms = 2000;
  double tpot_slo_ms = 200;

  // Communication. protocol: unset picks, per iteration, the protocol with
  // the lowest closed-form ring all-reduce time for its TP all-reduce size
  // over NVLink (as NCCL's tuner does). channels: 0 = one inside a server,
  // the GPUs per server when a group spans servers.
  std::optional<CollectiveProtocol> protocol;
  CollectiveAlgorithm tp_algorithm = CollectiveAlgorithm::kRing;
  int32_t channels = 0;
  uint8_t priority = 3;  // traffic class of every transfer

  // Cost knob: consecutive layers of the same kind simulated as one (their
  // compute summed, each collective carrying their bytes and their step
  // latencies summed). 1 is exact; k cuts events ~k times, and on a
  // contention-free network changes only the network's per-transfer
  // latency term (counted once per k layers).
  int32_t layers_per_block = 1;
};

// The spec's limits: 1,000,000 requests, 100,000,000 iterations.
constexpr uint64_t kMaxInferenceRequests = 1'000'000;
constexpr uint64_t kMaxInferenceIterations = 100'000'000;

}  // namespace aifabric
