#include "report/scenario_outputs.h"

#include <memory>

#include "report/faults_json.h"
#include "report/job_outputs.h"
#include "report/output_folder.h"
#include "report/run_outputs.h"
#include "report/run_summary_text.h"
#include "report/tenant_outputs.h"
#include "run/fault_cost.h"
#include "run/job_runs.h"
#include "run/scenario_run.h"

namespace aifabric {
namespace {

bool Cancelled(const RunHooks& hooks) { return hooks.cancel != nullptr && hooks.cancel->load(); }

// A scenario whose workload is jobs: each runs in its own simulation of the
// fabric, and its files are written as soon as it is done.
Result<ScenarioOutputs> RunJobScenario(const Scenario& scenario, const std::string& origin, const std::string& out_dir,
                                       RunHooks hooks) {
  OutputFolder out(out_dir);
  JobFilesWriter writer(scenario, out);
  hooks.report = &writer;
  Result<JobRuns> runs = RunJobs(scenario, hooks);
  if (Cancelled(hooks)) return Error{"cancelled"};
  if (!runs.ok()) return Error{origin + ": " + runs.error().message};
  nlohmann::ordered_json summary = JobsSummary(scenario, runs->training, runs->chakra, runs->inference);
  if (WantsFaultBaseline(scenario)) {
    Result<std::vector<FaultCost>> costs = JobFaultCosts(scenario, *runs, hooks);
    if (Cancelled(hooks)) return Error{"cancelled"};
    if (!costs.ok()) return Error{origin + ": " + costs.error().message};
    summary["fault_cost"] = FaultCostJson(*costs);
  }
  ScenarioOutputs outputs;
  outputs.summary_json = summary.dump(2) + "\n";
  if (Status st = out.Write("summary.json", outputs.summary_json); !st.ok()) return st.error();
  if (Status st = out.Commit(); !st.ok()) return st.error();
  outputs.summary_text = FormatJobsSummary(scenario, runs->training, runs->chakra, runs->inference, summary, out.dir(),
                                           writer.written());
  return outputs;
}

}  // namespace

Result<ScenarioOutputs> RunScenarioOutputs(const Scenario& scenario, const std::string& origin,
                                           const std::string& out_dir, RunHooks hooks, const WarningsHook& warn) {
  if (scenario.shared_fabric) {  // the items as tenants of one fabric: report/tenant_outputs.h
    if (warn) warn(ScenarioWarnings(scenario));
    OutputFolder out(out_dir);
    Result<TenantOutputs> t = WriteTenantOutputs(scenario, origin, out, hooks);
    if (!t.ok()) return t.error();
    return ScenarioOutputs{t->summary_text, t->summary_json};
  }
  if (HasJobs(scenario)) {
    if (warn) warn(ScenarioWarnings(scenario));
    return RunJobScenario(scenario, origin, out_dir, hooks);
  }
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(scenario);
  if (!run.ok()) return Error{origin + ": " + run.error().message};
  if (warn) warn((*run)->warnings());
  (*run)->Execute(hooks);
  if (Cancelled(hooks)) return Error{"cancelled"};
  nlohmann::ordered_json summary = BuildSummary(**run);
  if (WantsFaultBaseline(scenario)) {
    Result<std::vector<FaultCost>> costs = FlowFaultCosts(**run, hooks);
    if (Cancelled(hooks)) return Error{"cancelled"};
    if (!costs.ok()) return Error{origin + ": " + costs.error().message};
    summary["fault_cost"] = FaultCostJson(*costs);
  }
  OutputFolder out(out_dir);
  ScenarioOutputs outputs;
  outputs.summary_json = summary.dump(2) + "\n";
  if (Status st = WriteOutputs(**run, summary, out); !st.ok()) return st.error();
  if (Status st = out.Commit(); !st.ok()) return st.error();
  outputs.summary_text = FormatRunSummary(**run, summary, out.dir());
  return outputs;
}

}  // namespace aifabric
