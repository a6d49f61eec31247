// The Prometheus name of the FCS-error counter: frames a port sent that a
// gray link corrupted on the way (the far end's MAC drops them on a failed
// FCS), counted at the sender, among its transmit discards. Not one of the
// sampled series of metric_catalog.h: metrics.prom carries it at the end
// of a run, for the ports that have any (report/telemetry_outputs.cc), and
// `aifabric observe --exporter aifabric` reads it (observe/exporter_schema.cc).
#pragma once

#include <string_view>

namespace aifabric {

inline constexpr std::string_view kFcsErrorPacketsMetric = "aifabric_port_fcs_error_packets_total";

}  // namespace aifabric
