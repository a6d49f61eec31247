#include "telemetry/sampler.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

// A port that has sent 10 bytes per ns of simulated time.
class LineRateReader final : public CounterReader {
 public:
  void Read(Time now, std::span<double> out) override {
    ASSERT_EQ(out.size(), 1u);
    out[0] = 10.0 * static_cast<double>(now.ns());
    ++reads;
  }
  int reads = 0;
};

// Two queues whose occupancy is the time in µs and twice that.
class QueueReader final : public CounterReader {
 public:
  void Read(Time now, std::span<double> out) override {
    ASSERT_EQ(out.size(), 2u);
    out[0] = static_cast<double>(now.ps() / 1'000'000);
    out[1] = 2 * out[0];
  }
};

struct Nothing final : EventHandler {
  void OnEvent(uint64_t) override {}
};

const SeriesKey kTx{0, 1, -1, Metric::kTxBytes};
const SeriesKey kQueue0{0, 1, 0, Metric::kQueueOccupancyBytes};
const SeriesKey kQueue3{0, 1, 3, Metric::kQueueOccupancyBytes};

// Runs a simulation whose only work is one event at `work_at`, sampled
// every 10 µs, and takes the final sample.
struct SampledRun {
  explicit SampledRun(Time work_at) : sim(1), store(64), sampler(sim, store, Time::FromUs(10)) {
    const SeriesKey tx[] = {kTx};
    const SeriesKey queues[] = {kQueue0, kQueue3};
    sampler.AddReader(&tx_reader, tx);
    sampler.AddReader(&queue_reader, queues);
    sim.Schedule(work_at, &nothing);
    sampler.Start();
    sim.Run();
    sampler.SampleNow();
  }
  std::vector<int64_t> TimesUs() const {
    std::vector<int64_t> out;
    for (Time t : store.times()) out.push_back(t.ps() / 1'000'000);
    return out;
  }
  std::vector<double> Values(int id) const { return {store.values(id).begin(), store.values(id).end()}; }

  Simulator sim;
  TimeSeriesStore store;
  Sampler sampler;
  LineRateReader tx_reader;
  QueueReader queue_reader;
  Nothing nothing;
};

TEST(Sampler, SamplesEveryIntervalAndAtTheEndWithoutExtendingTheRun) {
  // Work at 95 µs: ticks at 0, 10, ..., 90 µs; the tick at 100 µs never
  // runs (only it is left), so the run ends at 95 µs, where the final
  // sample is taken: 11 samples, 10 bytes/ns -> 10,000 bytes per µs.
  SampledRun run(Time::FromUs(95));
  EXPECT_EQ(run.sim.Now(), Time::FromUs(95));
  EXPECT_EQ(run.sim.pending_events(), 0u);
  EXPECT_EQ(run.TimesUs(), (std::vector<int64_t>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95}));
  EXPECT_EQ(run.Values(0), (std::vector<double>{0, 100'000, 200'000, 300'000, 400'000, 500'000, 600'000, 700'000,
                                                800'000, 900'000, 950'000}));
  EXPECT_EQ(run.Values(1), (std::vector<double>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95}));
  EXPECT_EQ(run.Values(2), (std::vector<double>{0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 190}));
  EXPECT_EQ(run.store.key(2), kQueue3);
  // A second final sample at the same instant is not taken.
  run.sampler.SampleNow();
  EXPECT_EQ(run.store.points(), 11u);
  EXPECT_EQ(run.tx_reader.reads, 11);
}

TEST(Sampler, WorkAtATickEndsTheRunBeforeThatTick) {
  // Work at 90 µs was scheduled before the tick at 90 µs (scheduled at
  // 80 µs), so it runs first and leaves only the tick: the run ends at
  // 90 µs and SampleNow takes the 90 µs sample, once.
  SampledRun run(Time::FromUs(90));
  EXPECT_EQ(run.sim.Now(), Time::FromUs(90));
  EXPECT_EQ(run.TimesUs(), (std::vector<int64_t>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}));
  EXPECT_EQ(run.Values(0).back(), 900'000);
}

TEST(Sampler, SameRunSameSamples) {
  SampledRun a(Time::FromNs(123'456)), b(Time::FromNs(123'456));
  ASSERT_EQ(a.TimesUs(), b.TimesUs());
  for (int id = 0; id < 3; ++id) EXPECT_EQ(a.Values(id), b.Values(id));
  EXPECT_EQ(a.store.times().back(), Time::FromNs(123'456));
}

TEST(Sampler, NoWorkOneSample) {
  Simulator sim(1);
  TimeSeriesStore store(8);
  Sampler sampler(sim, store, Time::FromUs(10));
  LineRateReader reader;
  const SeriesKey tx[] = {kTx};
  sampler.AddReader(&reader, tx);
  sampler.Start();
  sim.Run();
  sampler.SampleNow();
  EXPECT_EQ(sim.Now(), Time::Zero());
  EXPECT_EQ(store.points(), 1u);
  EXPECT_EQ(store.values(0)[0], 0.0);
}

// Reading only the instants the store keeps (store of 4 points, 10 µs,
// work at 200 µs), worked by hand from the store's rules: reads at 0, 10,
// 20, 30 (4 points); 40 (halves to 0, 20 | 30 provisional, stride 2; 40
// completes the point); 60 (4 points: 0, 20, 40, 60); 80 (halves to 0, 40
// | 60, stride 4; 80 completes it); 120 (0, 40, 80, 120); 160 (halves to
// 0, 80 | 120, stride 8; 160 completes it); the tick at 240 never runs;
// the final read at 200 is a provisional point. 10 reads where every
// interval would be 21; the counter's kept values are exact.
TEST(Sampler, ReadsOnlyTheInstantsTheStoreKeeps) {
  Simulator sim(1);
  TimeSeriesStore store(4);
  Sampler sampler(sim, store, Time::FromUs(10), /*read_kept_only=*/true);
  LineRateReader reader;
  const SeriesKey tx[] = {kTx};
  sampler.AddReader(&reader, tx);
  Nothing nothing;
  sim.Schedule(Time::FromUs(200), &nothing);
  sampler.Start();
  sim.Run();
  sampler.SampleNow();
  EXPECT_EQ(reader.reads, 10);
  std::vector<int64_t> times_us;
  for (Time t : store.times()) times_us.push_back(t.ps() / 1'000'000);
  EXPECT_EQ(times_us, (std::vector<int64_t>{0, 80, 160, 200}));
  EXPECT_EQ((std::vector<double>{store.values(0).begin(), store.values(0).end()}),
            (std::vector<double>{0, 800'000, 1'600'000, 2'000'000}));
  EXPECT_EQ(store.interval(), Time::FromUs(80));
}

}  // namespace
}  // namespace aifabric
