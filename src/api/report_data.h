// ReportData gathers what report.html shows of a run into the JSON its
// renderer takes (telemetry/html_report.h's schema): the summary's
// top-level figures (not the wall-clock ones), a utilization heat map per
// tier pair (host->leaf, leaf->spine, ...: the 512 busiest links of each),
// throughput of the busiest ports and queue depth of the deepest queues
// over time from the sampled series, the FCT CDF of the transfers, and the
// diagnosis. A pure function of its inputs; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "fabric/fabric_observation.h"
#include "fabric/topology.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// `store` may be null (not sampled): the charts then carry a note instead.
nlohmann::ordered_json ReportData(const Topology& topology, const FabricObservation& observation,
                                  const TimeSeriesStore* store, const nlohmann::ordered_json& summary,
                                  const nlohmann::ordered_json& diagnosis);

}  // namespace aifabric
