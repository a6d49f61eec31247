#include "run/training_fit.h"

#include <algorithm>

namespace aifabric {

SearchCluster TrainingSearchCluster(const Scenario& scenario, const Scenario::Training& training) {
  SearchCluster c;
  c.gpus_per_server = scenario.server.gpus_per_server;
  c.gpus = training.gpus > 0 ? training.gpus
                             : std::max(0, scenario.topology.servers - training.storage_reserved()) * c.gpus_per_server;
  c.nvlink_bytes_per_s = static_cast<double>(scenario.server.nvlink_per_dir.bps()) / 8;
  c.nic_bytes_per_s = static_cast<double>(scenario.topology.nic_rate.bps()) * scenario.nics_per_gpu / 8;
  c.hbm_bytes = scenario.gpu.hbm_bytes;
  return c;
}

Result<TrainingFit> FitTraining(const Scenario& scenario, const Scenario::Training& training) {
  TrainingFit fit;
  const SearchCluster cluster = TrainingSearchCluster(scenario, training);
  if (training.auto_parallelism) {
    Result<std::vector<RankedSplit>> ranked =
        SearchParallelism(training.model, training.parallelism, training.training, training.memory, cluster);
    if (!ranked.ok()) return Error{training.path + ": " + ranked.error().message};
    fit.ranked = std::move(ranked).value();
    fit.parallelism = fit.ranked.front().parallelism;
    fit.memory = fit.ranked.front().memory;
    return fit;
  }
  fit.parallelism = training.parallelism;
  Result<TrainingMemory> memory =
      EstimateTrainingMemory(training.model, fit.parallelism, training.training, training.memory, cluster.hbm_bytes);
  if (!memory.ok()) return Error{training.path + ": " + memory.error().message};
  fit.memory = std::move(memory).value();
  return fit;
}

}  // namespace aifabric
