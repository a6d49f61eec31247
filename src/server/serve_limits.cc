#include "server/serve_limits.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "run/fabric_setup.h"
#include "run/job_runs.h"
#include "run/run_cost.h"

namespace aifabric {
namespace {

std::string Ms(Time t) { return fmt::format("{:g} ms", static_cast<double>(t.ps()) * 1e-9); }

// The server bounds each simulation's events (its engine heartbeat cuts
// one off past them), not memory.
CostBounds EventBounds(const ServeLimits& limits) { return CostBounds{limits.max_events, 0, true}; }

// An estimate held to the bounds; one that failed passes (the run reports
// the same error when it prepares).
Status CheckCost(const Result<RunCost>& cost, const CostBounds& bounds) {
  if (!cost.ok()) return Status::Ok();
  if (Status s = CheckRunCost(*cost, bounds, BoundsOwner::kServer); !s.ok()) {
    return Error{"limit: " + s.error().message};
  }
  return Status::Ok();
}

}  // namespace

Result<int64_t> ScenarioHosts(const Scenario& scenario) {
  const TopologySpec& spec = scenario.topology;
  if (spec.type == TopologyType::kHpccFile || spec.type == TopologyType::kLingjunFile) {
    Result<Topology> topology = BuildScenarioTopology(scenario);
    if (!topology.ok()) return topology.error();
    return static_cast<int64_t>(topology->hosts().size());
  }
  return static_cast<int64_t>(spec.servers) * spec.nics_per_server;
}

Status CheckRunLimits(const Scenario& scenario, const ServeLimits& limits) {
  if (limits.max_hosts > 0) {
    Result<int64_t> hosts = ScenarioHosts(scenario);
    if (!hosts.ok()) return hosts.error();
    if (*hosts > limits.max_hosts) {
      return Error{"limit: the fabric has " + std::to_string(*hosts) + " hosts, more than the server's --max-hosts " +
                   std::to_string(limits.max_hosts)};
    }
  }
  if (limits.max_sim_time > Time::Zero() && !HasJobs(scenario)) {
    if (scenario.until.IsInfinite()) {
      return Error{"limit: simulation.until is not set; the server runs flows for at most --max-sim-time " +
                   Ms(limits.max_sim_time) + " (set simulation.until)"};
    }
    if (scenario.until > limits.max_sim_time) {
      return Error{"limit: simulation.until is " + Ms(scenario.until) + ", more than the server's --max-sim-time " +
                   Ms(limits.max_sim_time)};
    }
  }
  if (limits.max_events > 0) return CheckCost(EstimateRunCost(scenario, EventBounds(limits)), EventBounds(limits));
  return Status::Ok();
}

Status CheckCollectiveLimits(const Scenario& scenario, const CollectiveRequest& request, const ServeLimits& limits) {
  if (limits.max_events == 0) return Status::Ok();
  return CheckCost(EstimateCollectiveCost(scenario, request, EventBounds(limits)), EventBounds(limits));
}

Status CheckPlanLimits(const PlanRequirements& requirements, size_t designs, const ServeLimits& limits) {
  const auto hosts = static_cast<int64_t>(std::ceil(requirements.gpus * requirements.nics_per_gpu));
  if (limits.max_hosts > 0 && hosts > limits.max_hosts) {
    return Error{"limit: the plan's cluster has " + std::to_string(hosts) + " hosts, more than the server's --max-hosts " +
                 std::to_string(limits.max_hosts)};
  }
  const uint64_t work = static_cast<uint64_t>(designs) * static_cast<uint64_t>(std::max<int64_t>(hosts, 0));
  if (limits.max_plan_work > 0 && work > limits.max_plan_work) {
    return Error{"limit: the plan evaluates " + std::to_string(designs) + " designs x " + std::to_string(hosts) +
                 " hosts = " + std::to_string(work) + ", more than the server's --max-plan-work " +
                 std::to_string(limits.max_plan_work) + " (narrow the design space or raise --max-plan-work)"};
  }
  return Status::Ok();
}

}  // namespace aifabric
