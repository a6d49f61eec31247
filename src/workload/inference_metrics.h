// What an inference-serving run measured: per request, its arrival, first
// token and finish; over all requests, TTFT, TPOT and end-to-end latency
// (mean, nearest-rank p50/p99, max), throughput and goodput. Plain values
// and pure functions; thread-safe.
//
//   TTFT     first token - arrival (with disaggregation the first token is
//            delivered once the KV cache has reached the decode replica)
//   TPOT     (finish - first token) / (output tokens - 1); requests of one
//            output token have none and are left out of TPOT statistics
//   goodput  requests that met both SLOs (TTFT <= ttft_slo, TPOT <=
//            tpot_slo, or no TPOT) per second of the run (first arrival to
//            last finish)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace aifabric {

struct InferenceRequestRecord {
  Time arrival;
  Time first_token;
  Time finish;
  uint32_t input_tokens = 0;
  uint32_t output_tokens = 0;
  int32_t replica = -1;         // the replica that ran its prefill
  int32_t decode_replica = -1;  // disaggregated: the one that decoded it

  double ttft_ms() const { return (first_token - arrival).seconds() * 1e3; }
  double e2e_ms() const { return (finish - arrival).seconds() * 1e3; }
  bool has_tpot() const { return output_tokens > 1; }
  // REQUIRES: has_tpot().
  double tpot_ms() const { return (finish - first_token).seconds() * 1e3 / (output_tokens - 1); }
};

struct LatencyStats {
  size_t count = 0;
  double mean_ms = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

// Nearest-rank percentiles (the value at rank ceil(p/100 * n)); zeros when empty.
LatencyStats ComputeLatencyStats(std::vector<double> values_ms);

struct InferenceSummary {
  size_t requests = 0;
  LatencyStats ttft;
  LatencyStats tpot;
  LatencyStats e2e;
  double duration_s = 0;           // first arrival to last finish
  double offered_rate_per_s = 0;   // (requests - 1) / (last arrival - first arrival); 0 for one
  double output_tokens_per_s = 0;  // output tokens / duration
  double total_tokens_per_s = 0;   // (input + output tokens) / duration
  double goodput_per_s = 0;        // requests meeting both SLOs / duration
  double slo_attainment = 0;       // share of requests meeting both SLOs
  // Filled by the server:
  uint64_t iterations = 0;         // batch iterations over all replicas
  double mean_batch_tokens = 0;    // new tokens per iteration
  double mean_batch_sequences = 0;
  uint64_t kv_transfers = 0;       // disaggregated hand-offs
};

// The latency, throughput and goodput part of the summary.
// REQUIRES: every record finished.
InferenceSummary SummarizeInference(const std::vector<InferenceRequestRecord>& requests, double ttft_slo_ms,
                                    double tpot_slo_ms);

struct InferenceResult {
  InferenceSummary summary;
  std::vector<InferenceRequestRecord> requests;  // in arrival order
};

}  // namespace aifabric
