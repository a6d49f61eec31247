// ObserveTask is an attached real fabric as a run of the server (kind
// "observe"): every AttachSpec::interval it reads the fabric's counters
// from Prometheus (observe/observe_prometheus.h), diagnoses them as a run
// is and writes diagnosis.json and observation.json into the run's folder
// (observe/observe_outputs.h), and publishes each pass on the run's live
// feed as a simulated run's events: `progress` {"progress": 0, "pass",
// "series"} (or {"pass", "error"} for a pass that failed: the loop goes
// on), a `snapshot` (observe/observed_snapshot.h) and each `finding` of
// the pass. The run's folder also holds topology.json (the attached
// topology, for GET /api/runs/{id}/topology), input/attach.yaml (the
// document as received) and, when the attachment names a what-if
// template, input/whatif_template.json (server/whatif_request.h). It
// runs until cancelled (RunsUntilStopped) and returns its summary:
// {"name", "prometheus", "exporter", "passes", "failed_passes",
// "last_error", "top_finding"}. Execute runs once, on one thread.
#pragma once

#include <string>

#include "server/attach_request.h"
#include "server/run_request.h"

namespace aifabric {

class ObserveTask final : public RunTask {
 public:
  ObserveTask(AttachSpec spec, std::string text) : spec_(std::move(spec)), text_(std::move(text)) {}
  Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& feed) override;
  bool RunsUntilStopped() const override { return true; }

 private:
  const AttachSpec spec_;
  const std::string text_;  // the attach document as received
};

}  // namespace aifabric
