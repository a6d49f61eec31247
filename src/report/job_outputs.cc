#include "report/job_outputs.h"

#include <fmt/format.h>

#include "core/peak_memory.h"
#include "report/faults_json.h"
#include "report/job_trace.h"
#include "report/run_outputs.h"
#include "report/training_memory_text.h"
#include "report/telemetry_outputs.h"
#include "run/run_observation.h"

namespace aifabric {
namespace {

nlohmann::ordered_json PerDimension(const std::array<double, kCommDimensionCount>& v) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t d = 1; d < kCommDimensionCount; ++d) j[std::string(CommDimensionName(static_cast<CommDimension>(d)))] = v[d];
  return j;
}

}  // namespace

Status JobFilesWriter::WriteTelemetry(const FabricSimulation& simulation, const FabricObservation& observation,
                                      const nlohmann::ordered_json& summary,
                                      std::function<void(ChromeTrace&)> add_to_trace) {
  const size_t index = simulations_++;
  if (!scenario_.telemetry.enabled) return Status::Ok();
  written_.telemetry = true;
  written_.timeseries = written_.timeseries || simulation.series() != nullptr;
  return WriteSimulationTelemetryFiles(simulation, observation, simulation.sim().Now(), summary,
                                       std::move(add_to_trace), out_, index);
}

Status JobFilesWriter::OnJobFinished(const FinishedJob& job) {
  const nlohmann::ordered_json summary = {{"scenario", scenario_.name},
                                          {"job", job.what},
                                          {"model", ModelKindName(scenario_.model)},
                                          {"makespan_ns", static_cast<double>(job.result.makespan.ps()) / 1000.0},
                                          {"gpus", job.result.metrics.gpus},
                                          {"effective_gpu_utilization", job.result.metrics.effective_utilization},
                                          {"events", job.result.events}};
  if (!scenario_.telemetry.enabled) return WriteTelemetry(job.simulation, {}, summary, nullptr);
  return WriteTelemetry(job.simulation, ObserveJob(job), summary, [&job](ChromeTrace& trace) {
    AddJobTrace(job.graph, job.node_start, job.node_finish, trace);
  });
}

Status JobFilesWriter::OnServiceFinished(const FinishedService& service) {
  if (!requests_written_) {  // one serving entry per scenario is the common case
    requests_written_ = true;
    if (Status st = out_.Write("requests.csv", InferenceRequestsCsv(service.result)); !st.ok()) return st;
  }
  const InferenceSummary& m = service.result.summary;
  const nlohmann::ordered_json summary = {{"scenario", scenario_.name},
                                          {"service", service.what},
                                          {"model", ModelKindName(scenario_.model)},
                                          {"requests", m.requests},
                                          {"ttft_p50_ms", m.ttft.p50_ms},
                                          {"ttft_p99_ms", m.ttft.p99_ms},
                                          {"tpot_p50_ms", m.tpot.p50_ms},
                                          {"tpot_p99_ms", m.tpot.p99_ms},
                                          {"goodput_per_s", m.goodput_per_s},
                                          {"events", service.events}};
  if (!scenario_.telemetry.enabled) return WriteTelemetry(service.simulation, {}, summary, nullptr);
  const FabricObservation observation = ObserveSimulation(service.simulation, service.simulation.sim().Now());
  return WriteTelemetry(service.simulation, observation, summary, [&service](ChromeTrace& trace) {
    const std::vector<InferenceRequestRecord>& requests = service.result.requests;
    for (size_t i = 0; i < requests.size(); ++i) {
      const InferenceRequestRecord& q = requests[i];
      const int process = trace.Process("replica " + std::to_string(q.replica));
      const int track = trace.Track(process, "requests");
      trace.Slice(track, "request " + std::to_string(i), "request", q.arrival, q.finish,
                  {{"input_tokens", q.input_tokens},
                   {"output_tokens", q.output_tokens},
                   {"ttft_ms", q.ttft_ms()},
                   {"decode_replica", q.decode_replica}});
    }
  });
}

std::string InferenceRequestsCsv(const InferenceResult& result) {
  std::string out = "request_id,arrival_us,input_tokens,output_tokens,replica,decode_replica,ttft_ms,tpot_ms,e2e_ms\n";
  for (size_t i = 0; i < result.requests.size(); ++i) {
    const InferenceRequestRecord& r = result.requests[i];
    out += fmt::format("{},{:.3f},{},{},{},{},{:.6f},{},{:.6f}\n", i, r.arrival.us_f(), r.input_tokens,
                       r.output_tokens, r.replica, r.decode_replica, r.ttft_ms(),
                       r.has_tpot() ? fmt::format("{:.6f}", r.tpot_ms()) : std::string(), r.e2e_ms());
  }
  return out;
}

