// The subcommands of the aifabric CLI, one function each, returning the
// process exit code. They use the scenario, run and report layers only.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/result.h"
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

struct RunOptions {
  std::string scenario;
  std::string out_dir;                 // "" -> out/<scenario name>
  std::vector<std::string> overrides;  // --set KEY=VALUE
  ModelOptions model;                  // --model, --collectives
  bool quiet = false;
  bool no_telemetry = false;           // --no-telemetry: simulation.telemetry.enabled=false
  int metrics_port = -1;               // --metrics-port: serve metrics on 127.0.0.1:PORT while running (0: any; -1: off)
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
};
int ValidateCommand(const ValidateOptions& options);

// `aifabric collective`: nccl-tests' flags where they exist (-b -e -f -i -c
// -J), sizes with its K/M/G suffixes.
struct CollectiveCommandOptions {
  std::string scenario;                // "" -> the built-in two-server H100 cluster
  std::string op = "all_reduce";
  std::string min_bytes = "32M";       // -b (nccl-tests' default)
  std::string max_bytes = "32M";       // -e
  uint64_t step_factor = 2;            // -f
  std::string step_bytes;              // -i (used when given)
  int gpus = 0;                        // 0 = every GPU of the cluster
  std::string algorithm = "auto";     // the fastest of NCCL's candidates per size
  std::string protocol = "auto";
  int channels = 0;
  std::string chunk_bytes;             // "" -> NCCL's (NcclChunkBytes)
  bool no_pxn = false;
  int root = 0;
  int check = 0;                       // -c: print #wrong as 0 instead of N/A
  std::string json_file;               // -J
  std::vector<std::string> overrides;  // --set
  ModelOptions model;                  // --model, --collectives
};
int CollectiveCommand(const CollectiveCommandOptions& options);

// `aifabric compare SCENARIO --models packet,flow,analytic [-J FILE]`.
struct CompareOptions {
  std::string scenario;
  std::string models = "packet,flow,analytic";
  std::string json_file;
  std::vector<std::string> overrides;
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
  bool dry_run = false;      // --dry-run: list the designs, check their scenarios, simulate nothing
  bool quiet = false;
};
int PlanCommand(const PlanCommandOptions& options);

}  // namespace aifabric
