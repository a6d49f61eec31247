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
#include "core/text_sink.h"
#include "fabric/fabric_observation.h"
#include "fabric/topology.h"
#include "report/output_folder.h"
#include "run/fabric_simulation.h"
#include "telemetry/chrome_trace.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// A port is named by the node at its far end, as diagnosis.json's
// port_peer (node names as in the input topology).
std::string PortPeerName(const Topology& topology, PortId port);

// Prometheus exposition of the latest values: every series of `store` (or,
// without one, the per-port totals of `ports`), labelled node, port and
// priority; and the run's aifabric_sim_time_seconds and
// aifabric_transfers_completed_total.
void WritePrometheusExposition(TextSink& out, const Topology& topology, const TimeSeriesStore* store,
                               std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed);
// The same as text (what the live endpoint publishes).
std::string PrometheusExposition(const Topology& topology, const TimeSeriesStore* store,
                                 std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed);

// At most kMaxTimeseriesRows data rows: a store with more series x points
// than that is written for the ports whose final byte count is highest
// (every series of such a port, in id order; ties: lower port id), as many
// ports as fit.
inline constexpr size_t kMaxTimeseriesRows = 2'000'000;
void WriteTimeseriesCsv(TextSink& out, const Topology& topology, const TimeSeriesStore& store);

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

// Writes timeseries.csv (when sampled), metrics.prom, trace.json,
// diagnosis.json and report.html into `out`; with `index` > 0 each name
// carries it before its extension (trace.1.json: a scenario's second
// simulation). An Error if a file cannot be written, or if the report data
// is malformed (a bug).
Status WriteTelemetryFiles(const TelemetryInputs& in, OutputFolder& out, size_t index = 0);

// The same files of one finished simulation of a job or service, as
// `observation` saw it up to `end` (run/run_observation.h): `summary` for
// the report, `add_to_trace` for the workload's own tracks.
Status WriteSimulationTelemetryFiles(const FabricSimulation& simulation, const FabricObservation& observation, Time end,
                                     const nlohmann::ordered_json& summary,
                                     std::function<void(ChromeTrace&)> add_to_trace, OutputFolder& out,
                                     size_t index);

}  // namespace aifabric
