// aifabric's command line: parses arguments with CLI11 and hands each
// subcommand to its function in commands.h. Exit codes: 0 ok, 2 bad input
// (the message names the file, line or field), 1 internal error.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/nearest_name.h"

namespace {

// --model and --collectives, which `run` and `collective` share.
void AddModelOptions(CLI::App* command, aifabric::ModelOptions& options, const char* model_help) {
  command->add_option("--model", options.model, model_help)->check(CLI::IsMember({"packet", "flow", "analytic"}));
  command
      ->add_option("--collectives", options.collectives,
                   "steps (a transfer per step) or coflow (one fluid each; flow/analytic); overrides "
                   "simulation.collectives")
      ->check(CLI::IsMember({"auto", "steps", "coflow"}));
}

// --max-events and --max-memory, which the commands that simulate share.
void AddCostOptions(CLI::App* command, aifabric::CostOptions& options) {
  command->add_option("--max-events", options.max_events,
                      "Refuse, before running, a scenario estimated to process more events than N over its "
                      "simulations (default 2e10, about an hour at the packet model's 5.4 M events/s; 0: no bound); "
                      "`run` also stops a simulation that passes N while it runs");
  command->add_option("--max-memory", options.max_memory,
                      "Refuse, before running, a scenario estimated to hold more memory than SIZE in one simulation "
                      "(default 16GiB; 0: no bound)");
}

// "unknown <what> '<name>'; did you mean '<nearest>'?", or the list to
// read when nothing is near.
std::string UnknownName(const char* what, const std::string& name, const std::vector<std::string>& known,
                        const std::string& help) {
  const std::string nearest = aifabric::NearestName(name, known);
  std::string message = std::string("unknown ") + what + " '" + name + "'";
  if (!nearest.empty()) return message + "; did you mean '" + nearest + "'?";
  return message + " (see " + help + ")";
}

// Every spelling of a subcommand's options: --long and -s.
std::vector<std::string> OptionNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : command.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace aifabric;
  CLI::App app{"aifabric: simulate the network of a GPU cluster and see how it turns into\n"
               "collective time, training-step time and GPU utilization."};
  app.set_version_flag("--version", std::string("aifabric ") + kVersion);
  app.require_subcommand(1);

  RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and write its outputs");
  run_cmd->add_option("scenario", run.scenario, "Scenario file (YAML or JSON)")->required();
  run_cmd->add_option("--out", run.out_dir, "Output folder (default: out/<scenario name>)");
  run_cmd->add_option("--set", run.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  AddModelOptions(run_cmd, run.model, "Network model (overrides simulation.model)");
  run_cmd->add_flag("--quiet,-q", run.quiet, "Print nothing but errors (no progress either)");
  run_cmd->add_flag("--no-telemetry", run.no_telemetry,
                    "Do not sample counters nor write timeseries.csv, metrics.prom, trace.json, diagnosis.json, report.html");
  run_cmd->add_flag("--no-fault-baseline", run.no_fault_baseline,
                    "With faults, do not run the scenario again without them (no fault_cost in summary.json)");
  run_cmd->add_option("-j,--jobs", run.jobs,
                      "Simulations run at once, one thread each: a shared (multi-tenant) run's alone runs beside it "
                      "(default: the machine's cores); the outputs do not depend on it")
      ->check(CLI::Range(1, 256));
  run_cmd->add_option("--metrics-port", run.metrics_port,
                      "Serve the counters as Prometheus metrics on http://127.0.0.1:PORT/metrics while the run goes (0: any free port, printed)")
      ->check(CLI::Range(0, 65535));
  run_cmd->add_option("--metrics-linger", run.metrics_linger,
                      "With --metrics-port, keep serving the final metrics for DURATION after the outputs are written "
                      "(e.g. 30s, so a Prometheus scraping every 15s sees the end of a short run; default 0s)");
  AddCostOptions(run_cmd, run.cost);

  std::string diagnose_dir;
  CLI::App* diagnose_cmd =
      app.add_subcommand("diagnose", "Print the bottleneck findings of a run (OUTDIR/diagnosis.json), most severe first");
  diagnose_cmd->add_option("outdir", diagnose_dir, "A run's output folder")->required();

  ValidateOptions validate;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check a scenario and print the cluster it describes");
  validate_cmd->add_option("scenario", validate.scenario, "Scenario file (YAML or JSON)")->required();
  validate_cmd->add_option("--dot", validate.dot_file, "Write the topology as Graphviz to FILE");
  validate_cmd->add_option("--ibsim", validate.ibsim_file,
                           "Write the topology as an ibsim net file to FILE (for OpenSM and the IB diagnostics)");
  validate_cmd->add_option("--config", validate.config_dir,
                           "Write the switches' configuration into DIR: SONiC config_db.json or OpenSM files, cabling.csv");
  validate_cmd->add_option("--set", validate.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  AddCostOptions(validate_cmd, validate.cost);

  CalibrateOptions calibrate;
  CLI::App* calibrate_cmd = app.add_subcommand(
      "calibrate", "Fit the collective model to nccl-tests logs of a cluster; write the fitted calibration file");
  calibrate_cmd->add_option("logs", calibrate.logs,
                            "nccl-tests output files or data/validation CSV tables (PATH or OP=PATH, e.g. "
                            "alltoall=run.log)")
      ->required();
  calibrate_cmd->add_option("--cluster", calibrate.cluster, "Scenario of the cluster the logs ran on")->required();
  calibrate_cmd->add_option("--out", calibrate.out_file, "Write the fitted calibration file (data/calibration.yaml format)");
  calibrate_cmd->add_flag("--no-cv", calibrate.no_cross_validation, "Skip the held-out (cross-validation) fits");
  calibrate_cmd->add_option("--max-dag-nodes", calibrate.max_dag_nodes,
                            "Step DAGs past N nodes move chunks k at a time (faster fits of NVLS and the packet "
                            "level; not what `aifabric collective` runs)");
  calibrate_cmd->add_option("--set", calibrate.overrides, "Override a cluster scenario field: KEY=VALUE (dotted path)");
  AddModelOptions(calibrate_cmd, calibrate.model, "Network model the fit runs (default flow: it runs every size many times)");

  CollectiveCommandOptions coll;
  CLI::App* coll_cmd = app.add_subcommand(
      "collective", "nccl-tests style sweep of one collective on a simulated cluster (prints nccl-tests' table)");
  coll_cmd->add_option("scenario", coll.scenario, "Scenario file for the cluster and fabric (default: 2 x 8 H100, 400G rails)");
  coll_cmd->add_option("--op", coll.op, "all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, sendrecv");
  coll_cmd->add_option("-b,--minbytes", coll.min_bytes, "Smallest size (K/M/G suffixes, powers of 1024)");
  coll_cmd->add_option("-e,--maxbytes", coll.max_bytes, "Largest size");
  coll_cmd->add_option("-f,--stepfactor", coll.step_factor, "Multiply the size by this each step")->check(CLI::Range(2, 1 << 20));
  coll_cmd->add_option("-i,--stepbytes", coll.step_bytes, "Add this to the size each step (instead of -f)");
  coll_cmd->add_option("--gpus", coll.gpus, "GPUs taking part, the first N in server order (default: all)")
      ->check(CLI::Range(1, 1 << 24));
  coll_cmd->add_option("--algo", coll.algorithm, "auto (default: the fastest of NCCL's candidates per size), ring, tree, halving_doubling, hierarchical, nvls, pairwise");
  coll_cmd->add_option("--proto", coll.protocol, "auto (default: the fastest per size), simple, ll, ll128");
  coll_cmd->add_option("--channels", coll.channels, "Channels (default: GPUs per server)")->check(CLI::Range(1, 64));
  coll_cmd->add_option("--chunk", coll.chunk_bytes, "Pipeline chunk per channel (default NCCL's: ranks x 2M for rings, else 512K)");
  coll_cmd->add_flag("--no-pxn", coll.no_pxn, "Send cross-rail traffic straight over the fabric, not via NVLink");
  coll_cmd->add_option("-r,--root", coll.root, "Root rank of broadcast and reduce")->check(CLI::Range(0, 1 << 24));
  coll_cmd->add_option("-c,--check", coll.check, "1: print #wrong as 0 (nothing is checked; default N/A)")
      ->check(CLI::Range(0, 1));
  coll_cmd->add_option("-J,--output_file", coll.json_file, "Write the results as nccl-tests JSON to FILE");
  coll_cmd->add_option("--set", coll.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  AddModelOptions(coll_cmd, coll.model, "Network model between servers (overrides simulation.model)");
  AddCostOptions(coll_cmd, coll.cost);

  CompareOptions cmp;
  CLI::App* cmp_cmd = app.add_subcommand("compare", "Run a scenario under several network models and compare");
  cmp_cmd->add_option("scenario", cmp.scenario, "Scenario file (YAML or JSON)")->required();
  cmp_cmd->add_option("--models", cmp.models, "Comma-separated models (default packet,flow,analytic)");
  cmp_cmd->add_option("-J,--json", cmp.json_file, "Write the comparison as JSON to FILE");
  cmp_cmd->add_option("--set", cmp.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  AddCostOptions(cmp_cmd, cmp.cost);

  ScheduleOptions sched;
  CLI::App* sched_cmd = app.add_subcommand(
      "schedule", "Replay a job trace on a cluster under a placement policy, or compare policies (docs/scheduling.md)");
  sched_cmd->add_option("--cluster", sched.cluster, "Cluster scenario file (YAML or JSON), with its scheduling: section")
      ->required();
  sched_cmd->add_option("--trace", sched.trace, "Job trace CSV (job_id,submit_s,gpus,model,iterations,...)")->required();
  sched_cmd->add_option("--policy", sched.policy,
                        "NAME[+crux][+cassini]: a placement policy and communication scheduling (default: scheduling.policy)");
  sched_cmd->add_option("--compare", sched.compare,
                        "SPEC,SPEC,...: replay each on the same trace and print them side by side (instead of --policy)")
      ->excludes("--policy");
  sched_cmd->add_option("--out", sched.out_dir, "Output folder (default: out/<scenario name>-schedule)");
  sched_cmd->add_option("--set", sched.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  sched_cmd->add_option("--packet-window", sched.packet_window,
                        "START,DURATION (e.g. 36000s,2ms): rerun the fabric's flows in that window of the replay at "
                        "packet level, into <out>/packet_window/ (one policy only)")
      ->excludes("--compare");
  sched_cmd->add_flag("--quiet,-q", sched.quiet, "Print nothing but errors");

  TraceCommandOptions trace;
  CLI::App* trace_cmd = app.add_subcommand(
      "trace", "Write a synthetic job trace for a cluster: Philly/Helios/PAI sizes and run times (docs/scheduling.md)");
  trace_cmd->add_option("--cluster", trace.cluster, "Cluster scenario file (YAML or JSON)")->required();
  trace_cmd->add_option("--out", trace.out, "The trace CSV to write")->required();
  trace_cmd->add_option("--jobs", trace.jobs, "Jobs (default 5000)")->check(CLI::Range(size_t{1}, size_t{1'000'000}));
  trace_cmd->add_option("--per-hour", trace.arrivals_per_hour, "Poisson arrivals per hour (default 28)");
  trace_cmd->add_option("--source", trace.source, "Size and run-time tables: philly, helios or pai (default philly)");
  trace_cmd->add_option("--max-gpus", trace.max_gpus, "Largest job in GPUs (default 256, at most the cluster's)");
  trace_cmd->add_option("--seed", trace.seed, "Seed of the draws (default 1)");
  trace_cmd->add_option("--models", trace.models,
                        "Comma-separated catalog models, small to large (default "
                        "llama3-8b,llama3-8b,llama3-8b,llama3-70b,deepseek-v3)");
  trace_cmd->add_option("--set", trace.overrides, "Override a scenario field: KEY=VALUE (dotted path)");
  trace_cmd->add_flag("--quiet,-q", trace.quiet, "Print nothing but errors");

  PlanCommandOptions plan;
  CLI::App* plan_cmd = app.add_subcommand(
      "plan", "Size, price and simulate fabric designs for a cluster and say which to buy (docs/plan.md)");
  plan_cmd->add_option("requirements", plan.requirements, "Requirements file (YAML or JSON)");
  CLI::Option* existing_opt = plan_cmd->add_option(
      "--existing", plan.existing, "The scenario of the cluster one has: judge the --models on it instead");
  plan_cmd->add_option("--models", plan.models, "With --existing: the future models (docs/plan.md)")
      ->needs(existing_opt);
  existing_opt->excludes(plan_cmd->get_option("requirements"));
  plan_cmd->add_option("--out", plan.out_dir, "Output folder (default: out/<plan name>-plan)");
  plan_cmd->add_option("-j,--jobs", plan.jobs, "Designs simulated at once, one thread each (default 1)")
      ->check(CLI::Range(1, 256));
  plan_cmd->add_option("--config", plan.config_dir,
                       "Write the chosen design's switch configuration into DIR (docs/switch_config.md)");
  plan_cmd->add_option("--packet-check", plan.packet_check,
                       "Best designs checked at packet level on a scaled copy, for their error bars "
                       "(default: the file's packet_check.designs, else 3; 0: none)")
      ->check(CLI::Range(0, 64));
  plan_cmd->add_option("--rows", plan.rows, "Designs shown in the terminal table (default 20)");
  plan_cmd->add_flag("--dry-run", plan.dry_run,
                     "List the designs and the rejected ones, check each design's scenario; simulate and write nothing");
  plan_cmd->add_flag("--quiet,-q", plan.quiet, "Print nothing but errors");

  ServeCommandOptions serve;
  CLI::App* serve_cmd = app.add_subcommand(
      "serve", "Serve the REST API: start runs, watch them live, keep them in a store (docs/serve.md)");
  serve_cmd->add_option("--bind", serve.bind, "Address to listen on (default 127.0.0.1: this machine only)");
  serve_cmd->add_option("--port", serve.port, "Port (default 8080; 0: any free port)")->check(CLI::Range(0, 65535));
  serve_cmd->add_option("--store", serve.store_dir, "Folder of the run store: runs.sqlite and runs/<id>/ (default aifabric-store)");
  serve_cmd->add_option("--token", serve.token, "Require Authorization: Bearer TOKEN on every POST and DELETE");
  serve_cmd->add_option("--workers", serve.workers, "Runs at once; the rest wait in a queue (default 2)")
      ->check(CLI::Range(1, 256));
  serve_cmd->add_option("--max-body-bytes", serve.max_body_bytes, "Largest request body (default 4194304; larger: 413)");
  serve_cmd->add_option("--max-hosts", serve.max_hosts, "Most hosts (NICs) a run's fabric may have (default 4096; 0: no limit)");
  serve_cmd->add_option("--max-sim-time", serve.max_sim_time,
                        "Longest simulation.until of a flows run (default 1s; 0s: no limit)");
  serve_cmd->add_option("--max-events", serve.max_events,
                        "Most events one simulation may process; past it the run fails (default 2e9; 0: no limit)");
  serve_cmd->add_option("--max-plan-work", serve.max_plan_work,
                        "Most designs x hosts a plan may evaluate (default 1000000; 0: no limit)");
  serve_cmd->add_option("--attach", serve.attach,
                        "Attach the real fabric FILE describes (Prometheus URL, topology) as a live run; repeatable "
                        "(docs/serve.md, \"Attaching a real fabric\")");
  serve_cmd->add_option("--max-attachments", serve.max_attachments, "Attached fabrics at once (default 2)")
      ->check(CLI::Range(0, 64));
  ObserveCommandOptions observe;
  CLI::App* observe_cmd = app.add_subcommand(
      "observe", "Read a real fabric's port counters from Prometheus and diagnose them as a run is (docs/observability.md)");
  observe_cmd->add_option("--prometheus", observe.prometheus, "Prometheus server, http://HOST:PORT")->required();
  observe_cmd->add_option("--topology", observe.topology, "The fabric's topology file")->required();
  observe_cmd->add_option("--format", observe.format, "Topology file format: hpcc (default), lingjun, ibnetdiscover");
  observe_cmd->add_option("--exporter", observe.exporter,
                          "Whose metric names and labels: aifabric (default; --metrics-port, metrics.prom) or infiniband_exporter");
  observe_cmd->add_option("--interval", observe.interval, "Time between passes (default 5s)");
  observe_cmd->add_option("--window", observe.window, "Counters over the last WINDOW (default 30s)");
  observe_cmd->add_option("--timeout", observe.timeout, "HTTP connect and read timeout (default 10s)");
  observe_cmd->add_option("--out", observe.out_dir, "Output folder (default: out/observe)");
  CLI::Option* once_opt = observe_cmd->add_flag("--once", observe.once, "One pass, then exit");
  observe_cmd->add_option("--count", observe.count, "Passes, then exit (default: until interrupted)")
      ->check(CLI::PositiveNumber)
      ->excludes(once_opt);
  observe_cmd->add_flag("--quiet,-q", observe.quiet, "Print nothing but errors");

  // A mistyped subcommand would read as a stray argument ("A subcommand is
  // required"): name it and the nearest command instead.
  if (argc >= 2 && argv[1][0] != '-') {
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
    if (std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
      return ReportBadInput(Error{UnknownName("command", argv[1], commands, "aifabric --help")});
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An unknown option (of a subcommand, or before any): the nearest of
    // its command's options, rather than CLI11's "not expected".
    if (e.get_exit_code() != 0) {
      std::vector<const CLI::App*> parsed;
      for (const CLI::App* sub : app.get_subcommands()) parsed.push_back(sub);
      parsed.push_back(&app);
      for (const CLI::App* command : parsed) {
        for (const std::string& extra : command->remaining()) {
          if (extra.size() < 2 || extra[0] != '-') continue;
          const std::string help =
              command == &app ? "aifabric --help" : "aifabric " + command->get_name() + " --help";
          return ReportBadInput(
              Error{UnknownName("option", extra.substr(0, extra.find('=')), OptionNames(*command), help)});
        }
      }
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  try {
    if (*run_cmd) return RunCommand(run);
    if (*diagnose_cmd) return DiagnoseCommand(diagnose_dir);
    if (*validate_cmd) return ValidateCommand(validate);
    if (*trace_cmd) return TraceCommand(trace);
    if (*calibrate_cmd) return CalibrateCommand(calibrate);
    if (*coll_cmd) return CollectiveCommand(coll);
    if (*cmp_cmd) return CompareCommand(cmp);
    if (*sched_cmd) return ScheduleCommand(sched);
    if (*plan_cmd) return PlanCommand(plan);
    if (*serve_cmd) return ServeCommand(serve);
    if (*observe_cmd) return ObserveCommand(observe);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aifabric: internal error: %s\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}
