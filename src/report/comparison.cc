#include "report/comparison.h"

#include <cmath>

#include <fmt/format.h>

#include "report/job_outputs.h"
#include "report/run_outputs.h"
#include "run/job_runs.h"
#include "run/scenario_run.h"

namespace aifabric {

Result<nlohmann::ordered_json> SummaryOf(const Scenario& scenario) {
  if (HasJobs(scenario)) {
    Result<JobRuns> runs = RunJobs(scenario);
    if (!runs.ok()) return runs.error();
    return JobsSummary(scenario, runs->training, runs->chakra, runs->inference);
  }
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(scenario);
  if (!run.ok()) return run.error();
  (*run)->Execute();
  return BuildSummary(**run);
}

std::vector<ComparedMetric> HeadlineMetrics(const std::vector<nlohmann::ordered_json>& summaries) {
  std::vector<ComparedMetric> out;
  if (summaries.empty()) return out;
  std::vector<std::string> pointers = {"/sim_time_ns",         "/flows/fct_ns/mean", "/flows/fct_ns/p50",
                                       "/flows/fct_ns/p99",    "/flows/slowdown/mean", "/flows/slowdown/p99",
                                       "/links/max_util",      "/links/mean_util"};
  const nlohmann::ordered_json& first = summaries.front();
  for (const char* kind : {"training", "chakra", "inference"}) {
    if (!first.contains(kind)) continue;
    for (size_t i = 0; i < first[kind].size(); ++i) {
      const std::string base = fmt::format("/{}/{}/", kind, i);
      if (std::string(kind) == "training") {
        for (const char* f : {"step_time_s", "tokens_per_s", "mfu", "effective_gpu_utilization",
                              "exposed_comm_s/tensor", "exposed_comm_s/pipeline", "exposed_comm_s/data",
                              "exposed_comm_s/expert"}) {
          pointers.push_back(base + f);
        }
      } else if (std::string(kind) == "chakra") {
        for (const char* f : {"job_time_s", "compute_utilization"}) pointers.push_back(base + f);
      } else {
        for (const char* f : {"ttft_ms/p50", "ttft_ms/p99", "tpot_ms/p50", "tpot_ms/p99", "goodput_per_s"}) {
          pointers.push_back(base + f);
        }
      }
    }
  }
  for (const std::string& p : pointers) {
    const nlohmann::json::json_pointer ptr(p);
    if (!first.contains(ptr) || !first.at(ptr).is_number()) continue;
    ComparedMetric m;
    m.name = p.substr(1);
    for (char& c : m.name) c = c == '/' ? '.' : c;
    for (const nlohmann::ordered_json& s : summaries) {
      if (s.contains(ptr) && s.at(ptr).is_number()) {
        m.values.push_back(s.at(ptr).get<double>());
      } else {
        m.values.push_back(std::nullopt);
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

namespace {
std::optional<double> RelativePercent(std::optional<double> value, std::optional<double> base) {
  if (!value || !base || *base == 0) return std::nullopt;
  return 100.0 * (*value - *base) / *base;
}
}  // namespace

std::string FormatComparison(const std::vector<std::string>& models, const std::vector<ComparedMetric>& metrics,
                             const std::vector<double>& wall_seconds) {
  std::string out = fmt::format("{:<44}", "metric");
  for (size_t i = 0; i < models.size(); ++i) {
    out += fmt::format(" {:>14}", models[i]);
    if (i > 0) out += fmt::format(" {:>9}", "diff");
  }
  out += "\n";
  auto row = [&](const std::string& name, const std::vector<std::optional<double>>& values) {
    std::string line = fmt::format("{:<44}", name);
    for (size_t i = 0; i < values.size(); ++i) {
      line += values[i] ? fmt::format(" {:>14.6g}", *values[i]) : fmt::format(" {:>14}", "-");
      if (i > 0) {
        const std::optional<double> d = RelativePercent(values[i], values[0]);
        line += d ? fmt::format(" {:>+8.1f}%", *d) : fmt::format(" {:>9}", "-");
      }
    }
    return line + "\n";
  };
  for (const ComparedMetric& m : metrics) out += row(m.name, m.values);
  std::vector<std::optional<double>> walls(wall_seconds.begin(), wall_seconds.end());
  out += row("wall_s (this machine)", walls);
  return out;
}

nlohmann::ordered_json ComparisonJson(const std::string& scenario, const std::vector<std::string>& models,
                                      const std::vector<ComparedMetric>& metrics,
                                      const std::vector<double>& wall_seconds) {
  nlohmann::ordered_json j;
  j["scenario"] = scenario;
  j["models"] = models;
  j["wall_s"] = wall_seconds;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ComparedMetric& m : metrics) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array(), diffs = nlohmann::ordered_json::array();
    for (size_t i = 0; i < m.values.size(); ++i) {
      values.push_back(m.values[i] ? nlohmann::ordered_json(*m.values[i]) : nlohmann::ordered_json(nullptr));
      const std::optional<double> d = RelativePercent(m.values[i], m.values[0]);
      diffs.push_back(d ? nlohmann::ordered_json(*d) : nlohmann::ordered_json(nullptr));
    }
    list.push_back({{"metric", m.name}, {"values", values}, {"diff_percent", diffs}});
  }
  j["metrics"] = std::move(list);
  return j;
}

}  // namespace aifabric
