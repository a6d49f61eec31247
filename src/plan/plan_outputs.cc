#include "plan/plan_outputs.h"

#include <cstdio>
#include <sstream>

#include "plan/design_space.h"
#include "plan/json_numbers.h"
#include "plan/plan_html.h"

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

Json WorkloadJson(const WorkloadOutcome& w) {
  Json j;
  j["name"] = w.name;
  j["kind"] = w.kind;
  j["fits"] = w.fits;
  if (w.kind == "training") {
    j["parallelism"] = w.parallelism;
    j["gpus"] = w.gpus;
    j["memory_per_gpu_bytes"] = w.memory_per_gpu_bytes;
    j["step_time_s"] = RoundForFiles(w.step_time_s);
    j["mfu"] = RoundForFiles(w.mfu);
    j["effective_gpu_utilization"] = RoundForFiles(w.effective_gpu_utilization);
    j["tokens_per_s"] = RoundForFiles(w.tokens_per_s);
    j["bottleneck"] = w.bottleneck.empty() ? Json(nullptr) : Json(w.bottleneck);
    j["bottleneck_tier"] = w.bottleneck_tier.empty() ? Json(nullptr) : Json(w.bottleneck_tier);
    j["bottleneck_link"] = w.bottleneck_link.empty() ? Json(nullptr) : Json(w.bottleneck_link);
    j["bottleneck_link_busy"] = w.bottleneck_link.empty() ? Json(nullptr) : Json(RoundForFiles(w.bottleneck_link_busy));
    j["exposed_comm_s"] = RoundForFiles(w.exposed_comm_s);
  } else {
    j["parallelism"] = nullptr;
    j["goodput_per_s"] = RoundForFiles(w.goodput_per_s);
    j["ttft_p50_s"] = RoundForFiles(w.ttft_p50_s);
    j["tpot_p50_s"] = RoundForFiles(w.tpot_p50_s);
    j["slo_attainment"] = RoundForFiles(w.slo_attainment);
  }
  return j;
}

Json BillJson(const BillOfMaterials& bill) {
  Json lines = Json::array();
  for (const BillLine& l : bill.lines) {
    lines.push_back({{"category", l.category},
                     {"part", l.part},
                     {"where", l.where},
                     {"count", l.count},
                     {"unit_price_usd", RoundForFiles(l.unit_price_usd)},
                     {"unit_power_w", RoundForFiles(l.unit_power_w)},
                     {"price_usd", RoundForFiles(l.price_usd())},
                     {"power_w", RoundForFiles(l.power_w())},
                     {"price_assumed", l.price_assumed}});
  }
  return lines;
}

Json PacketCheckJson(const PacketCheck& c, const Design& g) {
  Json j;
  j["servers"] = c.servers;
  j["gpus"] = c.gpus;
  j["scenario"] = "packet_check/" + g.name + ".yaml";
  Json workloads = Json::array();
  for (const PacketCheckWorkload& w : c.workloads) {
    workloads.push_back({{"name", w.name},
                         {"parallelism", w.parallelism},
                         {"flow_step_time_s", RoundForFiles(w.flow_step_time_s)},
                         {"packet_step_time_s", RoundForFiles(w.packet_step_time_s)}});
  }
  j["workloads"] = workloads;
  return j;
}

Json DesignJson(const RankedDesign& d, int rank) {
  const DesignOutcome& o = d.outcome;
  const Design& g = o.design;
  Json j;
  j["rank"] = rank;
  j["name"] = g.name;
  j["fabric_kind"] = FabricKindName(g.kind);
  j["link_gbps"] = g.link_gbps;
  j["topology"] = TopologyTypeName(g.topology);
  j["oversubscription"] = g.oversubscription;
  j["switch_model"] = g.switch_name;
  j["nic_model"] = g.nic_name;
  j["load_balancing"] = LoadBalancingName(g.load_balancing);
  j["tiers"] = o.bill.tiers;
  j["switches"] = o.bill.switches;
  j["cables"] = o.bill.links;
  j["cost_usd"] = RoundForFiles(o.cost.network_capex_usd);
  j["power_w"] = RoundForFiles(o.cost.network_power_w);
  j["tco_usd"] = RoundForFiles(o.cost.network_tco_usd);
  j["cluster_tco_usd"] = RoundForFiles(o.cost.cluster_tco_usd());
  j["effective_gpu_utilization"] = RoundForFiles(o.effective_gpu_utilization);
  j["useful_gpu_hours"] = RoundForFiles(o.useful_gpu_hours);
  j["useful_gpu_hours_per_usd"] = RoundForFiles(o.useful_gpu_hours_per_usd);
  j["error_bar"] = d.packet_check ? Json(RoundForFiles(d.packet_check->error_bar)) : Json(nullptr);
  j["packet_check"] = d.packet_check ? PacketCheckJson(*d.packet_check, g) : Json(nullptr);
  j["pareto"] = d.pareto;
  j["within_constraints"] = d.within_constraints;
  j["constraint_missed"] = d.constraint_missed.empty() ? Json(nullptr) : Json(d.constraint_missed);
  j["prices_assumed"] = o.bill.any_price_assumed();
  Json workloads = Json::array();
  for (const WorkloadOutcome& w : o.workloads) workloads.push_back(WorkloadJson(w));
  j["workloads"] = workloads;
  j["bill_of_materials"] = BillJson(o.bill);
  j["scenario"] = "designs/" + g.name + ".yaml";
  return j;
}

