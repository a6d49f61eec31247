#include "sched/synthetic_trace.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>

#include "core/rng.h"

namespace aifabric {
namespace {

// CAUTION, CALIBRATION STATUS: the tables below are approximations of the
// cited figures, read from the papers' plots as remembered by the author;
// the text of the papers could not be retrieved while writing this file, so
// each figure still needs checking against the PDF (tracked in the report of
// the sched-trace branch). The shapes they encode are the ones all three
// papers state in their text: most jobs take one GPU, few take more than a
// server, and run times span seconds to weeks with a heavy tail.

// Microsoft Philly: Jeon et al., "Analysis of Large-Scale Multi-Tenant GPU
// Clusters for DNN Training Workloads", USENIX ATC'19, Sec. 3 and Fig. 2
// (job run time CDF by GPU count: 1, 2-4, 5-8, >8 GPUs).
constexpr std::array<GpuSizeBucket, 6> kPhillySizes = {{
    {0.70, 1, 1}, {0.15, 2, 4}, {0.09, 8, 8}, {0.035, 16, 16}, {0.015, 32, 32}, {0.01, 64, 256}}};
constexpr std::array<DurationQuantile, 7> kPhillyDurations = {{
    {0.0, 60}, {0.25, 600}, {0.5, 3600}, {0.75, 14400}, {0.9, 129600}, {0.99, 604800}, {1.0, 2592000}}};

// SenseTime Helios: Hu et al., "Characterization and Prediction of Deep
// Learning Workloads in Large-Scale GPU Datacenters", SC'21, Sec. 3.2,
// Fig. 4 (CDFs of GPU demand and of GPU job duration, four clusters).
constexpr std::array<GpuSizeBucket, 6> kHeliosSizes = {{
    {0.55, 1, 1}, {0.20, 2, 4}, {0.15, 8, 8}, {0.05, 16, 16}, {0.03, 32, 32}, {0.02, 64, 256}}};
constexpr std::array<DurationQuantile, 7> kHeliosDurations = {{
    {0.0, 10}, {0.25, 120}, {0.5, 600}, {0.75, 3600}, {0.9, 21600}, {0.99, 172800}, {1.0, 1209600}}};

// Alibaba PAI: Weng et al., "MLaaS in the Wild: Workload Analysis and
// Scheduling in Large-Scale Heterogeneous GPU Clusters", NSDI'22, Sec. 3,
// Figs. 3-4 (task run time and GPU request distributions; fractional-GPU
// requests are counted here as one GPU).
constexpr std::array<GpuSizeBucket, 6> kPaiSizes = {{
    {0.85, 1, 1}, {0.08, 2, 4}, {0.05, 8, 8}, {0.015, 16, 16}, {0.004, 32, 32}, {0.001, 64, 256}}};
constexpr std::array<DurationQuantile, 7> kPaiDurations = {{
    {0.0, 10}, {0.25, 180}, {0.5, 900}, {0.75, 10800}, {0.9, 43200}, {0.99, 259200}, {1.0, 1209600}}};

constexpr std::array<TraceDistribution, 3> kDistributions = {{
    {"philly", "Jeon et al., USENIX ATC'19, Sec. 3, Fig. 2", kPhillySizes, kPhillyDurations},
    {"helios", "Hu et al., SC'21, Sec. 3.2, Fig. 4", kHeliosSizes, kHeliosDurations},
    {"pai", "Weng et al., NSDI'22, Sec. 3, Figs. 3-4", kPaiSizes, kPaiDurations},
}};

// Sub-streams of the seed, one per quantity, so the draws of one do not
// shift another's.
constexpr uint64_t kArrivalStream = 1;
constexpr uint64_t kSizeStream = 2;
constexpr uint64_t kDurationStream = 3;

std::string TraceField(std::string_view name) { return "synthetic_trace." + std::string(name) + ": "; }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A power of two of GPUs drawn from the buckets of `dist`.
int32_t DrawGpus(const TraceDistribution& dist, Rng& rng) {
  double u = rng.Uniform();
  const GpuSizeBucket* bucket = &dist.sizes.back();
  for (const GpuSizeBucket& b : dist.sizes) {
    if (u < b.share) {
      bucket = &b;
      break;
    }
    u -= b.share;
  }
  int powers = 0;  // powers of two in [min_gpus, max_gpus]
  for (int32_t g = bucket->min_gpus; g <= bucket->max_gpus; g *= 2) ++powers;
  assert(powers > 0);
  return bucket->min_gpus << rng.Below(static_cast<uint64_t>(powers));
}

// `gpus` fitted to the cluster: above one server, whole servers; never more
// than the cluster (its whole servers, if it has at least one).
int32_t FitToCluster(int32_t gpus, int32_t cluster_gpus, int32_t gpus_per_server) {
  const int32_t cap = cluster_gpus >= gpus_per_server ? cluster_gpus / gpus_per_server * gpus_per_server
                                                      : cluster_gpus;
  if (gpus > gpus_per_server) {
    const int64_t servers = (static_cast<int64_t>(gpus) + gpus_per_server - 1) / gpus_per_server;
    gpus = static_cast<int32_t>(std::min<int64_t>(servers * gpus_per_server, cap));
  }
  return std::min(gpus, cap);
}

// The model for a job of `gpus` GPUs: the log2 range [0, log2(cap)] is
// split evenly among the models, smallest first.
size_t ModelIndex(int32_t gpus, int32_t cap, size_t models) {
  const double position = std::log2(static_cast<double>(gpus)) / (std::log2(static_cast<double>(cap)) + 1.0);
  return std::min(models - 1, static_cast<size_t>(position * static_cast<double>(models)));
}

Status Validate(const SyntheticTraceOptions& o) {
  if (o.jobs == 0 || o.jobs > kMaxTraceJobs) {
    return Error{TraceField("jobs") + "expected 1.." + std::to_string(kMaxTraceJobs) + ", got " + std::to_string(o.jobs)};
  }
  if (!std::isfinite(o.arrivals_per_hour) || o.arrivals_per_hour <= 0) {
    return Error{TraceField("arrivals_per_hour") + "expected a positive finite number, got " +
                 Number(o.arrivals_per_hour)};
  }
  if (o.cluster_gpus <= 0) {
    return Error{TraceField("cluster_gpus") + "expected a positive integer, got " + std::to_string(o.cluster_gpus)};
  }
  if (o.gpus_per_server <= 0) {
    return Error{TraceField("gpus_per_server") + "expected a positive integer, got " + std::to_string(o.gpus_per_server)};
  }
  if (o.models.empty()) return Error{TraceField("models") + "expected at least one model name"};
  if (!o.seconds_per_iteration) return Error{TraceField("seconds_per_iteration") + "expected a function, got none"};
  return Status::Ok();
}

}  // namespace

Result<TraceDistribution> FindTraceDistribution(std::string_view name) {
  for (const TraceDistribution& d : kDistributions) {
    if (d.name == name) return d;
  }
  return Error{TraceField("source") + "unknown '" + std::string(name) + "'; expected one of: philly, helios, pai"};
}

double DurationAtQuantile(const TraceDistribution& dist, double p) {
  assert(p >= 0 && p <= 1);
  const auto& q = dist.durations;
  size_t i = 1;
  while (i + 1 < q.size() && p > q[i].p) ++i;
  const double f = (p - q[i - 1].p) / (q[i].p - q[i - 1].p);
  return std::exp(std::log(q[i - 1].seconds) + f * (std::log(q[i].seconds) - std::log(q[i - 1].seconds)));
}

Result<std::vector<TraceJob>> GenerateSyntheticTrace(const SyntheticTraceOptions& options) {
  if (Status s = Validate(options); !s.ok()) return s.error();
  Result<TraceDistribution> dist = FindTraceDistribution(options.source);
  if (!dist.ok()) return dist.error();

  const Rng root(options.seed);
  Rng arrivals = root.Fork(kArrivalStream);
  Rng sizes = root.Fork(kSizeStream);
  Rng durations = root.Fork(kDurationStream);
  const double mean_gap_s = 3600.0 / options.arrivals_per_hour;
  const int32_t cap = FitToCluster(options.cluster_gpus, options.cluster_gpus, options.gpus_per_server);

  std::vector<TraceJob> jobs;
  jobs.reserve(options.jobs);
  double now_s = 0;
  for (size_t i = 0; i < options.jobs; ++i) {
    now_s += arrivals.Exponential(mean_gap_s);
    TraceJob job;
    char id[32];
    std::snprintf(id, sizeof id, "job-%06zu", i);
    job.job_id = id;
    job.submit_s = now_s;
    job.gpus = FitToCluster(DrawGpus(*dist, sizes), options.cluster_gpus, options.gpus_per_server);
    job.model = options.models[ModelIndex(job.gpus, cap, options.models.size())];
    job.duration_hint_s = DurationAtQuantile(*dist, durations.Uniform());
    const double step_s = options.seconds_per_iteration(job.model, job.gpus);
    if (!std::isfinite(step_s) || step_s <= 0) {
      return Error{TraceField("seconds_per_iteration") + "for model '" + job.model + "' on " +
                   std::to_string(job.gpus) + " GPUs: expected a positive finite number, got " + Number(step_s)};
    }
    const double iterations = std::round(job.duration_hint_s / step_s);
    if (iterations >= 1e18) {
      return Error{TraceField("seconds_per_iteration") + "for model '" + job.model + "': " + Number(step_s) +
                   " s gives more than 1e18 iterations"};
    }
    job.iterations = std::max<uint64_t>(1, static_cast<uint64_t>(iterations));
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace aifabric
