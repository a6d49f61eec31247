// The Prometheus text exposition format 0.0.4, the text `metrics.prom` holds
// and GET /metrics returns. PrometheusTextWriter writes it into a sink as it
// goes (a family's header, then its samples), labels passed as views, so an
// exposition of any size costs no more memory than the sink holds. The plain
// data form (MetricFamily, filled by PrometheusSnapshotBuilder from the
// metric catalog) and RenderPrometheusText are for small snapshots; they
// print through the writer, so both give the same bytes. Names, help and
// units of catalog metrics come from one table (metric_catalog.h). Plain
// values; thread-compatible (no shared state).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text_sink.h"
#include "telemetry/metric_catalog.h"

namespace aifabric {

// One label of a sample, as the writer prints it.
struct PrometheusLabel {
  std::string_view name;   // matches [a-zA-Z_][a-zA-Z0-9_]*
  std::string_view value;  // any UTF-8; `\`, `"` and newlines are escaped on output
};

// Writes the text exposition format 0.0.4 into `out`, line by line:
//   # HELP name help
//   # TYPE name counter|gauge
//   name{k="v",...} value        (one line per sample; no timestamps)
// Integers of magnitude up to 2^53 print as integers (`12345`); other
// finite values print in the shortest form that reads back to the same
// double; infinities and NaN print as `+Inf`, `-Inf`, `NaN`. Same calls,
// same bytes. Holds nothing but the current family's name.
// REQUIRES: every family and label name is valid (see PrometheusLabel and
// MetricFamily; asserted); each family is begun once (Prometheus wants a
// family's samples together).
class PrometheusTextWriter {
 public:
  explicit PrometheusTextWriter(TextSink& out) : out_(out) {}
  PrometheusTextWriter(const PrometheusTextWriter&) = delete;
  PrometheusTextWriter& operator=(const PrometheusTextWriter&) = delete;

  // Begins a family: its HELP and TYPE lines (printed even if no sample
  // follows). The samples written next belong to it.
  void Family(std::string_view name, std::string_view help, MetricKind kind);
  // One sample of the family begun last. `labels` print in order; none:
  // `name value`. REQUIRES: a family was begun.
  void Sample(std::span<const PrometheusLabel> labels, double value);
  // One sample of catalog metric `metric`, `recorded_value` in the
  // catalog's recorded unit (multiplied by its prometheus_scale, µs into
  // seconds). Its first sample begins the metric's family (catalog name,
  // help and kind), so a metric without samples prints nothing. For the
  // families in catalog order, write the metrics' samples in that order
  // (e.g. for each of AllMetrics(), the series of that metric).
  // REQUIRES: a metric's samples come one after another.
  void Sample(Metric metric, std::span<const PrometheusLabel> labels, double recorded_value);

 private:
  TextSink& out_;
  std::string family_;          // the family begun last; empty before the first
  int catalog_family_ = -1;     // its Metric when Sample(Metric, ...) began it, else -1
  uint64_t catalog_begun_ = 0;  // bit m: catalog metric m's family was begun (to assert "once")
};

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

// The families as PrometheusTextWriter prints them, in the order given (a
// family without samples still prints its HELP and TYPE lines).
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
