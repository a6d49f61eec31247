// RunCost is what a run will cost before it runs: the events its
// simulations will process and the memory the largest of them will hold,
// estimated from the scenario's hosts, flows and bytes without simulating
// anything. CheckRunCost holds an estimate to CostBounds, so a scenario
// whose size or simulated time is absurd (one flow of 2^63 bytes) is
// refused up front with the estimate instead of running on for days
// (`aifabric run --max-events --max-memory`, `aifabric serve
// --max-events`; docs/reliability.md, "Cost"). Pure functions of their
// inputs (they read the files a scenario names: HPCC flow files, flow-size
// CDFs, Chakra traces); thread-safe.
//
// The model, per simulation (summed over the simulations a run makes):
//  - packet level: every payload packet (ceil(bytes / mtu) of each flow or
//    fabric transfer) crosses at most L links, L = 2 x the lowest switch
//    tier that joins every host (one leaf: 2; leaf-spine: 4; 3-tier
//    fat-tree: 6), or for a job's traffic between servers, which NCCL
//    keeps on one rail (PXN), the lowest that joins each rail's NICs; each
//    packet-link costs kPacketEventsPerPacketLink events (its departure,
//    its arrival, its ACK's share and the transport's timers: measured on
//    the engine in run_cost_test.cc); simulation.until caps a flows run's
//    bytes at what its NICs can send by then;
//  - flow level: kFlowEventsPerFlow per flow (its start and its end, each
//    a re-solve); analytic: the same count (an upper bound: it has no
//    time);
//  - jobs (training, Chakra, inference): their JobGraph's nodes, and at
//    packet level the bytes their transfers and collectives put on the
//    fabric (a collective of S over n GPUs on m servers: ring's
//    2 S (n-1)/n x m for an all-reduce, half of it for the others; none
//    inside one server, which NVLink carries); in steps, each collective's
//    DAG of transfers. A training step at flow level with coflow
//    collectives is charged its graph's bound (kMaxTrainingGraphNodes)
//    when that fits, rather than built twice. A tenant's `steps` repeat
//    its job; its `duration` is not counted (`aifabric run` holds
//    --max-events while it runs as well: cli/run_command.cc). Faults
//    with a baseline run the scenario twice; a shared fabric adds the
//    shared simulation to the alone runs.
// Memory: per node, port and flow of the topology and workload, and per
// JobGraph node (constants in run_cost.cc, set against measured peaks).
// Arithmetic is in double: every figure stays finite (a 2^64-byte flow is
// 1.8e19, far from double's 1.8e308), so nothing wraps; an estimate is an
// order of magnitude, not a count.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "run/collective_run.h"
#include "scenario/scenario.h"

namespace aifabric {

// Events per payload packet per link crossed, packet level, with the
// scenario defaults (RoCEv2 RC with an ACK per packet, PFC, DCQCN): the
// engine processed 1,510 events for 1 MiB from h0 to h1 under one leaf at
// MTU 4096, 256 packets x 2 links = 512 packet-links, 2.95 each
// (run_cost_test.cc).
inline constexpr double kPacketEventsPerPacketLink = 3.0;
// Events per flow at flow level: its start and its end, each a re-solve
// (1,043 events for 1,024 flows in docs/performance.md's k=16 permutation).
inline constexpr double kFlowEventsPerFlow = 2.0;

// Defaults of --max-events and --max-memory (docs/reliability.md, "Cost"):
// 2e10 events is about an hour at the packet model's measured 5.4 M
// events/s with the RoCE defaults (docs/performance.md, mode dcqcn at
// k=16); 16 GiB is a fixed bound, the same on every machine, 3.3x the
// largest example's 4.9 GiB (examples/scale/gpt3_175b_131072gpu.yaml).
inline constexpr uint64_t kDefaultMaxEvents = 20'000'000'000;
inline constexpr uint64_t kDefaultMaxMemoryBytes = 16ull << 30;

struct CostBounds {
  uint64_t max_events = kDefaultMaxEvents;            // 0: no bound
  uint64_t max_memory_bytes = kDefaultMaxMemoryBytes;  // 0: no bound
  // max_events bounds each simulation (the server's --max-events, which its
  // engine heartbeat also enforces), not the run's sum.
  bool per_simulation = false;
};

struct RunCost {
  double events = 0;        // over every simulation of the run
  double simulation_events = 0;  // the most one simulation processes
  double memory_bytes = 0;  // the most one simulation holds
  ModelKind model = ModelKind::kPacket;
  std::string field = "workload";  // the scenario part that costs most ("workload", "workload.0.training")
  std::string what;                // it in words: "one flow of 9223372036854775807 bytes"
  double what_events = -1;         // its events (-1: not yet set)
  // Some part is charged its bound rather than estimated (training steps
  // at flow level with coflow collectives, when their graph's bound fits).
  bool upper_bound = false;
};

// The cost of `aifabric run` on `scenario`: its flows (one simulation,
// twice with faults and a fault baseline), each job's simulation, and a
// shared fabric's alone runs. The topology is built only when the hosts
// the scenario asks for fit in bounds.max_memory_bytes (else the cost is
// the hosts' alone, already over). Errors: what the run's own preparation
// would refuse (a missing file, a bad field), naming it.
Result<RunCost> EstimateRunCost(const Scenario& scenario, const CostBounds& bounds = {});

// The cost of `aifabric collective`: every size of the sweep, each
// candidate algorithm and protocol a simulation of its own.
Result<RunCost> EstimateCollectiveCost(const Scenario& scenario, const CollectiveRequest& request,
                                       const CostBounds& bounds = {});

// Whose bounds a refusal names: the command line's (the message says which
// option raises it) or the server's (`aifabric serve`'s options).
enum class BoundsOwner { kCommandLine, kServer };

// OK within the bounds; else the Error
//   "<field>: estimated 2.3e+15 events at packet level (one flow of
//   9223372036854775807 bytes), over --max-events 2e+10; raise --max-events
//   to run it"
// (or "... memory 3.1 TiB ..., over --max-memory 16 GiB"; for the server
// "over the server's --max-events 2e+09").
Status CheckRunCost(const RunCost& cost, const CostBounds& bounds, BoundsOwner owner = BoundsOwner::kCommandLine);

// "2.3e+15" with two significant figures above a million, else the integer.
std::string FormatEstimate(double value);
// "16 GiB", "3.1 TiB": bytes in the largest binary unit under them.
std::string FormatMemory(double bytes);

}  // namespace aifabric
