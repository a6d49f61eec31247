#include "telemetry/time_series_store.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

const SeriesKey kCounterKey{1, 2, -1, Metric::kTxBytes};
const SeriesKey kGaugeKey{1, 2, 3, Metric::kQueueOccupancyBytes};

std::vector<int64_t> TimesNs(const TimeSeriesStore& store) {
  std::vector<int64_t> out;
  for (Time t : store.times()) out.push_back(t.ns());
  return out;
}

std::vector<double> Values(const TimeSeriesStore& store, int id) {
  const SeriesValues v = store.values(id);
  return {v.begin(), v.end()};
}

TEST(TimeSeriesStore, DownsamplesByHand) {
  // max 4 points; instant i at 10i ns; counter 10i; gauge g[i].
  // After instants 0..3: four points, stride 1.
  // Instant 4: halve -> points at instants 0, 2 (gauge max(g1, g2)), and
  // instant 3 provisional; instant 4 folds into it and completes it
  // (stride 2): instants 0, 2, 4 with gauges g0, max(g1,g2), max(g3,g4).
  // Instant 5 opens a provisional point; instant 6 completes it: 4 points.
  // Instant 7: halve again (stride 4) -> instants 0, 4 (gauge max(g1..g4)),
  // and instant 6 (max(g5,g6)) provisional, which instant 7 updates:
  // times 0, 40, 70; gauges 1, 9, 8; counters 0, 40, 70.
  const std::vector<double> gauge = {1, 9, 2, 3, 4, 5, 8, 6};
  TimeSeriesStore store(4);
  const int c = store.AddSeries(kCounterKey);
  const int g = store.AddSeries(kGaugeKey);
  ASSERT_EQ(c, 0);
  ASSERT_EQ(g, 1);
  EXPECT_EQ(store.interval(), Time::Zero());
  for (int i = 0; i < 8; ++i) {
    const double row[] = {10.0 * i, gauge[static_cast<size_t>(i)]};
    store.RecordSample(Time::FromNs(10 * i), row);
    if (i == 3) {
      EXPECT_EQ(TimesNs(store), (std::vector<int64_t>{0, 10, 20, 30}));
      EXPECT_EQ(store.interval(), Time::FromNs(10));
    }
    if (i == 4) {
      EXPECT_EQ(TimesNs(store), (std::vector<int64_t>{0, 20, 40}));
      EXPECT_EQ(Values(store, g), (std::vector<double>{1, 9, 4}));
      EXPECT_EQ(store.interval(), Time::FromNs(20));
    }
    if (i == 6) {
      EXPECT_EQ(TimesNs(store), (std::vector<int64_t>{0, 20, 40, 60}));
      EXPECT_EQ(Values(store, g), (std::vector<double>{1, 9, 4, 8}));
    }
  }
  EXPECT_EQ(store.points(), 3u);
  EXPECT_EQ(store.stride(), 4u);
  EXPECT_EQ(store.samples(), 8u);
  EXPECT_EQ(store.interval(), Time::FromNs(40));
  EXPECT_EQ(TimesNs(store), (std::vector<int64_t>{0, 40, 70}));
  EXPECT_EQ(Values(store, c), (std::vector<double>{0, 40, 70}));
  EXPECT_EQ(Values(store, g), (std::vector<double>{1, 9, 8}));
  EXPECT_EQ(store.key(g), kGaugeKey);
}

TEST(TimeSeriesStore, CountersStayExactAndConserved) {
  // Irregular increments; every kept counter point must equal the true
  // cumulative value at its instant (instant = time / 10 ns), the last one
  // the true total, and the kept differences sum to that total.
  TimeSeriesStore store(8);
  const int c = store.AddSeries(kCounterKey);
  std::vector<double> cumulative;
  double total = 0;
  for (int i = 0; i < 1000; ++i) {
    total += static_cast<double>((i * 7919) % 13);
    cumulative.push_back(total);
    const double row[] = {total};
    store.RecordSample(Time::FromNs(10 * i), row);
  }
  ASSERT_LE(store.points(), 8u);
  const std::span<const Time> times = store.times();
  const SeriesValues kept = store.values(c);
  double sum_of_differences = kept[0];
  for (size_t j = 0; j < kept.size(); ++j) {
    EXPECT_EQ(kept[j], cumulative[static_cast<size_t>(times[j].ns() / 10)]) << "point " << j;
    if (j > 0) sum_of_differences += kept[j] - kept[j - 1];
  }
  EXPECT_EQ(times.back(), Time::FromNs(9990));
  EXPECT_EQ(kept.back(), total);
  EXPECT_EQ(sum_of_differences, total);
}

// A single spike at instant `p` of a gauge that is otherwise 1 shows as the
// value of the first kept point at or after the spike, and nowhere else.
class GaugeSpike : public testing::TestWithParam<int> {};

