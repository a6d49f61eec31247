// SweepInferenceLoad runs one inference spec at a list of Poisson arrival
// rates, each in a fresh Simulator (seeded alike) on a fresh network from
// a factory, and returns each rate's summary: the load curve of TTFT, TPOT
// and goodput versus offered load. Thread-compatible (runs sequentially).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/result.h"
#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "workload/inference_metrics.h"
#include "workload/inference_spec.h"

namespace aifabric {

struct InferenceLoadPoint {
  double rate_per_s = 0;
  InferenceSummary summary;
};

// Makes the network (GPU-id endpoints) a run uses; it lives as long as
// the returned object, which owns whatever it wraps.
using InferenceNetworkFactory = std::function<std::unique_ptr<NetworkModel>(Simulator&)>;

// REQUIRES: base.trace empty (the rate sets the arrivals). The first
// failing rate's error is returned.
Result<std::vector<InferenceLoadPoint>> SweepInferenceLoad(const ClusterLayout& layout, const InferenceSpec& base,
                                                           std::span<const double> rates_per_s, uint64_t seed,
                                                           const InferenceNetworkFactory& make_network);

}  // namespace aifabric
