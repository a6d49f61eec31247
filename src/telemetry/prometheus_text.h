// A snapshot of metrics as plain data (families of labelled samples) and
// its writer in the Prometheus text exposition format 0.0.4, the text
// `metrics.prom` holds and GET /metrics returns. PrometheusSnapshotBuilder
// fills families from the metric catalog, so names, help and units come
// from one table. Plain values; thread-compatible (no shared state).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "telemetry/metric_catalog.h"

namespace aifabric {

// Label name and value, in the order they print.
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

struct MetricSample {
  MetricLabels labels;  // names match [a-zA-Z_][a-zA-Z0-9_]*; values any UTF-8
  double value = 0;
};

struct MetricFamily {
  std::string name;  // matches [a-zA-Z_:][a-zA-Z0-9_:]*; a counter's ends in _total
  std::string help;  // one line of prose; `\` and newlines are escaped on output
  MetricKind kind = MetricKind::kGauge;
  std::vector<MetricSample> samples;  // printed in this order (the caller sorts)
};

// The families in the text exposition format 0.0.4, in the order given:
//   # HELP name help
//   # TYPE name counter|gauge
//   name{k="v",...} value        (one line per sample; no timestamps)
// A family without samples still prints its HELP and TYPE lines. Integers
// of magnitude up to 2^53 print as integers (`12345`); other finite values
// print in the shortest form that reads back to the same double; infinities
// and NaN print as `+Inf`, `-Inf`, `NaN`. Same input, same bytes.
// REQUIRES: every family and label name is valid (see above; asserted).
std::string RenderPrometheusText(std::span<const MetricFamily> families);

// Gathers samples of catalog metrics and returns them as families: one per
// catalog metric that has samples, named and documented by the catalog, its
// values multiplied by the metric's prometheus_scale (µs into seconds).
// Run-level families outside the catalog (e.g. aifabric_sim_time_seconds)
// the caller appends to Families() itself.
class PrometheusSnapshotBuilder {
 public:
  PrometheusSnapshotBuilder();

  // `recorded_value` is in the catalog's recorded unit (e.g. µs for
  // kPfcPauseDurationUs). Labels are typically node, port and, for
  // per-queue metrics, priority.
  void Add(Metric metric, MetricLabels labels, double recorded_value);

  // In catalog order; samples of a family in insertion order.
  std::vector<MetricFamily> Families() const;

 private:
  std::vector<std::vector<MetricSample>> samples_;  // indexed by Metric; one per catalog entry
};

}  // namespace aifabric
