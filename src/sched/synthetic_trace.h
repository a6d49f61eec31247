// A synthetic job trace: jobs arriving as a Poisson process, with GPU counts
// and run times drawn from tables calibrated to published characterisations
// of production GPU clusters (Microsoft Philly, SenseTime Helios, Alibaba
// PAI), scaled to a given cluster. Pure functions of their inputs (all
// randomness from an Rng seeded by options.seed); thread-safe.
//
// examples/scheduling/trace.csv was written by this generator: 5,000 jobs,
// source "philly", 60 jobs/hour, a 2,048-GPU cluster of 8-GPU servers,
// seed 1, the built-in models small to large, and the step-time estimate in
// synthetic_trace_test.cc. Regenerate it with
//   ./build/src/sched/aifabric_sched_tests --gtest_also_run_disabled_tests --gtest_filter='*WriteExampleTrace'
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "sched/job_trace.h"

namespace aifabric {

// One class of job sizes: `share` of all jobs ask for a power of two of GPUs
// in [min_gpus, max_gpus], each power equally likely.
struct GpuSizeBucket {
  double share = 0;
  int32_t min_gpus = 1;
  int32_t max_gpus = 1;
};

// A point of the run-time CDF: a fraction `p` of jobs run at most `seconds`.
// Between points the CDF is interpolated linearly in log(seconds).
struct DurationQuantile {
  double p = 0;
  double seconds = 0;
};

// A published workload's size and run-time distributions.
struct TraceDistribution {
  std::string_view name;      // "philly", "helios", "pai"
  std::string_view citation;  // paper and figure the tables come from
  std::span<const GpuSizeBucket> sizes;         // shares sum to 1
  std::span<const DurationQuantile> durations;  // p from 0 to 1, increasing
};

// The distribution called `name` ("philly", "helios" or "pai"); the error
// lists the known names.
Result<TraceDistribution> FindTraceDistribution(std::string_view name);

// The run time of quantile `p` of `dist`. REQUIRES: 0 <= p <= 1.
double DurationAtQuantile(const TraceDistribution& dist, double p);

struct SyntheticTraceOptions {
  size_t jobs = 1000;              // 1..kMaxTraceJobs
  double arrivals_per_hour = 60;   // Poisson arrival rate
  int32_t cluster_gpus = 2048;     // no job asks for more
  int32_t gpus_per_server = 8;     // jobs above one server take whole servers
  uint64_t seed = 1;
  std::vector<std::string> models;  // small to large; bigger jobs get bigger models
  // Estimated seconds per iteration of `model` on `gpus` GPUs; iterations
  // are chosen so that iterations * this ~= the sampled run time.
  std::function<double(const std::string& model, int32_t gpus)> seconds_per_iteration;
  std::string source = "philly";   // or "helios", "pai"
};

// The trace: job ids "job-000000" onward in submit order, priority 0,
// kind training, duration_hint_s = the sampled run time. Errors name the
// bad option ("synthetic_trace.arrivals_per_hour: ...").
Result<std::vector<TraceJob>> GenerateSyntheticTrace(const SyntheticTraceOptions& options);

}  // namespace aifabric
