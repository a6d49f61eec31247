// TimeSeriesStore holds the sampled values of many counter and gauge series
// (one per port or per queue, see metric_catalog.h), all sampled at the same
// instants, in memory bounded by series x max_points_per_series: when a run
// is long it downsamples, halving the kept points and doubling the spacing.
// Owned by whoever drives the sampling (usually through a Sampler). Not
// thread-safe.
//
// Layout: row-wise, one row of series() values per kept point, so that
// RecordSample is one memcpy of the row (plus a max per gauge while a point
// is provisional); column-wise, a sample wrote one cache line per series,
// 2.2 ms for 60,000 series against about 0.05 ms row-wise (0.2-0.3 ms
// while a row's fresh pages are first touched). So values(id) is a strided
// view, not a span. The rows are allocated (untouched) when the first
// sample comes: memory grows with the points kept, up to series x
// max_points x 8 bytes (60,000 series x 4096 points = 2 GB: size
// max_points to a memory budget); a sample never allocates.
//
// Downsampling. Sampling instants are numbered 0, 1, 2, ... in the order
// they are recorded. With stride s (1 at first, doubling at each halving),
// the kept points are instants 0, s, 2s, ... plus, when the latest instant is
// not one of those, one provisional last point that shows the latest instant
// (so the last value of a counter is always the true last value). When the
// kept points reach max_points and another sample comes, the points are
// halved: every other one is kept (instants 0, 2s, 4s, ...), and from then
// on only every 2s-th instant is kept. Merge rule by MetricInfo::kind:
//  - counters (cumulative): a point holds the value at its own instant (the
//    later of each merged pair), so the rate between consecutive kept points
//    is exact over the coarser span, and the differences sum to the total;
//  - gauges: a point holds the max over every instant in its span, the
//    instants after the previous point up to and including its own (skipped
//    instants included), like SAI_QUEUE_STAT_WATERMARK: a spike is never
//    lost, it shows at the next point kept.
// Utilization is derived, not stored: AddSeries refuses Metric::kUtilization
// (averaging a ratio over merged spans would need their lengths); exporters
// compute it from the kTxBytes counter with UtilizationBetween, which stays
// exact across downsampling because counters are kept exactly.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <span>
#include <vector>

#include "core/time.h"
#include "telemetry/metric_catalog.h"

namespace aifabric {

// What one series measures. `port` is an index or id as the caller defines
// it (-1: none); `priority` is -1 when the metric is per port.
struct SeriesKey {
  int node = -1;
  int port = -1;
  int priority = -1;
  Metric metric = Metric::kTxBytes;

  bool operator==(const SeriesKey&) const = default;
};

// The kept values of one series: a read-only view with a stride into the
// store's rows, valid until the store records again.
class SeriesValues {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = double;
    using difference_type = std::ptrdiff_t;
    using pointer = const double*;
    using reference = const double&;
    Iterator() = default;
    Iterator(const double* at, size_t stride) : at_(at), stride_(stride) {}
    const double& operator*() const { return *at_; }
    Iterator& operator++() { at_ += stride_; return *this; }
    Iterator operator++(int) { Iterator old = *this; at_ += stride_; return old; }
    bool operator==(const Iterator& o) const { return at_ == o.at_; }

   private:
    const double* at_ = nullptr;
    size_t stride_ = 1;
  };

  SeriesValues(const double* first, size_t stride, size_t size) : first_(first), stride_(stride), size_(size) {}
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES: i < size()
  double operator[](size_t i) const { return first_[i * stride_]; }
  double front() const { return (*this)[0]; }
  double back() const { return (*this)[size_ - 1]; }
  Iterator begin() const { return {first_, stride_}; }
  Iterator end() const { return {first_ + size_ * stride_, stride_}; }

 private:
  const double* first_;
  size_t stride_;
  size_t size_;
};

class TimeSeriesStore {
 public:
  static constexpr size_t kDefaultMaxPoints = 4096;

