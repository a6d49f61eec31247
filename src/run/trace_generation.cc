#include "run/trace_generation.h"

#include <algorithm>

#include "run/fabric_setup.h"
#include "sched/job_profile.h"
#include "sched/synthetic_trace.h"
#include "workload/model_catalog.h"

namespace aifabric {

Result<std::vector<TraceJob>> GenerateTrace(const Scenario& cluster, const TraceGenerationOptions& options) {
  Result<BuiltFabric> fabric = BuildFabric(cluster);
  if (!fabric.ok()) return fabric.error();
  const ClusterLayout& layout = fabric->layout;
  const int gpus_per_server = layout.gpus_per_server();
  const int cluster_gpus = (layout.servers() - cluster.scheduling.storage_servers) * gpus_per_server;
  if (options.max_gpus < 1) return Error{"--max-gpus: expected at least 1, got " + std::to_string(options.max_gpus)};
  if (options.models.empty()) return Error{"--models: expected at least one model name"};
  std::vector<ModelSpec> models;
  for (const std::string& name : options.models) {
    Result<ModelSpec> m = FindModel(name);
    if (!m.ok()) return Error{"--models: " + m.error().message};
    models.push_back(std::move(*m));
  }
  const JobModelOptions job_model = cluster.scheduling.jobs;
  const double nic_bytes_per_s = static_cast<double>(FastestNicRate(fabric->topology, layout).bps()) / 8;
  SyntheticTraceOptions o;
  o.jobs = options.jobs;
  o.arrivals_per_hour = options.arrivals_per_hour;
  if (cluster_gpus < 1) return Error{"the cluster has no schedulable GPU (scheduling.storage_servers)"};
  o.cluster_gpus = std::min(options.max_gpus, cluster_gpus);
  o.gpus_per_server = gpus_per_server;
  o.seed = options.seed;
  o.source = options.source;
  o.models = options.models;
  o.seconds_per_iteration = [&](const std::string& name, int32_t gpus) {
    const ModelSpec& m = *std::find_if(models.begin(), models.end(), [&](const ModelSpec& x) { return x.name == name; });
    return IterationSecondsAt(ProfileJob(m, true, gpus, gpus_per_server, job_model), job_model, nic_bytes_per_s);
  };
  return GenerateSyntheticTrace(o);
}

}  // namespace aifabric
