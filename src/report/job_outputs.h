// The outputs of a job scenario's run (`aifabric run` with `training`,
// `chakra` or `inference` workload entries): each simulation's
// observability files as it finishes (JobFilesWriter), summary.json's
// fields and the printed summary.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "report/output_folder.h"
#include "run/finished_simulation.h"
#include "run/job_runs.h"
#include "scenario/scenario.h"
#include "telemetry/chrome_trace.h"

namespace aifabric {

// What JobFilesWriter wrote besides requests.csv: the observability files
// (of at least one simulation), and among them timeseries.csv (of a
// sampled one).
struct JobFilesWritten {
  bool telemetry = false;
  bool timeseries = false;
};

// Writes the files of each simulation of a job scenario into `out` as it
// finishes (RunHooks::report): the observability files
// (report/telemetry_outputs.h) unless telemetry is off, the first
// simulation's as named and a later one's with its index before the
// extension (trace.1.json); and requests.csv, one line per request in
// arrival order, of the first inference service.
class JobFilesWriter final : public SimulationReport {
 public:
  // `scenario` and `out` outlive the writer.
  JobFilesWriter(const Scenario& scenario, OutputFolder& out) : scenario_(scenario), out_(out) {}
  Status OnJobFinished(const FinishedJob& job) override;
  Status OnServiceFinished(const FinishedService& service) override;
  const JobFilesWritten& written() const { return written_; }

 private:
  Status WriteTelemetry(const FabricSimulation& simulation, const FabricObservation& observation,
                        const nlohmann::ordered_json& summary,
                        std::function<void(ChromeTrace&)> add_to_trace);

  const Scenario& scenario_;
  OutputFolder& out_;
  size_t simulations_ = 0;
  JobFilesWritten written_;
  bool requests_written_ = false;
};

// requests.csv: one line per request, in arrival order.
std::string InferenceRequestsCsv(const InferenceResult& result);

// A latency distribution as summary.json writes it: count, mean, p50,
// p99, max (ms).
nlohmann::ordered_json Latency(const LatencyStats& l);

// summary.json: scenario, model, seed, sim_time_ns, wall_s, events, one
// `training` entry per step run and one `chakra` entry per trace set, each
// with its run's `faults` when the scenario has faults, and `faults` as
// the first job saw them (docs/outputs.md, docs/faults.md).
nlohmann::ordered_json JobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                                   const std::vector<ChakraRunResult>& traces,
                                   const std::vector<InferenceRunResult>& serving);

// The lines `aifabric run` prints for a job run (the faults and what they
// cost from `summary`, JobsSummary's with its fault_cost), the files listed
// as `written` says.
std::string FormatJobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                              const std::vector<ChakraRunResult>& traces,
                              const std::vector<InferenceRunResult>& serving, const nlohmann::ordered_json& summary,
                              const std::string& out_dir, const JobFilesWritten& written);

}  // namespace aifabric
