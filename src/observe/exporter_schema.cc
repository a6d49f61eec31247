#include "observe/exporter_schema.h"

#include <array>

#include "telemetry/fcs_error_metric.h"
#include "telemetry/metric_catalog.h"

namespace aifabric {
namespace {

ExporterMetric Catalog(Metric metric) {
  const MetricInfo& info = Info(metric);
  // The exposition is already in base units (prometheus_scale applied).
  return ExporterMetric{std::string(info.prometheus_name), 1};
}

ExporterSchema MakeAifabric() {
  ExporterSchema s;
  s.name = "aifabric";
  s.node_label = "node";
  s.peer_label = "port";
  s.clock = "aifabric_sim_time_seconds";  // report/telemetry_outputs.cc writes it beside the counters
  s.tx_bytes = Catalog(Metric::kTxBytes);
  s.drop_packets = Catalog(Metric::kTxDiscards);
  s.ecn_marks = Catalog(Metric::kQueueEcnMarked);
  s.pause_seconds = Catalog(Metric::kPfcPauseDurationUs);
  s.pfc_frames_tx = Catalog(Metric::kPfcTxFrames);
  s.queue_bytes = Catalog(Metric::kQueueWatermarkBytes);
  // Written beside the sampled counters (report/telemetry_outputs.cc), by
  // the sending port.
  s.fcs_error_packets = ExporterMetric{std::string(kFcsErrorPacketsMetric), 1};
  s.drops_include_fcs_errors = true;
  return s;
}

// github.com/guilbaults/infiniband-exporter, README "Metrics": counter
// names are ibqueryerrors' in lower case with _total; PortXmitData counts
// "data octets, divided by 4", PortXmitDiscards "outbound packets
// discarded by the port because the port is down or congested". It has no
// ECN (FECN) counter, no queue depth, and PortXmitWait counts ticks of no
// fixed length, so pauses stay unread. PortRcvErrors, "packets containing
// an error that were received on the port" (the receiver's CRC check: a
// gray link), is the FCS error count of the frames the far end sent.
ExporterSchema MakeInfiniband() {
  ExporterSchema s;
  s.name = "infiniband_exporter";
  s.node_label = "local_name";
  s.peer_label = "remote_name";
  s.tx_bytes = ExporterMetric{"infiniband_portxmitdata_total", 4};
  s.drop_packets = ExporterMetric{"infiniband_portxmitdiscards_total", 1};
  s.fcs_error_packets = ExporterMetric{"infiniband_portrcverrors_total", 1, true};
  return s;
}

}  // namespace

const ExporterSchema& AifabricExporter() {
  static const ExporterSchema schema = MakeAifabric();
  return schema;
}

const ExporterSchema& InfinibandExporter() {
  static const ExporterSchema schema = MakeInfiniband();
  return schema;
}

std::span<const ExporterSchema* const> BuiltInExporters() {
  static const std::array<const ExporterSchema*, 2> all = {&AifabricExporter(), &InfinibandExporter()};
  return all;
}

Result<const ExporterSchema*> FindExporter(std::string_view name) {
  std::string names;
  for (const ExporterSchema* s : BuiltInExporters()) {
    if (s->name == name) return s;
    names += (names.empty() ? "" : ", ") + s->name;
  }
  return Error{"--exporter: expected one of " + names + ", got '" + std::string(name) + "'"};
}

}  // namespace aifabric
