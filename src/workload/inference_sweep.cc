#include "workload/inference_sweep.h"

#include "workload/inference_server.h"

namespace aifabric {

Result<std::vector<InferenceLoadPoint>> SweepInferenceLoad(const ClusterLayout& layout, const InferenceSpec& base,
                                                           std::span<const double> rates_per_s, uint64_t seed,
                                                           const InferenceNetworkFactory& make_network) {
  if (!base.trace.empty()) return Error{"inference sweep: the spec has a trace; a sweep sets Poisson rates"};
  std::vector<InferenceLoadPoint> points;
  for (double rate : rates_per_s) {
    InferenceSpec spec = base;
    spec.rate_per_s = rate;
    Simulator sim(seed);
    std::unique_ptr<NetworkModel> network = make_network(sim);
    Result<InferenceResult> r = RunInference(sim, *network, layout, spec);
    if (!r.ok()) return r.error();
    points.push_back({rate, r->summary});
  }
  return points;
}

}  // namespace aifabric