std::string Num(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

Json PlanJson(const PlanRequirements& r, const RankedPlan& plan) {
  Json j;
  j["plan"] = r.name;
  j["gpus"] = r.gpus;
  j["gpu"] = r.gpu;
  j["years"] = r.costs.years;
  j["energy_usd_per_kwh"] = r.costs.energy_usd_per_kwh;
  j["pue"] = r.costs.pue;
  j["recommendation"] = plan.recommendation;
  Json designs = Json::array();
  for (size_t i = 0; i < plan.designs.size(); ++i) designs.push_back(DesignJson(plan.designs[i], static_cast<int>(i) + 1));
  j["designs"] = designs;
  Json rejected = Json::array();
  for (const RejectedDesign& d : plan.rejected) rejected.push_back({{"name", d.name}, {"reason", d.reason}});
  j["rejected"] = rejected;
  return j;
}

std::string PlanCsv(const PlanRequirements& r, const RankedPlan& plan) {
  std::ostringstream out;
  out << "rank,name,fabric_kind,link_gbps,topology,oversubscription,switch_model,load_balancing,switches,cables,"
         "cost_usd,power_w,tco_usd,cluster_tco_usd,effective_gpu_utilization,useful_gpu_hours_per_usd,pareto,"
         "within_constraints,error_bar";
  for (const PlanWorkload& w : r.workloads) {
    out << "," << w.name << (w.kind == "training" ? "_step_time_s" : "_goodput_per_s");
  }
  out << "\n";
  for (size_t i = 0; i < plan.designs.size(); ++i) {
    const DesignOutcome& o = plan.designs[i].outcome;
    const Design& g = o.design;
    out << i + 1 << "," << g.name << "," << FabricKindName(g.kind) << "," << g.link_gbps << ","
        << TopologyTypeName(g.topology) << "," << Num(g.oversubscription, "%g") << "," << g.switch_name << ","
        << LoadBalancingName(g.load_balancing) << "," << o.bill.switches << "," << o.bill.links << ","
        << Num(o.cost.network_capex_usd, "%.2f") << "," << Num(o.cost.network_power_w, "%.1f") << ","
        << Num(o.cost.network_tco_usd, "%.2f") << "," << Num(o.cost.cluster_tco_usd(), "%.2f") << ","
        << Num(o.effective_gpu_utilization, "%.6f") << "," << Num(o.useful_gpu_hours_per_usd, "%.6g") << ","
        << (plan.designs[i].pareto ? "true" : "false") << ","
        << (plan.designs[i].within_constraints ? "true" : "false") << ","
        << (plan.designs[i].packet_check ? Num(plan.designs[i].packet_check->error_bar, "%.6f") : "");
    for (const WorkloadOutcome& w : o.workloads) {
      out << "," << Num(w.kind == "training" ? w.step_time_s : w.goodput_per_s, "%.6g");
    }
    out << "\n";
  }
  return out.str();
}

std::string PlanText(const PlanRequirements& r, const RankedPlan& plan, size_t rows) {
  std::ostringstream out;
  out << "plan " << r.name << ": " << r.gpus << " x " << r.gpu << ", " << plan.designs.size() << " designs built, "
      << plan.rejected.size() << " rejected\n\n";
  out << plan.recommendation << "\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-50s %10s %9s %9s %8s %12s %9s\n", "rank", "design", "network", "power",
                "switches", "eff.util", "GPU-h/$", "error");
  out << line;
  const size_t shown = std::min(rows, plan.designs.size());
  for (size_t i = 0; i < shown; ++i) {
    const RankedDesign& d = plan.designs[i];
    const DesignOutcome& o = d.outcome;
    const std::string error = d.packet_check ? Num(100 * d.packet_check->error_bar, "%.1f%%") : "-";
    std::snprintf(line, sizeof line, "%4zu%c %-50s %10s %7.1fkW %9lld %7.1f%% %12.4f %9s%s\n", i + 1,
                  d.pareto ? '*' : ' ', o.design.name.c_str(), FormatUsd(o.cost.network_capex_usd).c_str(),
                  o.cost.network_power_w / 1000, static_cast<long long>(o.bill.switches),
                  100 * o.effective_gpu_utilization, o.useful_gpu_hours_per_usd, error.c_str(),
                  d.within_constraints ? "" : "  (over constraints)");
    out << line;
  }
  if (shown < plan.designs.size()) out << "  ... " << plan.designs.size() - shown << " more in plan.csv\n";
  out << "  * on the Pareto front of network cost and effective GPU utilization\n";
  if (!plan.designs.empty() && plan.designs.front().packet_check) {
    const PacketCheck& c = *plan.designs.front().packet_check;
    out << "  error: |flow - packet| / packet step time on a scaled copy (" << c.gpus
        << " GPUs) of the best designs (docs/plan.md, \"Error bars\")\n";
  }
  return out.str();
}

Status WritePlanFiles(const PlanRequirements& r, const RankedPlan& plan, OutputFolder& out) {
  const Json plan_json = PlanJson(r, plan);
  if (Status s = out.Write("plan.json", plan_json.dump(2) + "\n"); !s) return s;
  if (Status s = out.Write("plan.csv", PlanCsv(r, plan)); !s) return s;
  Status html = Status::Ok();
  if (Status s = out.Stream("plan.html", [&](TextSink& sink) { html = WritePlanHtml(plan_json, sink); }); !s) return s;
  if (!html) return html;
  for (const RankedDesign& d : plan.designs) {
    if (Status s = out.Write("designs/" + d.outcome.design.name + ".yaml", d.outcome.scenario_yaml); !s) return s;
    if (!d.packet_check) continue;
    const std::string copy = "packet_check/" + d.outcome.design.name + ".yaml";
    if (Status s = out.Write(copy, d.packet_check->scenario_yaml); !s) return s;
  }
  return Status::Ok();
}

}  // namespace aifabric
