// The outputs of a shared run (`aifabric run` on a scenario whose workload
// items are tenants of one fabric: run/tenant_run.h, docs/multi_tenant.md):
// summary.json's `tenants` and `interference`, links.csv of the shared
// run, and the printed summary with its interference table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "fabric/topology.h"
#include "report/output_folder.h"
#include "run/tenant_run.h"
#include "scenario/scenario.h"

namespace aifabric {

// summary.json: scenario, model, seed, sim_time_ns, wall_s, events,
// `tenants` (one per workload item: name, kind, gpus, `shared` and
// `alone` figures, `slowdown`, its bottleneck links) and `interference`
// ({victim, aggressor, share, slowdown_part, shared_bytes}).
nlohmann::ordered_json TenantsSummary(const Scenario& scenario, const Topology& topology, const TenantRuns& runs);

// report.html's data (telemetry/html_report.h) for a shared run: the
// summary's figures, per tenant its headline time shared and alone and its
// slowdown, the interference table (victim, aggressor, share) and the
// findings (`diagnosis`, as diagnosis.json holds them).
nlohmann::ordered_json TenantsReportData(const nlohmann::ordered_json& summary, const TenantRuns& runs,
                                         const nlohmann::ordered_json& diagnosis);

// The lines `aifabric run` prints for a shared run.
std::string FormatTenantsSummary(const Scenario& scenario, const Topology& topology, const TenantRuns& runs,
                                 const std::string& out_dir);

// Runs the tenants, writes summary.json, diagnosis.json, links.csv (the
// shared simulation's, report/links_csv.h) and report.html into `out` and
// returns the summary.json text and the printed summary.
struct TenantOutputs {
  std::string summary_json;
  std::string summary_text;
};
Result<TenantOutputs> WriteTenantOutputs(const Scenario& scenario, const std::string& origin, OutputFolder& out,
                                         const RunHooks& hooks);

}  // namespace aifabric
