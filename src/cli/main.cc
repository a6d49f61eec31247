// aifabric's command line: parses arguments with CLI11 and hands each
// subcommand to its function in commands.h. Exit codes: 0 ok, 2 bad input
// (the message names the file, line or field), 1 internal error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "cli/commands.h"

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
  run_cmd->add_option("--model", run.model, "Network model (overrides simulation.model)")
      ->check(CLI::IsMember({"packet"}));
  run_cmd->add_flag("--quiet,-q", run.quiet, "Print nothing but errors");

  ValidateOptions validate;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check a scenario and print the cluster it describes");
  validate_cmd->add_option("scenario", validate.scenario, "Scenario file (YAML or JSON)")->required();
  validate_cmd->add_option("--dot", validate.dot_file, "Write the topology as Graphviz to FILE");
  validate_cmd->add_option("--ibsim", validate.ibsim_file,
                           "Write the topology as an ibsim net file to FILE (for OpenSM and the IB diagnostics)");
  validate_cmd->add_option("--set", validate.overrides, "Override a scenario field: KEY=VALUE (dotted path)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  try {
    if (*run_cmd) return RunCommand(run);
    if (*validate_cmd) return ValidateCommand(validate);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aifabric: internal error: %s\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}