TEST_P(GaugeSpike, SurvivesAtTheNextKeptPoint) {
  const int spike_at = GetParam();
  TimeSeriesStore store(8);
  const int g = store.AddSeries(kGaugeKey);
  for (int i = 0; i < 100; ++i) {
    const double row[] = {i == spike_at ? 7.0 : 1.0};
    store.RecordSample(Time::FromNs(10 * i), row);
  }
  const std::span<const Time> times = store.times();
  const SeriesValues kept = store.values(g);
  const size_t holder = static_cast<size_t>(
      std::lower_bound(times.begin(), times.end(), Time::FromNs(10 * spike_at)) - times.begin());
  ASSERT_LT(holder, times.size());
  for (size_t j = 0; j < kept.size(); ++j) EXPECT_EQ(kept[j], j == holder ? 7.0 : 1.0) << "point " << j;
}

INSTANTIATE_TEST_SUITE_P(EveryInstant, GaugeSpike, testing::Range(0, 100));

TEST(TimeSeriesStore, MemoryStaysBounded) {
  // max 64 points, 10 µs sampling, 1,000,000 instants (0 .. 999,999).
  // With stride s the points are instants 0, s, ..., 63s; the next instant,
  // 63s + 1, halves to stride 2s. So halvings come before instants
  // 63 * 2^k + 1, k = 0, 1, ...: 63 * 2^13 + 1 = 516,097 <= 999,999 but
  // 63 * 2^14 + 1 = 1,032,193 is not, so 14 halvings: stride 2^14 = 16,384,
  // interval 16,384 * 10 µs = 163,840 µs. Kept: instants 0, 16384, ...,
  // 61 * 16384 = 999,424 (62 points) plus the provisional 999,999: 63.
  TimeSeriesStore store(64);
  const int c = store.AddSeries(kCounterKey);
  const int g = store.AddSeries(kGaugeKey);
  for (int i = 0; i < 1'000'000; ++i) {
    const double row[] = {static_cast<double>(i), static_cast<double>(i % 1000)};
    store.RecordSample(Time::FromUs(10 * static_cast<int64_t>(i)), row);
  }
  EXPECT_EQ(store.stride(), 16384u);
  EXPECT_EQ(store.interval(), Time::FromUs(163'840));
  EXPECT_EQ(store.points(), 63u);
  EXPECT_EQ(store.times()[61], Time::FromUs(9'994'240));
  EXPECT_EQ(store.times().back(), Time::FromUs(9'999'990));
  EXPECT_EQ(store.values(c).back(), 999'999.0);
  // Every span of >= 1000 instants holds an instant with i % 1000 == 999.
  for (size_t j = 1; j < store.points(); ++j) EXPECT_EQ(store.values(g)[j], 999.0) << "point " << j;
}

TEST(TimeSeriesStore, SameSamplesSameStore) {
  const auto fill = [](TimeSeriesStore& store) {
    store.AddSeries(kCounterKey);
    store.AddSeries(kGaugeKey);
    for (int i = 0; i < 300; ++i) {
      const double row[] = {i * 0.1, 1.0 / (1 + (i * 37) % 11)};
      store.RecordSample(Time::FromPs(1000 * i + 7), row);
    }
  };
  TimeSeriesStore a(16), b(16);
  fill(a);
  fill(b);
  ASSERT_EQ(a.points(), b.points());
  EXPECT_TRUE(std::equal(a.times().begin(), a.times().end(), b.times().begin()));
  for (int id = 0; id < 2; ++id) EXPECT_EQ(Values(a, id), Values(b, id));
}

TEST(UtilizationBetween, IntegratesBackToTheBytesSent) {
  // 100 Gb/s: 125 bytes in 10 ns is exactly the line rate (1000 bits / 1000 bits).
  TimeSeriesStore store(8);
  const int c = store.AddSeries(kCounterKey);
  double sent = 0;
  for (int i = 0; i < 50; ++i) {
    sent += (i % 3 == 0) ? 125 : 25;
    const double row[] = {sent};
    store.RecordSample(Time::FromNs(10 * i), row);
  }
  constexpr double kRate = 100e9;
  const std::vector<double> util = UtilizationBetween(store, c, kRate);
  ASSERT_EQ(util.size(), store.points() - 1);
  double bytes = store.values(c)[0];
  for (size_t j = 0; j < util.size(); ++j) {
    const double seconds = (store.times()[j + 1] - store.times()[j]).seconds();
    bytes += util[j] * kRate * seconds / 8;
  }
  EXPECT_NEAR(bytes, sent, 1e-9 * sent);

  TimeSeriesStore two(4);
  two.AddSeries(kCounterKey);
  const double r0[] = {0}, r1[] = {125};
  two.RecordSample(Time::Zero(), r0);
  two.RecordSample(Time::FromNs(10), r1);
  EXPECT_EQ(UtilizationBetween(two, 0, kRate), std::vector<double>{1.0});
}

}  // namespace
}  // namespace aifabric
