// The subcommands of the aifabric CLI, one function each, returning the
// process exit code. They use the scenario, run and report layers only.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/result.h"
#include "report/collective_request.h"
#include "run/run_cost.h"
#include "scenario/scenario_warnings.h"

namespace aifabric {

inline constexpr const char* kVersion = "0.1.0";
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

// Prints "aifabric: error: <message>" on stderr; returns kExitBadInput.
inline int ReportBadInput(const Error& error) {
  std::fprintf(stderr, "aifabric: error: %s\n", error.message.c_str());
  return kExitBadInput;
}

// Prints each warning on stderr as "aifabric: <warning>".
inline void PrintWarnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) std::fprintf(stderr, "aifabric: %s\n", w.c_str());
}

// Prints each trap the scenario walks into on stderr as
// "aifabric: warning: <field>: <what goes wrong and what to change>".
inline void PrintScenarioWarnings(const std::vector<ScenarioWarning>& warnings) {
  for (const ScenarioWarning& w : warnings) std::fprintf(stderr, "aifabric: warning: %s\n", w.text().c_str());
}

// --model and --collectives: "" keeps the scenario's simulation.model and
// simulation.collectives.
struct ModelOptions {
  std::string model;
  std::string collectives;
  // Appends the --set overrides they stand for.
  void AppendOverrides(std::vector<std::string>& overrides) const {
    if (!model.empty()) overrides.push_back("simulation.model=" + model);
    if (!collectives.empty()) overrides.push_back("simulation.collectives=" + collectives);
  }
};

// --max-events and --max-memory: the bounds a command's estimated cost is
// held to before it simulates anything (run/run_cost.h); 0 is no bound.
struct CostOptions {
  std::string max_events = "2e10";   // events over the run's simulations
  std::string max_memory = "16GiB";  // held by its largest simulation
  // The bounds; an Error names the option.
  Result<CostBounds> Bounds() const;
  // Refuses (exit 2, the message naming `origin`, the estimate, the bound
  // and the option that raises it) a cost over the bounds: kExitOk if
  // within them. An estimate that failed passes: the run reports the
  // same error where it always has.
  int Check(const Result<RunCost>& cost, const std::string& origin) const;
};

struct RunOptions {
  std::string scenario;
  std::string out_dir;                 // "" -> out/<scenario name>
  std::vector<std::string> overrides;  // --set KEY=VALUE
  ModelOptions model;                  // --model, --collectives
  bool quiet = false;
  bool no_telemetry = false;           // --no-telemetry: simulation.telemetry.enabled=false
  bool no_fault_baseline = false;      // --no-fault-baseline: simulation.fault_baseline=false
  int metrics_port = -1;               // --metrics-port: serve metrics on 127.0.0.1:PORT while running (0: any; -1: off)
  std::string metrics_linger = "0s";   // --metrics-linger: keep serving the final metrics this long after the run
  int jobs = 0;                        // -j: simulations at once (0: the machine's cores)
  CostOptions cost;                    // --max-events, --max-memory
};
int RunCommand(const RunOptions& options);

// `aifabric diagnose OUTDIR`: prints OUTDIR/diagnosis.json as a table.
int DiagnoseCommand(const std::string& out_dir);

struct ValidateOptions {
  std::string scenario;
  std::string dot_file;    // --dot: Graphviz
  std::string ibsim_file;  // --ibsim: ibsim net file (docs/infiniband.md)
  std::string config_dir;  // --config: the switches' configuration (docs/switch_config.md)
  std::vector<std::string> overrides;
  CostOptions cost;        // --max-events, --max-memory: as `aifabric run` would hold it
};
int ValidateCommand(const ValidateOptions& options);

// `aifabric collective`: nccl-tests' flags where they exist (-b -e -f -i -c
// -J; report/collective_request.h), sizes with its K/M/G suffixes.
struct CollectiveCommandOptions : CollectiveFlags {
  std::string scenario;                // "" -> the built-in two-server H100 cluster
  std::string json_file;               // -J
  std::vector<std::string> overrides;  // --set
  ModelOptions model;                  // --model, --collectives
  CostOptions cost;                    // --max-events, --max-memory
};
int CollectiveCommand(const CollectiveCommandOptions& options);

// `aifabric calibrate LOG... --cluster SCENARIO [--out FILE]`: fits the
// collective model's figures to nccl-tests logs (docs/validation.md).
struct CalibrateOptions {
  std::vector<std::string> logs;       // PATH or OP=PATH
  std::string cluster;                 // the scenario the logs ran on
  std::string out_file;                // "" -> print only
  bool no_cross_validation = false;
  uint64_t max_dag_nodes = 0;          // --max-dag-nodes; 0 = as `aifabric collective`
  std::vector<std::string> overrides;  // --set
  ModelOptions model;                  // --model (default flow), --collectives
};
int CalibrateCommand(const CalibrateOptions& options);

