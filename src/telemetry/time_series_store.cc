#include "telemetry/time_series_store.h"

#include <algorithm>
#include <cassert>
#include <tuple>
#include <utility>

namespace aifabric {
namespace {

// True when no two keys are equal; O(n log n), run once (debug builds).
[[maybe_unused]] bool KeysUnique(std::vector<SeriesKey> keys) {
  const auto as_tuple = [](const SeriesKey& k) { return std::tuple(k.node, k.port, k.priority, k.metric); };
  std::sort(keys.begin(), keys.end(),
            [&](const SeriesKey& a, const SeriesKey& b) { return as_tuple(a) < as_tuple(b); });
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

}  // namespace

TimeSeriesStore::TimeSeriesStore(size_t max_points_per_series) : max_points_(max_points_per_series) {
  assert(max_points_ >= 4 && max_points_ % 2 == 0);
}

TimeSeriesStore::TimeSeriesStore(TimeSeriesStore&& other) noexcept
    : max_points_(other.max_points_),
      keys_(std::move(other.keys_)),
      gauges_(std::move(other.gauges_)),
      scratch_(std::move(other.scratch_)),
      times_(std::move(other.times_)),
      data_(std::move(other.data_)),
      committed_(std::exchange(other.committed_, 0)),
      span_instants_(std::exchange(other.span_instants_, 0)),
      stride_(std::exchange(other.stride_, 1)),
      samples_(std::exchange(other.samples_, 0)),
      base_interval_(std::exchange(other.base_interval_, Time::Zero())) {
  other.keys_.clear();
  other.gauges_.clear();
  other.scratch_.clear();
  other.times_.clear();
}

int TimeSeriesStore::AddSeries(const SeriesKey& key) {
  assert(samples_ == 0);
  assert(key.metric != Metric::kUtilization);  // derived, not stored
  const size_t id = keys_.size();
  keys_.push_back(key);
  if (Info(key.metric).kind == MetricKind::kGauge) gauges_.push_back(id);
  return static_cast<int>(id);
}

void TimeSeriesStore::RecordSample(Time at, std::span<const double> values, size_t instants) {
  assert(values.size() == keys_.size());
  assert(instants >= 1 && instants <= InstantsToNextPoint());
  const size_t n = keys_.size();
  if (samples_ == 0) {
    assert(KeysUnique(keys_));
    times_.assign(max_points_, Time::Zero());
    scratch_.assign(gauges_.size(), 0.0);
    // Uninitialized on purpose: pages are touched only as rows are kept.
    data_.reset(new double[n * max_points_]);
  } else {
    const Time last = times_[points() - 1];
    assert(at > last);
    if (samples_ == 1) base_interval_ = at - last;
  }
  if (committed_ == max_points_) Halve();

  const size_t slot = committed_;
  double* row = Row(slot);
  if (span_instants_ > 0) {
    // The provisional point takes this instant: counters the new value,
    // gauges the max over the span.
    for (size_t k = 0; k < gauges_.size(); ++k) scratch_[k] = std::max(row[gauges_[k]], values[gauges_[k]]);
    std::copy(values.begin(), values.end(), row);
    for (size_t k = 0; k < gauges_.size(); ++k) row[gauges_[k]] = scratch_[k];
  } else {
    std::copy(values.begin(), values.end(), row);
  }
  times_[slot] = at;
  samples_ += instants;
  span_instants_ += instants;
  if (span_instants_ == stride_) {
    ++committed_;
    span_instants_ = 0;
  }
}

void TimeSeriesStore::Halve() {
  assert(committed_ == max_points_ && span_instants_ == 0);
  const size_t half = max_points_ / 2;
  const size_t n = keys_.size();
  // Point j (j >= 1) becomes old point 2j, its gauges merged with old point
  // 2j-1; old point 0 stays; old point M-1 becomes the provisional point
  // `half`, which already spans stride_ of the 2 * stride_ instants it will
  // cover. Rows read (2j-1, 2j) are never below the row written (j), and
  // row 2j is rewritten only at step 2j, after step j read it: in place.
  for (size_t j = 1; j < half; ++j) {
    const double* earlier = Row(2 * j - 1);
    double* later = Row(2 * j);
    for (size_t g : gauges_) later[g] = std::max(earlier[g], later[g]);
    std::copy(later, later + n, Row(j));
    times_[j] = times_[2 * j];
  }
  std::copy(Row(max_points_ - 1), Row(max_points_ - 1) + n, Row(half));
  times_[half] = times_[max_points_ - 1];
  committed_ = half;
  span_instants_ = stride_;
  stride_ *= 2;
}

std::vector<double> UtilizationBetween(const TimeSeriesStore& store, int id, double line_rate_bps) {
  assert(Info(store.key(id).metric).kind == MetricKind::kCounter);
  assert(line_rate_bps > 0);
  const std::span<const Time> times = store.times();
  const SeriesValues bytes = store.values(id);
  std::vector<double> out(times.size() < 2 ? 0 : times.size() - 1);  // one allocation: called once per port
  for (size_t i = 1; i < times.size(); ++i) {
    const double seconds = (times[i] - times[i - 1]).seconds();
    out[i - 1] = (bytes[i] - bytes[i - 1]) * 8.0 / (line_rate_bps * seconds);
  }
  return out;
}

}  // namespace aifabric
