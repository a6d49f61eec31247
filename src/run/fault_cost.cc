#include "run/fault_cost.h"

#include <memory>

namespace aifabric {
namespace {

Scenario WithoutFaults(const Scenario& scenario) {
  Scenario clean = scenario;
  clean.faults.clear();
  return clean;
}

// The caller's cancel flag and nothing else: no files, no live feed, no
// progress of a run the caller did not ask to watch.
RunHooks BaselineHooks(const RunHooks& hooks) {
  RunHooks quiet;
  quiet.cancel = hooks.cancel;
  return quiet;
}

// A flow set's span in `run`: its first start to its last finish
// (Infinite if a flow did not complete).
Time Span(const ScenarioRun& run, const WorkloadSlice& slice) {
  Time first = Time::Infinite(), last;
  for (size_t i = slice.first; i < slice.first + slice.count; ++i) {
    const FlowSpec& f = run.flows()[i];
    first = Min(first, f.start);
    last = Max(last, run.finish(f.id));
  }
  if (first.IsInfinite() || last.IsInfinite()) return last;
  return last - first;
}

}  // namespace

double FaultCost::slowdown() const {
  if (with_faults.IsInfinite() || without_faults.IsInfinite() || without_faults <= Time::Zero()) return 0;
  return static_cast<double>(with_faults.ps()) / static_cast<double>(without_faults.ps());
}

bool WantsFaultBaseline(const Scenario& scenario) { return !scenario.faults.empty() && scenario.fault_baseline; }

Result<std::vector<FaultCost>> JobFaultCosts(const Scenario& scenario, const JobRuns& faulted, const RunHooks& hooks) {
  std::vector<FaultCost> costs;
  if (faulted.training.empty() && faulted.chakra.empty()) return costs;  // services are not compared
  Scenario clean = WithoutFaults(scenario);
  clean.inferences.clear();
  Result<JobRuns> baseline = RunJobs(clean, BaselineHooks(hooks));
  if (!baseline.ok()) return Error{"the run without faults: " + baseline.error().message};
  for (size_t i = 0; i < faulted.training.size(); ++i) {
    costs.push_back({scenario.trainings[i].path, faulted.training[i].step_time, baseline->training[i].step_time});
  }
  for (size_t i = 0; i < faulted.chakra.size(); ++i) {
    costs.push_back({scenario.chakras[i].path, faulted.chakra[i].run.makespan, baseline->chakra[i].run.makespan});
  }
  return costs;
}

Result<std::vector<FaultCost>> FlowFaultCosts(const ScenarioRun& faulted, const RunHooks& hooks) {
  Result<std::unique_ptr<ScenarioRun>> baseline = ScenarioRun::Prepare(WithoutFaults(faulted.scenario()));
  if (!baseline.ok()) return Error{"the run without faults: " + baseline.error().message};
  (*baseline)->Execute(BaselineHooks(hooks));
  std::vector<FaultCost> costs;
  const std::vector<WorkloadSlice>& slices = faulted.slices();
  for (size_t i = 0; i < slices.size(); ++i) {
    costs.push_back({"workload[" + std::to_string(i) + "] (" + slices[i].kind + ")", Span(faulted, slices[i]),
                     Span(**baseline, (*baseline)->slices()[i])});
  }
  return costs;
}

}  // namespace aifabric
