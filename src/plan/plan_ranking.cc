#include "plan/plan_ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "plan/percent_text.h"

namespace aifabric {
namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "12.3% fewer" / "4.0% more": how far `value` is from `reference`.
std::string RelativeTo(double value, double reference, const char* less, const char* more) {
  if (reference == 0) return "as many";
  const double rel = (value - reference) / reference;
  return Fixed(100 * std::fabs(rel), 1) + "% " + (rel < 0 ? less : more);
}

std::string MissedConstraint(const PlanRequirements& r, const DesignOutcome& o) {
  if (r.constraints.budget_usd && o.cost.network_capex_usd > *r.constraints.budget_usd) {
    return "budget: the network costs " + FormatUsd(o.cost.network_capex_usd) + ", above constraints.budget_usd " +
           FormatUsd(*r.constraints.budget_usd);
  }
  if (r.constraints.power_kw && o.cost.network_power_w / 1000 > *r.constraints.power_kw) {
    return "power: the network draws " + Fixed(o.cost.network_power_w / 1000, 1) + " kW, above constraints.power_kw " +
           Fixed(*r.constraints.power_kw, 1);
  }
  for (const WorkloadOutcome& w : o.workloads) {
    if (!w.fits) return "memory: " + w.name + " does not fit in GPU memory";
  }
  for (const WorkloadOutcome& w : o.workloads) {
    if (w.kind == "inference" && w.slo_attainment < r.constraints.min_slo_attainment) {
      return "SLO: " + w.name + " meets its TTFT and TPOT SLOs for " + Fixed(100 * w.slo_attainment, 2) + "%" +
             " of its requests, below constraints.min_slo_attainment " +
             Fixed(100 * r.constraints.min_slo_attainment, 2) + "%";
    }
  }
  return "";
}

std::string Summary(const DesignOutcome& o, int years) {
  return Fixed(o.useful_gpu_hours_per_usd, 4) + " useful GPU-hours per dollar (effective GPU utilization " +
         Percent(o.effective_gpu_utilization) + "; network " + FormatUsd(o.cost.network_capex_usd) + ", " +
         Fixed(o.cost.network_power_w / 1000, 1) + " kW; cluster cost of ownership over " + std::to_string(years) +
         " years " + FormatUsd(o.cost.cluster_tco_usd()) + ")";
}

std::string Recommend(const PlanRequirements& r, const std::vector<RankedDesign>& designs) {
  if (designs.empty()) return "No design of the design space could be built; see rejected for why.";
  const RankedDesign& best = designs.front();
  if (!best.within_constraints) {
    return "No design meets the constraints. The best without them is " + best.outcome.design.name + " (" +
           best.constraint_missed + ").";
  }
  size_t within = 0;
  for (const RankedDesign& d : designs) within += d.within_constraints ? 1 : 0;
  std::string text = "Buy " + best.outcome.design.name + ": " + Summary(best.outcome, r.costs.years) +
                     ", the most of the " + std::to_string(within) + " designs that meet the constraints.";
  if (designs.size() > 1 && designs[1].within_constraints) {
    const DesignOutcome& next = designs[1].outcome;
    text += " The runner-up, " + next.design.name + ", gives " +
            RelativeTo(next.useful_gpu_hours_per_usd, best.outcome.useful_gpu_hours_per_usd, "fewer", "more") +
            " useful GPU-hours per dollar.";
  }
  const RankedDesign* cheapest = &best;
  const RankedDesign* fastest = &best;
  for (const RankedDesign& d : designs) {
    if (!d.within_constraints) continue;
    if (d.outcome.cost.network_capex_usd < cheapest->outcome.cost.network_capex_usd) cheapest = &d;
    if (d.outcome.effective_gpu_utilization > fastest->outcome.effective_gpu_utilization) fastest = &d;
  }
  if (cheapest != &best) {
    text += " The cheapest network, " + cheapest->outcome.design.name + ", costs " +
            FormatUsd(best.outcome.cost.network_capex_usd - cheapest->outcome.cost.network_capex_usd) +
            " less but its GPUs are useful " + Percent(cheapest->outcome.effective_gpu_utilization) +
            " of the time against " + Percent(best.outcome.effective_gpu_utilization) + ".";
  }
  if (fastest != &best) {
    text += " The fastest, " + fastest->outcome.design.name + " (effective GPU utilization " +
            Percent(fastest->outcome.effective_gpu_utilization) + "), costs " +
            FormatUsd(fastest->outcome.cost.network_capex_usd - best.outcome.cost.network_capex_usd) +
            " more for the network, more than its extra GPU time is worth.";
  }
  if (best.outcome.bill.any_price_assumed()) {
    text += " Some of its prices are assumptions (see its bill of materials); a price file (costs.prices) replaces them.";
  }
  return text;
}

}  // namespace

std::string FormatUsd(double usd) {
  const double a = std::fabs(usd);
  char buf[64];
  if (a >= 1e6) {
    std::snprintf(buf, sizeof buf, "$%.2fM", usd / 1e6);
  } else if (a >= 1e3) {
    std::snprintf(buf, sizeof buf, "$%.0fk", usd / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "$%.0f", usd);
  }
  return buf;
}

RankedPlan RankDesigns(const PlanRequirements& r, std::vector<DesignOutcome> outcomes,
                       std::vector<RejectedDesign> rejected) {
  RankedPlan plan;
  plan.rejected = std::move(rejected);
  for (DesignOutcome& o : outcomes) {
    if (!o.rejected.empty()) {
      plan.rejected.push_back({o.design.name, o.rejected});
      continue;
    }
    RankedDesign d;
    d.constraint_missed = MissedConstraint(r, o);
    d.within_constraints = d.constraint_missed.empty();
    d.outcome = std::move(o);
    plan.designs.push_back(std::move(d));
  }
  for (RankedDesign& d : plan.designs) {
    d.pareto = std::none_of(plan.designs.begin(), plan.designs.end(), [&](const RankedDesign& e) {
      const double c = e.outcome.cost.network_capex_usd, dc = d.outcome.cost.network_capex_usd;
      const double u = e.outcome.effective_gpu_utilization, du = d.outcome.effective_gpu_utilization;
      return c <= dc && u >= du && (c < dc || u > du);
    });
  }
  std::stable_sort(plan.designs.begin(), plan.designs.end(), [](const RankedDesign& a, const RankedDesign& b) {
    if (a.within_constraints != b.within_constraints) return a.within_constraints;
    if (a.outcome.useful_gpu_hours_per_usd != b.outcome.useful_gpu_hours_per_usd) {
      return a.outcome.useful_gpu_hours_per_usd > b.outcome.useful_gpu_hours_per_usd;
    }
    if (a.outcome.cost.network_capex_usd != b.outcome.cost.network_capex_usd) {
      return a.outcome.cost.network_capex_usd < b.outcome.cost.network_capex_usd;
    }
    return a.outcome.design.name < b.outcome.design.name;
  });
  plan.recommendation = Recommend(r, plan.designs);
  return plan;
}

}  // namespace aifabric
