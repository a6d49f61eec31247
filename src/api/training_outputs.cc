#include "api/training_outputs.h"

#include <fmt/format.h>

namespace aifabric {
namespace {

nlohmann::ordered_json PerDimension(const std::array<double, kCommDimensionCount>& v) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t d = 1; d < kCommDimensionCount; ++d) j[std::string(CommDimensionName(static_cast<CommDimension>(d)))] = v[d];
  return j;
}

}  // namespace

nlohmann::ordered_json JobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                                   const std::vector<ChakraRunResult>& traces) {
  nlohmann::ordered_json s;
  s["scenario"] = scenario.name;
  s["model"] = scenario.model;
  s["seed"] = scenario.seed;
  Time longest;
  uint64_t events = 0;
  double wall = 0;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    const TrainingRunResult& r = runs[i];
    const Scenario::Training& t = scenario.trainings[i];
    longest = Max(longest, r.step_time);
    events += r.events;
    wall += r.wall_seconds;
    std::array<double, kCommDimensionCount> bytes{};
    for (size_t d = 0; d < kCommDimensionCount; ++d) bytes[d] = static_cast<double>(r.comm_bytes[d]);
    const JobMetrics& m = r.metrics;
    list.push_back({{"entry", t.path},
                    {"model", t.model.name},
                    {"gpus", r.gpus},
                    {"tp", t.parallelism.tp},
                    {"pp", t.parallelism.pp},
                    {"dp", t.parallelism.dp},
                    {"ep", t.parallelism.ep},
                    {"global_batch", t.training.global_batch},
                    {"micro_batch", t.training.micro_batch},
                    {"step_time_s", r.step_time.seconds()},
                    {"tokens_per_s", r.tokens_per_s},
                    {"mfu", r.mfu},
                    {"effective_gpu_utilization", m.effective_utilization},
                    {"compute_s", m.compute_s},
                    {"useful_compute_s", m.useful_compute_s},
                    {"exposed_comm_s", PerDimension(m.exposed_s)},
                    {"comm_s", PerDimension(m.comm_s)},
                    {"idle_s", m.idle_s},
                    {"comm_bytes", PerDimension(bytes)},
                    {"graph_nodes", r.nodes}});
  }
  nlohmann::ordered_json replays = nlohmann::ordered_json::array();
  for (size_t i = 0; i < traces.size(); ++i) {
    const ChakraRunResult& r = traces[i];
    const JobMetrics& m = r.run.metrics;
    longest = Max(longest, r.run.makespan);
    events += r.run.events;
    wall += r.run.wall_seconds;
    const double makespan = r.run.makespan.seconds();
    replays.push_back({{"entry", scenario.chakras[i].path},
                       {"traces", scenario.chakras[i].prefix},
                       {"ranks", r.ranks},
                       {"graph_nodes", r.nodes},
                       {"job_time_s", makespan},
                       {"compute_utilization", makespan > 0 ? m.compute_s / makespan : 0.0},
                       {"compute_s", m.compute_s},
                       {"exposed_comm_s", PerDimension(m.exposed_s)},
                       {"comm_s", PerDimension(m.comm_s)},
                       {"idle_s", m.idle_s}});
  }
  s["sim_time_ns"] = static_cast<double>(longest.ps()) / 1000.0;
  s["wall_s"] = wall;
  s["events"] = events;
  if (!list.empty()) s["training"] = std::move(list);
  if (!replays.empty()) s["chakra"] = std::move(replays);
  return s;
}

std::string FormatJobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                              const std::vector<ChakraRunResult>& traces, const std::string& out_dir) {
  std::string out = fmt::format("aifabric run — {} ({} model, seed {})\n", scenario.name, scenario.model,
                                scenario.seed);
  for (size_t i = 0; i < runs.size(); ++i) {
    const TrainingRunResult& r = runs[i];
    const Scenario::Training& t = scenario.trainings[i];
    const JobMetrics& m = r.metrics;
    out += fmt::format("  training    {} on {} GPUs (TP {} x PP {} x DP {}{}), global batch {}, {} graph nodes\n",
                       t.model.name, r.gpus, t.parallelism.tp, t.parallelism.pp, t.parallelism.dp,
                       t.parallelism.ep > 1 ? fmt::format(" x EP {}", t.parallelism.ep) : "", t.training.global_batch,
                       r.nodes);
    out += fmt::format("  step        {:.3f} ms; {:.0f} tokens/s; MFU {:.1f}%; effective GPU utilization {:.1f}%\n",
                       r.step_time.seconds() * 1e3, r.tokens_per_s, 100 * r.mfu, 100 * m.effective_utilization);
    std::string exposed;
    for (size_t d = 1; d < kCommDimensionCount; ++d) {
      if (m.comm_s[d] <= 0) continue;
      if (!exposed.empty()) exposed += ", ";
      exposed += fmt::format("{} {:.3f} ms ({:.3f} in flight)", CommDimensionName(static_cast<CommDimension>(d)),
                             m.exposed_s[d] * 1e3, m.comm_s[d] * 1e3);
    }
    out += fmt::format("  per GPU     compute {:.3f} ms, idle {:.3f} ms; exposed communication: {}\n", m.compute_s * 1e3,
                       m.idle_s * 1e3, exposed.empty() ? "none" : exposed);
    out += fmt::format("  simulated   in {:.3f} s wall ({} events)\n", r.wall_seconds, r.events);
  }
  for (size_t i = 0; i < traces.size(); ++i) {
    const ChakraRunResult& r = traces[i];
    const JobMetrics& m = r.run.metrics;
    out += fmt::format("  chakra      {} ranks of {} ({} graph nodes): {:.3f} ms; per GPU compute {:.3f} ms, "
                       "exposed communication {:.3f} ms, idle {:.3f} ms\n",
                       r.ranks, scenario.chakras[i].prefix, r.nodes, r.run.makespan.seconds() * 1e3, m.compute_s * 1e3,
                       m.exposed_total_s() * 1e3, m.idle_s * 1e3);
  }
  out += fmt::format("  outputs     {}/ (summary.json)\n", out_dir);
  return out;
}

}  // namespace aifabric
