// The files one pass of `aifabric observe` writes into its --out folder:
// diagnosis.json (the same document a run writes: Diagnose + FindingsJson)
// and observation.json (where the figures came from, and every port a
// series named with what its counters said). Written through an
// OutputFolder, so a reader never sees half a pass, and the previous
// pass's files stay until the new ones are complete. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "core/time.h"
#include "diagnosis/finding.h"
#include "fabric/topology.h"
#include "observe/exporter_schema.h"
#include "observe/observe_prometheus.h"

namespace aifabric {

// What a pass read, besides the figures.
struct ObservePass {
  int pass = 1;
  std::string prometheus;  // the server's URL
  const ExporterSchema* exporter = nullptr;
  Time window;
};

// observation.json: {"pass", "prometheus", "exporter", "clock": "simulated"
// | "wall", "window_s", "active_s", "series", "queries", "unread",
// "warnings", "ports": [{"node", "port_peer", "rate_gbps", "tx_bytes",
// "utilization", "peak_utilization", "drop_packets", "ecn_marks",
// "pause_ns", "pfc_frames_tx", "max_queue_bytes"}] (ports some series
// named, by port id), "pause_causes": [{"paused": {node, port_peer},
// "cause": {...}, "frames"}] (inferred), "top_finding": the first of
// `findings` as diagnosis.json has it, or null}. Numbers rounded to 4
// decimals where they are ratios.
nlohmann::ordered_json ObservationJson(const Topology& topology, const FabricReading& reading,
                                       const std::vector<Finding>& findings, const ObservePass& pass);

// Diagnoses the reading and writes both files into `dir`; returns the
// findings, most severe first.
Result<std::vector<Finding>> WriteObservePass(const std::string& dir, const Topology& topology,
                                              const FabricReading& reading, const ObservePass& pass);

}  // namespace aifabric
