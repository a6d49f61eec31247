// What a scenario's faults cost each job or flow set: the scenario runs a
// second time with its `faults` removed (simulation.fault_baseline, on by
// default; `aifabric run --no-fault-baseline` turns it off), and each
// training step, Chakra job and flow set is timed in both runs. The
// baseline run writes no files and reports no progress; it hears only the
// caller's cancel flag. Results as data (report/faults_json.h writes them).
// Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "run/job_runs.h"
#include "run/run_hooks.h"
#include "run/scenario_run.h"
#include "scenario/scenario.h"

namespace aifabric {

struct FaultCost {
  std::string entry;    // "workload.0.training", "workload[1] (permutation)"
  // A step's or job's makespan; a flow set's span (its first start to its
  // last finish). Infinite: it did not complete.
  Time with_faults;
  Time without_faults;
  // with / without; 0 when either did not complete.
  double slowdown() const;
};

// Whether the scenario asks for the baseline run: it has faults and
// simulation.fault_baseline is on.
bool WantsFaultBaseline(const Scenario& scenario);

// The training and Chakra entries of `faulted` (RunJobs of `scenario`)
// against the same entries run without faults (inference services are
// neither run again nor compared).
Result<std::vector<FaultCost>> JobFaultCosts(const Scenario& scenario, const JobRuns& faulted, const RunHooks& hooks);

// Each workload entry (flow set) of `faulted`, which has run, against the
// same flows run without faults.
Result<std::vector<FaultCost>> FlowFaultCosts(const ScenarioRun& faulted, const RunHooks& hooks);

}  // namespace aifabric
