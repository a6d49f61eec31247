#include "report/training_memory_text.h"

#include <fmt/format.h>

namespace aifabric {

std::string MemoryWarning(const Scenario& scenario, const Scenario::Training& training, const TrainingMemory& memory) {
  if (memory.fits()) return "";
  const StageMemory& w = memory.worst();
  return fmt::format("warning: {}: {} needs {} GiB per GPU on stage {} ({}), more than the {}'s {} GiB ({:g} GB)",
                     training.path, training.model.name, GiB(w.total_bytes()), w.stage, StageMemoryBreakdown(w),
                     scenario.gpu.name, GiB(memory.hbm_bytes), static_cast<double>(memory.hbm_bytes) / 1e9);
}

Result<std::vector<std::string>> TrainingMemoryWarnings(const Scenario& scenario) {
  std::vector<std::string> warnings;
  for (const Scenario::Training& t : scenario.trainings) {
    Result<TrainingFit> fit = FitTraining(scenario, t);
    if (!fit.ok()) {
      if (t.auto_parallelism) return fit.error();
      continue;
    }
    std::string w = MemoryWarning(scenario, t, fit->memory);
    if (!w.empty()) warnings.push_back(std::move(w));
  }
  return warnings;
}

nlohmann::ordered_json MemoryJson(const TrainingMemory& memory) {
  const StageMemory& w = memory.worst();
  return {{"weights_bytes", w.weights_bytes},
          {"gradients_bytes", w.gradients_bytes},
          {"optimizer_bytes", w.optimizer_bytes},
          {"activations_bytes", w.activations_bytes},
          {"total_bytes", w.total_bytes()},
          {"hbm_bytes", memory.hbm_bytes},
          {"fits", memory.fits()},
          {"stage", w.stage}};
}

}  // namespace aifabric
