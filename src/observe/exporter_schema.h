// ExporterSchema says how one Prometheus exporter names the port counters
// a FabricObservation is made of: the metric of each field (and the factor
// into the field's unit), the labels that name a port's node and its peer,
// and the clock its counters run on. Two are built in (docs/observability.md,
// "Observing a real fabric", has the table):
//   aifabric            our own exposition (metrics.prom, `aifabric run
//                       --metrics-port`; names from telemetry/metric_catalog.h),
//                       labels node and port (the peer's name); its counters
//                       run on simulated time, read from the gauge
//                       aifabric_sim_time_seconds.
//   infiniband_exporter guilbaults/infiniband-exporter (a fabric-wide IB
//                       exporter over ibqueryerrors, README "Metrics": every
//                       series is one cable end, labels local_name and
//                       remote_name), on wall-clock time.
// Immutable values; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

namespace aifabric {

struct ExporterMetric {
  std::string name;   // "" when the exporter has no such counter: the field stays 0
  double scale = 1;   // into the field's unit (bytes, packets, frames, seconds)
  // Counted where the frames arrive: a series naming node A and peer B
  // counts what B's egress toward A sent, so it fills port B -> A.
  bool received = false;
};

struct ExporterSchema {
  std::string name;        // as --exporter takes it
  std::string node_label;  // the label naming the port's node (the sender)
  std::string peer_label;  // the label naming the node at the link's far end
  // A gauge of the exporter's own clock in seconds, sampled in the same
  // scrape as its counters (rates are per second of this clock); "" for
  // the scrape's wall-clock timestamps.
  std::string clock;
  // Counters (summed over priorities/queues when a port has several series).
  ExporterMetric tx_bytes;       // wire bytes sent by the port
  ExporterMetric drop_packets;   // refused at the port's egress
  ExporterMetric ecn_marks;      // packets marked CE at the port's egress
  ExporterMetric pause_seconds;  // time the port's egress spent paused (PFC)
  ExporterMetric pfc_frames_tx;  // PFC frames the port's node sent to its peer over this link
  // Frames the link corrupted on the way (FCS/CRC errors at the receiver),
  // charged to the sending port as PortObservation::fcs_error_packets.
  ExporterMetric fcs_error_packets;
  // Whether drop_packets already counts the corrupted frames (aifabric's
  // own transmit discards do: a frame lost on a gray link is a drop of its
  // sender); they are then taken out of it before the observation adds
  // fcs_error_packets to the port's losses.
  bool drops_include_fcs_errors = false;
  // Gauge: the highest value in the window is the port's queue peak.
  ExporterMetric queue_bytes;
};

const ExporterSchema& AifabricExporter();
const ExporterSchema& InfinibandExporter();
std::span<const ExporterSchema* const> BuiltInExporters();
// The built-in schema named `name`; the error lists the names.
Result<const ExporterSchema*> FindExporter(std::string_view name);

}  // namespace aifabric