nlohmann::ordered_json Latency(const LatencyStats& l) {
  return {{"count", l.count}, {"mean", l.mean_ms}, {"p50", l.p50_ms}, {"p99", l.p99_ms}, {"max", l.max_ms}};
}

nlohmann::ordered_json JobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                                   const std::vector<ChakraRunResult>& traces,
                                   const std::vector<InferenceRunResult>& serving) {
  nlohmann::ordered_json s;
  s["scenario"] = scenario.name;
  s["model"] = ModelKindName(scenario.model);
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
    nlohmann::ordered_json entry = {{"entry", t.path},
                                    {"model", t.model.name},
                                    {"gpus", r.gpus},
                                    {"tp", r.parallelism.tp},
                                    {"pp", r.parallelism.pp},
                                    {"dp", r.parallelism.dp},
                                    {"ep", r.parallelism.ep},
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
                                    {"graph_nodes", r.nodes},
                                    {"memory", MemoryJson(r.memory)}};
    // Only a scenario with faults has the section (docs/faults.md).
    if (!scenario.faults.empty()) entry["faults"] = FaultsJson(r.faults);
    if (t.auto_parallelism) {
      entry["parallelism"] = {{"search", "auto"},
                              {"fitting_splits", r.fitting_splits},
                              {"estimated_step_s", r.estimate.step_s}};
    }
    list.push_back(std::move(entry));
  }
  nlohmann::ordered_json replays = nlohmann::ordered_json::array();
  for (size_t i = 0; i < traces.size(); ++i) {
    const ChakraRunResult& r = traces[i];
    const JobMetrics& m = r.run.metrics;
    longest = Max(longest, r.run.makespan);
    events += r.run.events;
    wall += r.run.wall_seconds;
    const double makespan = r.run.makespan.seconds();
    nlohmann::ordered_json& replay = replays.emplace_back();
    replay = {{"entry", scenario.chakras[i].path},
              {"traces", scenario.chakras[i].prefix},
              {"ranks", r.ranks},
              {"graph_nodes", r.nodes},
              {"job_time_s", makespan},
              {"compute_utilization", makespan > 0 ? m.compute_s / makespan : 0.0},
              {"compute_s", m.compute_s},
              {"exposed_comm_s", PerDimension(m.exposed_s)},
              {"comm_s", PerDimension(m.comm_s)},
              {"idle_s", m.idle_s}};
    if (!scenario.faults.empty()) replay["faults"] = FaultsJson(r.run.faults);
  }
  nlohmann::ordered_json services = nlohmann::ordered_json::array();
  for (size_t i = 0; i < serving.size(); ++i) {
    const InferenceSummary& m = serving[i].result.summary;
    events += serving[i].events;
    wall += serving[i].wall_seconds;
    longest = Max(longest, Time::FromPs(static_cast<int64_t>(m.duration_s * 1e12)));
    const InferenceSpec& spec = scenario.inferences[i].spec;
    services.push_back({{"entry", scenario.inferences[i].path},
                        {"model", spec.model.name},
                        {"requests", m.requests},
                        {"ttft_ms", Latency(m.ttft)},
                        {"tpot_ms", Latency(m.tpot)},
                        {"e2e_ms", Latency(m.e2e)},
                        {"duration_s", m.duration_s},
                        {"offered_rate_per_s", m.offered_rate_per_s},
                        {"output_tokens_per_s", m.output_tokens_per_s},
                        {"goodput_per_s", m.goodput_per_s},
                        {"slo_attainment", m.slo_attainment},
                        {"ttft_slo_ms", spec.ttft_slo_ms},
                        {"tpot_slo_ms", spec.tpot_slo_ms},
                        {"iterations", m.iterations},
                        {"mean_batch_sequences", m.mean_batch_sequences},
                        {"kv_transfers", m.kv_transfers}});
  }
  s["sim_time_ns"] = static_cast<double>(longest.ps()) / 1000.0;
  s["wall_s"] = wall;
  s["events"] = events;
  if (!list.empty()) s["training"] = std::move(list);
  if (!replays.empty()) s["chakra"] = std::move(replays);
  if (!services.empty()) s["inference"] = std::move(services);
  // Each job's entry has its own run's faults; the top level, as a flows
  // run's, that of the first job (the one every single-job scenario has).
  if (!scenario.faults.empty()) {
    if (!runs.empty()) {
      s["faults"] = FaultsJson(runs.front().faults);
    } else if (!traces.empty()) {
      s["faults"] = FaultsJson(traces.front().run.faults);
    }
  }
  s["warnings"] = WarningsJson(ScenarioWarnings(scenario));
  return s;
}

