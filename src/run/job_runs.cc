#include "run/job_runs.h"

namespace aifabric {

bool HasJobs(const Scenario& scenario) {
  return !scenario.trainings.empty() || !scenario.chakras.empty() || !scenario.inferences.empty();
}

Result<JobRuns> RunJobs(const Scenario& scenario, const RunHooks& hooks) {
  if (!scenario.workload.empty()) {
    return Error{"workload: jobs (training, chakra, inference) and flows in one run are not supported yet; "
                 "give them in separate scenarios"};
  }
  JobRuns runs;
  for (const Scenario::Training& t : scenario.trainings) {
    Result<TrainingRunResult> r = RunTrainingStep(scenario, t, hooks);
    if (!r.ok()) return r.error();
    runs.training.push_back(std::move(r).value());
  }
  for (const Scenario::ChakraJob& job : scenario.chakras) {
    Result<ChakraRunResult> r = RunChakraJob(scenario, job, hooks);
    if (!r.ok()) return r.error();
    runs.chakra.push_back(std::move(r).value());
  }
  for (const Scenario::Inference& inf : scenario.inferences) {
    Result<InferenceRunResult> r = RunInferenceService(scenario, inf, hooks);
    if (!r.ok()) return r.error();
    runs.inference.push_back(std::move(r).value());
  }
  return runs;
}

}  // namespace aifabric
