#include "run/schedule_run.h"

#include <cassert>
#include <chrono>

#include "sched/job_trace.h"
#include "workload/model_catalog.h"

namespace aifabric {

Result<ReplayOptions> ReplayOptionsFor(const Scenario& scenario, int servers, const PolicySpec& spec) {
  const Scenario::Scheduling& sched = scenario.scheduling;
  if (sched.storage_servers >= servers) {
    return Error{"scheduling.storage_servers: expected fewer than the cluster's " + std::to_string(servers) +
                 " servers so that a server is left for jobs, got " + std::to_string(sched.storage_servers)};
  }
  ReplayOptions o;
  o.policy = spec.policy;
  o.crux = spec.crux;
  o.cassini = spec.cassini;
  o.job_model = sched.jobs;
  o.max_phases_per_job = sched.max_phases_per_job;
  for (int s = servers - sched.storage_servers; s < servers; ++s) o.storage_servers.push_back(s);
  const FlowConfig flow = FlowConfigFor(scenario);
  o.payload_efficiency =
      static_cast<double>(flow.mtu_bytes) / static_cast<double>(flow.mtu_bytes + flow.wire_overhead_bytes);
  o.ecmp_seed = flow.ecmp_seed;
  o.seed = scenario.seed;
  o.load_window_s = sched.load_window_s;
  return o;
}

Status ResolveLinkFailures(const Scenario& scenario, const Topology& topology, ReplayOptions& options) {
  for (const Scenario::Scheduling::LinkFailure& f : scenario.scheduling.link_failures) {
    const NodeId a = topology.FindByName(f.a), b = topology.FindByName(f.b);
    for (const auto& [name, node] : {std::pair{f.a, a}, std::pair{f.b, b}}) {
      if (node == kNoNode) return Error{f.path + ".between: no node named '" + name + "' in the topology"};
    }
    LinkId link = -1;
    for (PortId p : topology.node(a).ports) {
      if (topology.port(p).peer == b) link = topology.port(p).link;
    }
    if (link < 0) return Error{f.path + ".between: '" + f.a + "' and '" + f.b + "' share no link"};
    options.link_failures.push_back({link, f.at_s, f.for_s});
  }
  return {};
}

Result<ScheduleRun> RunSchedule(const Scenario& scenario, const std::string& trace_path,
                                std::span<const PolicySpec> specs, const PacketWindow* window,
                                const std::atomic<bool>* cancel) {
  assert(!specs.empty());
  // Messages name their origin: the scenario file, the trace file.
  const std::string origin = (scenario.source_file.empty() ? scenario.name : scenario.source_file) + ": ";
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return Error{origin + fabric.error().message};
  std::vector<std::string> models;
  for (const ModelSpec& m : BuiltInModels()) models.push_back(m.name);
  Result<std::vector<TraceJob>> jobs = ReadJobTrace(trace_path, models);
  if (!jobs.ok()) return jobs.error();
  ScheduleRun run{std::move(fabric).value(), jobs->size(), {}, {}};
  for (const PolicySpec& spec : specs) {
    if (cancel != nullptr && cancel->load()) return Error{"cancelled"};
    Result<ReplayOptions> options = ReplayOptionsFor(scenario, run.fabric.layout.servers(), spec);
    if (!options.ok()) return Error{origin + options.error().message};
    if (Status st = ResolveLinkFailures(scenario, run.fabric.topology, *options); !st.ok()) {
      return Error{origin + st.error().message};
    }
    options->cancel = cancel;
    if (window) {
      options->window_start_s = window->start.seconds();
      options->window_s = window->duration.seconds();
    }
    // Its messages name the option ("storage_servers: ..."); the user wrote
    // it in the scenario's scheduling section.
    if (Status valid = ValidateReplayOptions(*options, run.fabric.topology, run.fabric.layout); !valid.ok()) {
      const std::string& message = valid.error().message;
      return Error{origin + (message.rfind("scheduling.", 0) == 0 ? "" : "scheduling.") + message};
    }
    const auto start = std::chrono::steady_clock::now();
    Result<ReplayResult> result =
        ReplayJobTrace(run.fabric.topology, run.fabric.routes, run.fabric.layout, *jobs, *options);
    if (!result.ok()) return Error{trace_path + ": " + result.error().message};
    run.wall_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    run.results.push_back(std::move(result).value());
  }
  return run;
}

}  // namespace aifabric
