// What `aifabric collective` prints and writes: nccl-tests' table of the
// sweep (workload/collective_sweep_report.h) under a header naming the
// cluster and the request, with the algorithm and protocol timed for each
// size and the run's cost as comment lines nccl-tests parsers skip; and
// its -J JSON, nccl-tests' with an "aifabric" section. Pure functions but
// for the peak memory the text reports.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "run/collective_run.h"
#include "scenario/scenario.h"

namespace aifabric {

// How the request was written on the command line, for the header.
struct CollectiveLabels {
  std::string op;         // "all_reduce"
  std::string algorithm;  // "auto", "ring", ...
  std::string protocol;   // "auto", "simple", ...
};

std::string FormatCollectiveSweep(const Scenario& scenario, const CollectiveRequest& request,
                                  const CollectiveSweepResult& sweep, const CollectiveLabels& labels);

nlohmann::json CollectiveSweepFileJson(const Scenario& scenario, const CollectiveRequest& request,
                                       const CollectiveSweepResult& sweep, const CollectiveLabels& labels);

}  // namespace aifabric