std::string FormatJobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                              const std::vector<ChakraRunResult>& traces,
                              const std::vector<InferenceRunResult>& serving, const nlohmann::ordered_json& summary,
                              const std::string& out_dir, const JobFilesWritten& written) {
  std::string out = fmt::format("aifabric run — {} ({} model, seed {})\n", scenario.name,
                                ModelKindName(scenario.model), scenario.seed);
  for (size_t i = 0; i < runs.size(); ++i) {
    const TrainingRunResult& r = runs[i];
    const Scenario::Training& t = scenario.trainings[i];
    const JobMetrics& m = r.metrics;
    out += fmt::format("  training    {} on {} GPUs (TP {} x PP {} x DP {}{}), global batch {}, {} graph nodes\n",
                       t.model.name, r.gpus, r.parallelism.tp, r.parallelism.pp, r.parallelism.dp,
                       r.parallelism.ep > 1 ? fmt::format(" x EP {}", r.parallelism.ep) : "", t.training.global_batch,
                       r.nodes);
    if (t.auto_parallelism) {
      out += fmt::format("  auto        the fastest estimate ({:.3f} ms) of {} splits that fit; memory {} of {} GiB per GPU\n",
                         r.estimate.step_s * 1e3, r.fitting_splits, DescribeStageMemory(r.memory.worst()),
                         GiB(r.memory.hbm_bytes));
    }
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
    if (!scenario.faults.empty()) out += FormatFaultLines(FaultsJson(r.faults));
    out += fmt::format("  simulated   in {:.3f} s wall ({} events), peak memory {:.0f} MiB\n", r.wall_seconds, r.events,
                       PeakMemoryMiB());
  }
  for (size_t i = 0; i < traces.size(); ++i) {
    const ChakraRunResult& r = traces[i];
    const JobMetrics& m = r.run.metrics;
    out += fmt::format("  chakra      {} ranks of {} ({} graph nodes): {:.3f} ms; per GPU compute {:.3f} ms, "
                       "exposed communication {:.3f} ms, idle {:.3f} ms\n",
                       r.ranks, scenario.chakras[i].prefix, r.nodes, r.run.makespan.seconds() * 1e3, m.compute_s * 1e3,
                       m.exposed_total_s() * 1e3, m.idle_s * 1e3);
  }
  for (size_t i = 0; i < serving.size(); ++i) {
    const InferenceSummary& m = serving[i].result.summary;
    const InferenceSpec& spec = scenario.inferences[i].spec;
    out += fmt::format("  inference   {} requests of {} at {:.2f}/s on {} replica(s) of TP {} x PP {}{}\n", m.requests,
                       spec.model.name, m.offered_rate_per_s,
                       spec.disaggregated ? spec.prefill_replicas + spec.decode_replicas : spec.replicas, spec.tp,
                       spec.pp, spec.disaggregated ? " (prefill/decode disaggregated)" : "");
    out += fmt::format("  latency     TTFT p50 {:.1f} ms, p99 {:.1f} ms; TPOT p50 {:.2f} ms, p99 {:.2f} ms\n",
                       m.ttft.p50_ms, m.ttft.p99_ms, m.tpot.p50_ms, m.tpot.p99_ms);
    out += fmt::format("  throughput  {:.0f} output tokens/s; goodput {:.2f} requests/s ({:.0f}% within SLOs)\n",
                       m.output_tokens_per_s, m.goodput_per_s, 100 * m.slo_attainment);
    out += fmt::format("  simulated   in {:.3f} s wall ({} events), peak memory {:.0f} MiB\n", serving[i].wall_seconds,
                       serving[i].events, PeakMemoryMiB());
  }
  if (summary.contains("faults")) out += FormatFaultLines(summary["faults"]);
  if (summary.contains("fault_cost")) out += FormatFaultCostLines(summary["fault_cost"]);
  std::string files = serving.empty() ? "" : ", requests.csv";
  if (written.telemetry) {
    files += ", metrics.prom, trace.json, diagnosis.json, report.html";
    if (written.timeseries) files += ", timeseries.csv";
  }
  out += fmt::format("  outputs     {}/ (summary.json{})\n", out_dir, files);
  return out;
}

}  // namespace aifabric
