#include "workload/inference_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace aifabric {

LatencyStats ComputeLatencyStats(std::vector<double> v) {
  LatencyStats s;
  s.count = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const auto rank = [&](double p) {
    size_t r = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
    return v[std::max<size_t>(r, 1) - 1];
  };
  s.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  s.p50_ms = rank(50);
  s.p99_ms = rank(99);
  s.max_ms = v.back();
  return s;
}

InferenceSummary SummarizeInference(const std::vector<InferenceRequestRecord>& requests, double ttft_slo_ms,
                                    double tpot_slo_ms) {
  InferenceSummary s;
  s.requests = requests.size();
  if (requests.empty()) return s;
  std::vector<double> ttft, tpot, e2e;
  Time first_arrival = Time::Infinite(), last_arrival = Time::Zero(), last_finish = Time::Zero();
  double output_tokens = 0, input_tokens = 0;
  size_t good = 0;
  for (const InferenceRequestRecord& r : requests) {
    ttft.push_back(r.ttft_ms());
    e2e.push_back(r.e2e_ms());
    bool met = r.ttft_ms() <= ttft_slo_ms;
    if (r.has_tpot()) {
      tpot.push_back(r.tpot_ms());
      met = met && r.tpot_ms() <= tpot_slo_ms;
    }
    good += met ? 1 : 0;
    first_arrival = Min(first_arrival, r.arrival);
    last_arrival = Max(last_arrival, r.arrival);
    last_finish = Max(last_finish, r.finish);
    output_tokens += r.output_tokens;
    input_tokens += r.input_tokens;
  }
  s.ttft = ComputeLatencyStats(std::move(ttft));
  s.tpot = ComputeLatencyStats(std::move(tpot));
  s.e2e = ComputeLatencyStats(std::move(e2e));
  s.duration_s = (last_finish - first_arrival).seconds();
  const double arrivals_s = (last_arrival - first_arrival).seconds();
  s.offered_rate_per_s = requests.size() > 1 && arrivals_s > 0 ? static_cast<double>(requests.size() - 1) / arrivals_s : 0;
  if (s.duration_s > 0) {
    s.output_tokens_per_s = output_tokens / s.duration_s;
    s.total_tokens_per_s = (input_tokens + output_tokens) / s.duration_s;
    s.goodput_per_s = static_cast<double>(good) / s.duration_s;
  }
  s.slo_attainment = static_cast<double>(good) / static_cast<double>(requests.size());
  return s;
}

}  // namespace aifabric
