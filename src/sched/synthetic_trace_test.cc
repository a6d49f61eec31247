#include "sched/synthetic_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "workload/model_catalog.h"
#include "test_paths.h"

namespace aifabric {
namespace {

constexpr size_t kSample = 100'000;

SyntheticTraceOptions Options(std::string source, size_t jobs) {
  SyntheticTraceOptions o;
  o.jobs = jobs;
  o.source = std::move(source);
  o.models = {"small", "medium", "large", "huge"};
  // A made-up step time: 1 s, halved per doubling of GPUs.
  o.seconds_per_iteration = [](const std::string&, int32_t gpus) { return 1.0 / gpus; };
  return o;
}

// The bucket of the table holding a (power-of-two) job size.
size_t BucketOf(const TraceDistribution& d, int32_t gpus) {
  for (size_t b = 0; b < d.sizes.size(); ++b) {
    if (gpus >= d.sizes[b].min_gpus && gpus <= d.sizes[b].max_gpus) return b;
  }
  ADD_FAILURE() << gpus << " GPUs is in no bucket";
  return 0;
}

TEST(SyntheticTraceTest, SameSeedSameTraceOtherSeedOtherTrace) {
  SyntheticTraceOptions o = Options("philly", 500);
  Result<std::vector<TraceJob>> a = GenerateSyntheticTrace(o);
  Result<std::vector<TraceJob>> b = GenerateSyntheticTrace(o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  o.seed = 2;
  Result<std::vector<TraceJob>> c = GenerateSyntheticTrace(o);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(*a, *c);
}

// With a 2,048-GPU cluster of 8-GPU servers no drawn size (1..256, powers
// of two) is changed by fitting, so each bucket's count is
// Binomial(n, share): its standard deviation is sqrt(n p (1-p)), and a
// correct generator lands outside 5 of them with probability < 6e-7 per
// bucket.
TEST(SyntheticTraceTest, GpuSizeSharesMatchTheTables) {
  for (const char* source : {"philly", "helios", "pai"}) {
    SCOPED_TRACE(source);
    const TraceDistribution d = FindTraceDistribution(source).value();
    double total = 0;
    for (const GpuSizeBucket& b : d.sizes) total += b.share;
    EXPECT_NEAR(total, 1.0, 1e-12);
    Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(Options(source, kSample));
    ASSERT_TRUE(jobs.ok()) << jobs.error().message;
    std::vector<double> count(d.sizes.size(), 0);
    for (const TraceJob& j : *jobs) count[BucketOf(d, j.gpus)] += 1;
    for (size_t b = 0; b < d.sizes.size(); ++b) {
      const double p = d.sizes[b].share;
      const double sigma = std::sqrt(p * (1 - p) / kSample);
      EXPECT_NEAR(count[b] / kSample, p, 5 * sigma) << "bucket " << b;
    }
  }
}

// The number of sampled durations below Q(p) is Binomial(n, p), standard
// deviation <= 0.5 sqrt(n). The sample median is below Q(0.5 - delta) only
// if at least n/2 samples are, i.e. that count exceeds its mean by
// n delta; with delta = 2.5 / sqrt(n) that is 5 standard deviations. Same
// for the 90th percentile with sqrt(0.9 * 0.1) = 0.3: delta = 1.5 / sqrt(n).
TEST(SyntheticTraceTest, DurationMedianAndTailMatchTheTables) {
  for (const char* source : {"philly", "helios", "pai"}) {
    SCOPED_TRACE(source);
    const TraceDistribution d = FindTraceDistribution(source).value();
    Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(Options(source, kSample));
    ASSERT_TRUE(jobs.ok());
    std::vector<double> s;
    for (const TraceJob& j : *jobs) s.push_back(j.duration_hint_s);
    std::sort(s.begin(), s.end());
    const double n = static_cast<double>(kSample);
    const double median = s[kSample / 2];
    EXPECT_GE(median, DurationAtQuantile(d, 0.5 - 2.5 / std::sqrt(n)));
    EXPECT_LE(median, DurationAtQuantile(d, 0.5 + 2.5 / std::sqrt(n)));
    const double p90 = s[kSample * 9 / 10];
    EXPECT_GE(p90, DurationAtQuantile(d, 0.9 - 1.5 / std::sqrt(n)));
    EXPECT_LE(p90, DurationAtQuantile(d, 0.9 + 1.5 / std::sqrt(n)));
  }
}

// The table's own points come back exactly (log-linear interpolation passes
// through them); halfway in p between two points is their geometric mean.
TEST(SyntheticTraceTest, DurationQuantilesInterpolateLogLinearly) {
  const TraceDistribution d = FindTraceDistribution("philly").value();
  for (const DurationQuantile& q : d.durations) EXPECT_NEAR(DurationAtQuantile(d, q.p), q.seconds, 1e-9 * q.seconds);
  const DurationQuantile& a = d.durations[1];
  const DurationQuantile& b = d.durations[2];
  EXPECT_NEAR(DurationAtQuantile(d, (a.p + b.p) / 2), std::sqrt(a.seconds * b.seconds), 1e-9 * b.seconds);
}

// Gaps of a Poisson process are exponential with mean 3600 / rate s and
// standard deviation equal to the mean, so the mean of n gaps (the last
// submit time over n) is within 5 mean / sqrt(n) of it.
TEST(SyntheticTraceTest, ArrivalsArePoissonAtTheRate) {
  SyntheticTraceOptions o = Options("helios", kSample);
  o.arrivals_per_hour = 90;
  Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(o);
  ASSERT_TRUE(jobs.ok());
  const double mean_gap = 3600.0 / 90;
  EXPECT_NEAR(jobs->back().submit_s / kSample, mean_gap, 5 * mean_gap / std::sqrt(double(kSample)));
  EXPECT_TRUE(std::is_sorted(jobs->begin(), jobs->end(),
                             [](const TraceJob& x, const TraceJob& y) { return x.submit_s < y.submit_s; }));
}

// A 100-GPU cluster of 6-GPU servers has 16 whole servers = 96 GPUs: the
// 64..256 bucket becomes 66 (11 servers) or 96, 16 and 32 become 18 and 36.
TEST(SyntheticTraceTest, SizesFitTheClusterInWholeServers) {
  SyntheticTraceOptions o = Options("helios", 20'000);
  o.cluster_gpus = 100;
  o.gpus_per_server = 6;
  Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(o);
  ASSERT_TRUE(jobs.ok());
  int32_t largest = 0;
  for (const TraceJob& j : *jobs) {
    ASSERT_LE(j.gpus, 96);
    if (j.gpus > 6) {
      ASSERT_EQ(j.gpus % 6, 0) << j.gpus;
    }
    largest = std::max(largest, j.gpus);
  }
  EXPECT_EQ(largest, 96);  // 2% of jobs are 64+ and 128, 256 both cap at 96
}

// Bigger jobs never get a smaller model; iterations * step time is the
// sampled duration to within half a step (rounding), at least one step.
TEST(SyntheticTraceTest, ModelsGrowWithSizeAndIterationsMatchDuration) {
  SyntheticTraceOptions o = Options("philly", 5'000);
  Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(o);
  ASSERT_TRUE(jobs.ok());
  auto rank = [&](const std::string& m) { return std::find(o.models.begin(), o.models.end(), m) - o.models.begin(); };
  std::vector<TraceJob> by_size = *jobs;
  std::stable_sort(by_size.begin(), by_size.end(), [](const TraceJob& a, const TraceJob& b) { return a.gpus < b.gpus; });
  for (size_t i = 1; i < by_size.size(); ++i) ASSERT_LE(rank(by_size[i - 1].model), rank(by_size[i].model));
  EXPECT_EQ(by_size.front().model, "small");  // 1 GPU
  for (const TraceJob& j : *jobs) {
    const double step = 1.0 / j.gpus;
    ASSERT_GE(j.iterations, 1u);
    if (j.duration_hint_s >= step) {
      ASSERT_NEAR(double(j.iterations) * step, j.duration_hint_s, step / 2 + 1e-9);
    }
  }
}

TEST(SyntheticTraceTest, CsvRoundTrip) {
  Result<std::vector<TraceJob>> jobs = GenerateSyntheticTrace(Options("pai", 2'000));
  ASSERT_TRUE(jobs.ok());
  const std::vector<std::string> models = {"small", "medium", "large", "huge"};
  Result<std::vector<TraceJob>> back = ParseJobTrace(WriteJobTrace(*jobs), "generated", models);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, *jobs);
}

TEST(SyntheticTraceTest, BadOptionsNameTheField) {
  SyntheticTraceOptions o = Options("philly", 10);
  o.arrivals_per_hour = 0;
  EXPECT_EQ(GenerateSyntheticTrace(o).error().message,
            "synthetic_trace.arrivals_per_hour: expected a positive finite number, got 0");
  o = Options("alibaba", 10);
  EXPECT_EQ(GenerateSyntheticTrace(o).error().message,
            "synthetic_trace.source: unknown 'alibaba'; expected one of: philly, helios, pai");
  o = Options("philly", 0);
  EXPECT_EQ(GenerateSyntheticTrace(o).error().message, "synthetic_trace.jobs: expected 1..1000000, got 0");
  o = Options("philly", 10);
  o.models.clear();
  EXPECT_EQ(GenerateSyntheticTrace(o).error().message, "synthetic_trace.models: expected at least one model name");
  o = Options("philly", 10);
  o.seconds_per_iteration = [](const std::string&, int32_t) { return -1.0; };
  EXPECT_EQ(GenerateSyntheticTrace(o).error().message.rfind("synthetic_trace.seconds_per_iteration: for model", 0),
            0u);
}


}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

// The committed example is what the benchmark needs: 5,000 jobs of
// built-in models, none larger than the 2,048-GPU cluster.
TEST(SyntheticTraceTest, ExampleTraceReadsWithTheBuiltInModels) {
  std::vector<std::string> names;
  for (const ModelSpec& m : BuiltInModels()) names.push_back(m.name);
  Result<std::vector<TraceJob>> jobs =
      ReadJobTrace(std::string(AIFABRIC_SOURCE_DIR) + "/examples/scheduling/trace.csv", names);
  ASSERT_TRUE(jobs.ok()) << jobs.error().message;
  EXPECT_EQ(jobs->size(), 5000u);
  for (const TraceJob& j : *jobs) ASSERT_LE(j.gpus, 2048);
}

}  // namespace
}  // namespace aifabric