// `aifabric compare SCENARIO --models packet,flow,analytic [-J FILE]`.
struct CompareOptions {
  std::string scenario;
  std::string models = "packet,flow,analytic";
  std::string json_file;
  std::vector<std::string> overrides;
  CostOptions cost;                    // --max-events, --max-memory: each model's run
};
int CompareCommand(const CompareOptions& options);

// `aifabric schedule --cluster SCENARIO --trace JOBS.csv [--policy SPEC |
// --compare SPEC,SPEC,...]`: replays a job trace (docs/scheduling.md).
struct ScheduleOptions {
  std::string cluster;                 // the cluster scenario
  std::string trace;                   // the job trace CSV
  std::string policy;                  // "" -> the scenario's scheduling.policy
  std::string compare;                 // "" -> one replay of `policy`
  std::string out_dir;                 // "" -> out/<scenario name>-schedule
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string packet_window;           // "START,DURATION" -> the window at packet level; "" -> none
  bool quiet = false;
};
int ScheduleCommand(const ScheduleOptions& options);

// `aifabric trace`: a synthetic job trace for a cluster (docs/scheduling.md).
struct TraceCommandOptions {
  std::string cluster;                 // the cluster scenario
  std::string out;                     // the CSV to write
  size_t jobs = 5000;
  double arrivals_per_hour = 28;
  std::string source = "philly";
  int max_gpus = 256;
  uint64_t seed = 1;
  std::string models;                  // "" -> the default list
  std::vector<std::string> overrides;  // --set KEY=VALUE
  bool quiet = false;
};
int TraceCommand(const TraceCommandOptions& options);

// `aifabric plan REQUIREMENTS [--out DIR] [-j N]`: sweeps, prices and
// simulates fabric designs and says which to buy; `aifabric plan --existing
// SCENARIO --models FILE`: the next models on the network one has, and the
// cheapest upgrade (docs/plan.md).
struct PlanCommandOptions {
  std::string requirements;  // the requirements file ("" with --existing)
  std::string existing;      // --existing: the scenario of the cluster one has
  std::string models;        // --models: the future models to judge on it
  std::string out_dir;       // "" -> out/<plan name>-plan
  std::string config_dir;    // --config: the chosen design's switch configuration ("" -> none)
  int jobs = 1;              // -j: designs simulated at once (threads)
  size_t rows = 20;          // --rows: designs shown on the terminal
  int packet_check = -1;     // --packet-check N: designs checked at packet level (-1: the file's packet_check.designs)
  bool dry_run = false;      // --dry-run: list the designs, check their scenarios, simulate nothing
  bool quiet = false;
};
int PlanCommand(const PlanCommandOptions& options);

// `aifabric serve`: the REST API, run store and live feed (docs/serve.md).
struct ServeCommandOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;
  std::string store_dir = "aifabric-store";
  std::string token;                   // "" -> no token needed
  int workers = 2;
  size_t max_body_bytes = 4 << 20;
  int64_t max_hosts = 4096;            // 0: no limit
  std::string max_sim_time = "1s";     // of a flows run's simulation.until; "0s": no limit
  uint64_t max_events = 2'000'000'000; // per simulation; 0: no limit
  uint64_t max_plan_work = 1'000'000;  // designs x hosts of a plan; 0: no limit
  int max_attachments = 2;             // attached fabrics at once
  std::vector<std::string> attach;     // --attach FILE: fabrics to attach at start
};
int ServeCommand(const ServeCommandOptions& options);

// `aifabric observe --prometheus URL --topology FILE`: a real fabric's
// counters from Prometheus, diagnosed as a run is (docs/observability.md,
// "Observing a real fabric").
struct ObserveCommandOptions {
  std::string prometheus;              // http://host:port of the Prometheus server
  std::string topology;                // the fabric's topology file
  std::string format = "hpcc";         // hpcc | lingjun | ibnetdiscover
  std::string exporter = "aifabric";   // whose metric names (observe/exporter_schema.h)
  std::string interval = "5s";         // between passes
  std::string window = "30s";          // counters over the last window
  std::string timeout = "10s";         // per HTTP connect and read
  std::string out_dir = "out/observe"; // diagnosis.json and observation.json, each pass
  bool once = false;                   // one pass (= --count 1)
  int count = 0;                       // passes; 0 = until interrupted
  bool quiet = false;
};
int ObserveCommand(const ObserveCommandOptions& options);

}  // namespace aifabric
