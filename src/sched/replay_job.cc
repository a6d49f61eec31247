#include "sched/replay_job.h"

#include <algorithm>

namespace aifabric {

void ReplayJob::ProfileBeforePlacement(const ModelSpec& model, int gpus_per_server, const JobModelOptions& options,
                                       double nic_bytes_per_s) {
  const TraceJob& t = *trace;
  training = t.kind == TraceJobKind::kTraining;
  profile = ProfileJob(model, training, t.gpus, gpus_per_server, options);
  // Estimate: every byte at NIC speed, no contention.
  const JobProfile& p = profile;
  double per_iteration = LocalIterationSeconds(options);
  double fabric_bytes = 0;
  if (t.gpus > gpus_per_server && nic_bytes_per_s > 0) {
    fabric_bytes = RingAllReduceBytes(p) + static_cast<double>(p.pipeline_bytes + p.alltoall_bytes);
    per_iteration = IterationSecondsAt(p, options, nic_bytes_per_s);
  }
  estimate_s = per_iteration * static_cast<double>(t.iterations);
  fabric_bytes_per_s_per_gpu = per_iteration > 0 ? fabric_bytes / per_iteration : 0.0;
}

double ReplayJob::LocalIterationSeconds(const JobModelOptions& options) const {
  return IterationSecondsAt(profile, options, options.nvlink_gbps_per_dir * 1e9);
}

void ReplayJob::Fold(int max_macros) {
  const uint64_t iterations = trace->iterations;
  macros = std::min<uint64_t>(iterations, static_cast<uint64_t>(max_macros));
  fold = iterations / macros;
  fold_extra = iterations % macros;
}

void ReplayJob::AddExpectedLoad(ReplayFabric& fabric, int sign) const {
  fabric.AddExpectedLoad(gradient, gradient_ref_per_s, sign);
  fabric.AddExpectedLoad(alltoall, alltoall_ref_per_s, sign);
}

ReplayJobResult ReplayJob::Result() const {
  ReplayJobResult r;
  const TraceJob& t = *trace;
  r.job_id = t.job_id;
  r.model = t.model;
  r.kind = t.kind;
  r.gpus = t.gpus;
  r.iterations = t.iterations;
  r.submit_s = Time::FromSeconds(t.submit_s).seconds();  // as the engine keeps it (whole ps)
  r.start_s = start.seconds();
  r.end_s = end.seconds();
  r.parallelism = profile.parallelism;
  r.servers = servers;
  r.tiers = tiers;
  r.compute_s = profile.compute_s * static_cast<double>(t.iterations);
  r.comm_s = comm_s;
  r.comm_idle_s = comm_idle_s;
  r.run_idle_s = run_idle_s;
  r.gpu_ids = gpus;
  return r;
}

}  // namespace aifabric
