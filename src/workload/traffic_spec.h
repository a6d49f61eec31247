// TrafficSpec describes one entry of a scenario's `workload` list that makes
// plain network flows: an explicit list, an HPCC flow.txt file, a
// permutation, an incast, an all-to-all, or Poisson arrivals with sizes from
// a CDF file. Plain structs with defaults, filled by the scenario loader.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"

namespace aifabric {

// One flow to start: what every generator produces.
struct FlowSpec {
  FlowId id = 0;
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  uint64_t bytes = 0;
  Time start;
  uint8_t priority = 3;
  uint16_t dport = 4791;
};

// workload: [{flows: [{src: 0, dst: 5, size: 1MiB, start: 0us}, ...]}]
struct FlowListSpec {
  std::vector<FlowSpec> flows;  // ids are assigned when the workload is built
};

// workload: [{flows: {format: hpcc, file: flow.txt}}]
struct HpccFlowFileSpec {
  std::string file;  // resolved path
};

// Every host sends `bytes` to a distinct host (a random derangement).
struct PermutationSpec {
  uint64_t bytes = 1 << 20;
  Time start;
  uint8_t priority = 3;
};

// `senders` hosts send `bytes` each to one receiver at the same time.
struct IncastSpec {
  int senders = 8;
  NodeId receiver = kNoNode;  // kNoNode: host 0 receives; senders are the next ones
  uint64_t bytes = 1 << 20;
  Time start;
  uint8_t priority = 3;
};

// Every host sends `bytes` to every other host.
struct AllToAllSpec {
  uint64_t bytes = 1 << 20;
  Time start;
  uint8_t priority = 3;
};

// Each host starts flows as a Poisson process at `load` of its NIC rate,
// to uniformly random other hosts, sizes drawn from `cdf_file`.
struct PoissonSpec {
  double load = 0.3;           // fraction of the host's link rate, (0, 1]
  std::string cdf_file;        // resolved path; format of data/traffic/*.txt
  Time start;
  Time duration = Time::FromMs(1);  // arrivals in [start, start + duration)
  uint8_t priority = 3;
};

using TrafficSpec = std::variant<FlowListSpec, HpccFlowFileSpec, PermutationSpec,
                                 IncastSpec, AllToAllSpec, PoissonSpec>;

}  // namespace aifabric
