#include "plan/existing_outputs.h"

#include <cstdio>
#include <cstdlib>

#include "plan/json_numbers.h"
#include "plan/plan_ranking.h"

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace

Json ExistingPlanJson(const ExistingPlan& p) {
  Json j;
  j["existing"] = p.existing;
  j["scenario"] = p.scenario_file;
  j["threshold"] = p.threshold;
  j["recommendation"] = p.recommendation;
  Json models = Json::array();
  for (const FutureModelOutcome& m : p.models) {
    Json o;
    o["name"] = m.name;
    o["fits"] = m.fits;
    o["note"] = OrNull(m.note);
    o["parallelism"] = OrNull(m.parallelism);
    o["memory_per_gpu_bytes"] = m.fits ? Json(m.memory_per_gpu_bytes) : Json(nullptr);
    o["step_time_s"] = m.fits ? Json(RoundForFiles(m.step_time_s)) : Json(nullptr);
    o["mfu"] = m.fits ? Json(RoundForFiles(m.mfu)) : Json(nullptr);
    o["effective_gpu_utilization"] = m.fits ? Json(RoundForFiles(m.effective_gpu_utilization)) : Json(nullptr);
    o["bottleneck"] = OrNull(m.bottleneck);
    o["bottleneck_tier"] = OrNull(m.bottleneck_tier);
    o["bottleneck_link"] = OrNull(m.bottleneck_link);
    o["bottleneck_link_busy"] = m.bottleneck_link.empty() ? Json(nullptr) : Json(RoundForFiles(m.bottleneck_link_busy));
    o["exposed_comm_s"] = m.fits ? Json(RoundForFiles(m.exposed_comm_s)) : Json(nullptr);
    o["upgrade"] = m.upgrade ? Json(m.upgrade->design.name) : Json(nullptr);
    o["upgrade_cost_usd"] = m.upgrade ? Json(RoundForFiles(m.upgrade->cost.network_capex_usd)) : Json(nullptr);
    o["upgrade_effective_gpu_utilization"] =
        m.upgrade ? Json(RoundForFiles(m.upgrade->workloads.front().effective_gpu_utilization)) : Json(nullptr);
    o["upgrade_note"] = OrNull(m.upgrade_note);
    models.push_back(o);
  }
  j["models"] = models;
  return j;
}

std::string ExistingPlanText(const ExistingPlan& p) {
  std::string out = "plan --existing " + p.existing + " (" + p.scenario_file + "): " + std::to_string(p.models.size()) +
                    " models, threshold " + std::to_string(static_cast<int>(100 * p.threshold + 0.5)) + "%\n\n" +
                    p.recommendation + "\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-20s %5s %-16s %10s %9s  %s\n", "model", "fits", "parallelism", "step", "eff.util",
                "upgrade");
  out += line;
  for (const FutureModelOutcome& m : p.models) {
    if (!m.fits) {
      std::snprintf(line, sizeof line, "%-20s %5s %-16s %10s %9s  %s\n", m.name.c_str(), "no", "-", "-", "-", "-");
    } else {
      std::snprintf(line, sizeof line, "%-20s %5s %-16s %8.1fms %8.1f%%  %s\n", m.name.c_str(), "yes",
                    m.parallelism.c_str(), m.step_time_s * 1e3, 100 * m.effective_gpu_utilization,
                    m.upgrade ? m.upgrade->design.name.c_str() : "-");
    }
    out += line;
  }
  return out;
}

Status WriteExistingPlanFiles(const ExistingPlan& plan, OutputFolder& out) {
  return out.Write("plan.json", ExistingPlanJson(plan).dump(2) + "\n");
}

}  // namespace aifabric