  // REQUIRES: max_points_per_series >= 4 and even.
  explicit TimeSeriesStore(size_t max_points_per_series = kDefaultMaxPoints);
  TimeSeriesStore(const TimeSeriesStore&) = delete;
  TimeSeriesStore& operator=(const TimeSeriesStore&) = delete;
  // Moves the series out (a finished run hands its store to its results);
  // `other` is left with no series and no points.
  TimeSeriesStore(TimeSeriesStore&& other) noexcept;

  // Adds a series and returns its dense id (0, 1, 2, ...).
  // REQUIRES: no sample recorded yet; key.metric != kUtilization; key not
  // already added (asserted in debug builds only).
  int AddSeries(const SeriesKey& key);

  // Records the value of every series (in id order) at one instant.
  // REQUIRES: values.size() == series(); `at` later than the previous
  // sample's time.
  //
  // `instants` > 1: the sample stands for that many sampling instants, the
  // ones before it skipped unread (a sampler that reads only the instants
  // the store keeps, when its gauges are peaks since the last read, so
  // nothing is lost). REQUIRES: instants <= InstantsToNextPoint().
  void RecordSample(Time at, std::span<const double> values, size_t instants = 1);
  // Sampling instants from the last one recorded to the next that the
  // store will keep as a point of its own (1 while every instant is kept).
  size_t InstantsToNextPoint() const { return committed_ == max_points_ ? stride_ : stride_ - span_instants_; }

  size_t series() const { return keys_.size(); }
  // Points kept per series (the same for all), at most max_points.
  size_t points() const { return committed_ + (span_instants_ > 0 ? 1 : 0); }
  size_t max_points() const { return max_points_; }
  // Instants recorded since the start.
  size_t samples() const { return samples_; }
  // Instants per kept point: 1, then 2, 4, ... as it downsamples.
  size_t stride() const { return stride_; }
  // Spacing between kept points: the first two samples' spacing times
  // stride() (the sampling is regular but for a last, early, sample);
  // zero before two samples.
  Time interval() const { return base_interval_ * static_cast<int64_t>(stride_); }

  // REQUIRES: 0 <= id < series()
  const SeriesKey& key(int id) const { return keys_[static_cast<size_t>(id)]; }
  // Kept sample times, increasing.
  std::span<const Time> times() const { return {times_.data(), points()}; }
  // Kept values of series `id`, aligned with times().
  // REQUIRES: 0 <= id < series()
  SeriesValues values(int id) const { return {data_.get() + id, keys_.size(), points()}; }
  // Values of every series (in id order) at kept point j.
  // REQUIRES: j < points()
  std::span<const double> row(size_t j) const { return {data_.get() + j * keys_.size(), keys_.size()}; }

 private:
  // Merges kept points pairwise (see the header comment) and doubles stride_.
  void Halve();
  double* Row(size_t j) { return data_.get() + j * keys_.size(); }

  // Fixed at construction.
  const size_t max_points_;

  std::vector<SeriesKey> keys_;
  std::vector<size_t> gauges_;  // ids of the gauge series, increasing
  std::vector<double> scratch_;  // one per gauge
  std::vector<Time> times_;      // max_points_ slots
  std::unique_ptr<double[]> data_;  // max_points_ rows of series() values
  size_t committed_ = 0;        // points whose span is complete
  size_t span_instants_ = 0;    // instants in the provisional point (< stride_)
  size_t stride_ = 1;
  size_t samples_ = 0;
  Time base_interval_ = Time::Zero();
};

// The fraction of `line_rate_bps` used between kept points i-1 and i, from
// a kTxBytes (or kRxBytes) counter series:
// (bytes[i] - bytes[i-1]) * 8 / (line_rate_bps * (times[i] - times[i-1])).
// One value per kept point after the first; empty with fewer than 2 points.
// REQUIRES: `id` is a counter of bytes; line_rate_bps > 0.
std::vector<double> UtilizationBetween(const TimeSeriesStore& store, int id, double line_rate_bps);

}  // namespace aifabric
