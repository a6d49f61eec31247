// A scheduling replay of a job trace on a scenario's cluster (`aifabric
// schedule`): builds the fabric once, reads the trace (model names from the
// built-in catalog), maps the scenario to ReplayOptions and runs
// ReplayJobTrace (sched/cluster_replay.h) once per policy spec, all on the
// same trace and fabric. Writes nothing (schedule_outputs.h does).
// Deterministic apart from the wall times; not thread-safe.
#pragma once

#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "run/fabric_setup.h"
#include "scenario/scenario.h"
#include "scenario/policy_spec.h"
#include "run/schedule_window.h"
#include "core/result.h"
#include "sched/cluster_replay.h"

namespace aifabric {

// The replay options of `scenario` under `spec` on a cluster of `servers`
// servers: its scheduling section (storage servers = the last
// storage_servers ones, ascending), payload_efficiency = mtu / (mtu + wire
// overhead) and ecmp_seed of the flow level (FlowConfigFor), seed =
// scenario.seed. Errors when the storage servers would leave no server
// for jobs.
Result<ReplayOptions> ReplayOptionsFor(const Scenario& scenario, int servers, const PolicySpec& spec);

// Adds the scenario's scheduling.link_failures to `options`, their
// switches looked up by name in `topology`. Errors name the failure
// ("scheduling.link_failures.0.between: no node named 'leaf9' ...").
Status ResolveLinkFailures(const Scenario& scenario, const Topology& topology, ReplayOptions& options);

struct ScheduleRun {
  BuiltFabric fabric;
  size_t trace_jobs = 0;
  std::vector<ReplayResult> results;  // one per spec, in the given order
  std::vector<double> wall_s;         // each replay's wall time (this machine)
};

// Errors: the fabric and the options after "<scenario file>: ", the trace
// as its reader gives them ("<path>:<line>: ..."), a job larger than the
// cluster after "<trace path>: " (ReplayJobTrace's message). With a
// `window`, each replay records its flows in it (ReplayResult::
// window_flows) for the packet level (schedule_window.h).
// With `cancel` set (read between replays and at every event of one), the
// run stops and returns the error "cancelled".
// REQUIRES: !specs.empty().
Result<ScheduleRun> RunSchedule(const Scenario& scenario, const std::string& trace_path,
                                std::span<const PolicySpec> specs, const PacketWindow* window = nullptr,
                                const std::atomic<bool>* cancel = nullptr);

}  // namespace aifabric
