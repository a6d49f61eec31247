// ModelHandle is the network model of one simulation, chosen once from the
// scenario's simulation.model: it owns the model (and, at packet level, the
// transport its flows use), hands it out as a FabricNetwork — what every
// caller asks of "the model that ran" — and makes the counter readers the
// model publishes to telemetry through. It is the one place where a model
// kind becomes a concrete model. Not thread-safe; lives inside one
// Simulator.
#pragma once

#include <memory>
#include <vector>

#include "engine/simulator.h"
#include "fabric/fabric_network.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "scenario/scenario.h"
#include "telemetry/sampler.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// A counter reader and the series it fills, in order (telemetry/sampler.h).
struct CounterSource {
  std::unique_ptr<CounterReader> reader;
  std::vector<SeriesKey> keys;
};

class ModelHandle {
 public:
  // The model scenario.model names over `topology` and `routes`, with the
  // scenario's fabric settings. `sim`, `topology` and `routes` outlive it.
  static std::unique_ptr<ModelHandle> Make(Simulator& sim, const Scenario& scenario, const Topology& topology,
                                           const RoutingTable& routes);
  virtual ~ModelHandle() = default;

  virtual FabricNetwork& network() = 0;
  virtual const FabricNetwork& network() const = 0;
  // The readers of its counters: per port and per queue at packet level
  // (the queues of `priorities`, of the default class 3 and, with PFC on,
  // of the lossless ones), bytes per port at flow level, none for the
  // analytic model (it has no time to sample).
  virtual std::vector<CounterSource> CounterSources(const std::vector<int>& priorities) const = 0;
};

}  // namespace aifabric
