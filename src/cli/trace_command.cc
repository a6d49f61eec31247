// `aifabric trace`: writes a synthetic job trace for a cluster scenario
// (run/trace_generation.h), atomically.
#include <cstdio>
#include <sstream>

#include "cli/commands.h"
#include "report/schedule_outputs.h"
#include "run/trace_generation.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

int TraceCommand(const TraceCommandOptions& options) {
  Result<Scenario> cluster = LoadScenarioFile(options.cluster, options.overrides);
  if (!cluster.ok()) return ReportBadInput(cluster.error());
  TraceGenerationOptions o;
  o.jobs = options.jobs;
  o.arrivals_per_hour = options.arrivals_per_hour;
  o.source = options.source;
  o.max_gpus = options.max_gpus;
  o.seed = options.seed;
  if (!options.models.empty()) {
    o.models.clear();
    std::istringstream list(options.models);
    for (std::string name; std::getline(list, name, ',');) o.models.push_back(name);
  }
  Result<std::vector<TraceJob>> trace = GenerateTrace(*cluster, o);
  if (!trace.ok()) return ReportBadInput(Error{options.cluster + ": " + trace.error().message});
  Status written = WriteJobTraceFile(*trace, options.out);
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) std::printf("aifabric trace: %zu jobs (%s, seed %llu) -> %s\n", o.jobs, o.source.c_str(),
                                  static_cast<unsigned long long>(o.seed), options.out.c_str());
  return kExitOk;
}

}  // namespace aifabric
