// The observability files of a run (docs/observability.md), built from
// what the run observed of its fabric (FabricObservation) and, when the
// model was sampled, its time series: timeseries.csv, metrics.prom,
// trace.json, diagnosis.json and report.html. Pure functions of their
// inputs (deterministic: the same run gives the same bytes); thread-safe.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "fabric/fabric_observation.h"
#include "fabric/topology.h"
#include "telemetry/chrome_trace.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// The utilization of a kTxBytes series per kept interval, at most 1: the
// packet level counts a packet's bytes when it starts on the wire, so one
// interval can show up to a packet more than its line rate carries.
std::vector<double> SampledUtilization(const TimeSeriesStore& store, int id, DataRate line_rate);

// A port is named by the node at its far end, as diagnosis.json's
// port_peer (node names as in the input topology).
std::string PortPeerName(const Topology& topology, PortId port);

// Prometheus exposition of the latest values: every series of `store` (or,
// without one, the per-port totals of `ports`), labelled node, port and
// priority; and the run's aifabric_sim_time_seconds and
// aifabric_transfers_completed_total.
std::string PrometheusExposition(const Topology& topology, const TimeSeriesStore* store,
                                 std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed);

// At most kMaxTimeseriesRows data rows: a store with more series x points
// than that is written for the ports whose final byte count is highest
// (every series of such a port, in id order; ties: lower port id), as many
// ports as fit.
inline constexpr size_t kMaxTimeseriesRows = 2'000'000;
std::string TimeseriesCsv(const Topology& topology, const TimeSeriesStore& store);

// Adds to `trace` the transfers per source NIC (one slice each, start to
// finish) and, from `store`, the queue depth of the deepest queues as
// counters (at most `max_queue_tracks` of them).
void AddFabricTrace(const Topology& topology, const FabricObservation& observation, const TimeSeriesStore* store,
                    ChromeTrace& trace, size_t max_queue_tracks = 16);

// Everything the five files are made from.
struct TelemetryInputs {
  const Topology* topology = nullptr;
  const FabricObservation* observation = nullptr;
  const TimeSeriesStore* store = nullptr;       // null: not sampled (no timeseries.csv)
  Time sim_time;
  size_t transfers_completed = 0;
  const nlohmann::ordered_json* summary = nullptr;  // the run's summary.json
  std::function<void(ChromeTrace&)> add_to_trace;   // e.g. a job's ranks; may be empty
};

// (file name, contents) of timeseries.csv (when sampled), metrics.prom,
// trace.json, diagnosis.json and report.html. An Error only if the report
// data is malformed (a bug).
Result<std::vector<std::pair<std::string, std::string>>> RenderTelemetryFiles(const TelemetryInputs& in);

}  // namespace aifabric
