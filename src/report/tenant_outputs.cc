#include "report/tenant_outputs.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diagnosis/diagnosis.h"
#include "report/job_outputs.h"
#include "report/links_csv.h"
#include "report/telemetry_outputs.h"
#include "telemetry/chrome_trace.h"
#include "telemetry/html_report.h"
#include "telemetry/prometheus_text.h"
#include "workload/collective_sweep.h"

namespace aifabric {
namespace {

double Ms(Time t) { return t.seconds() * 1e3; }

// "leaf0 -> spine1"
std::string LinkName(const Topology& topology, size_t port) {
  const Port& p = topology.port(static_cast<PortId>(port));
  return topology.node(p.node).name + " -> " + topology.node(p.peer).name;
}

// The p-quantile (nearest rank) of the finished flows' FCTs.
Time Quantile(std::vector<Time> fct, double q) {
  std::erase_if(fct, [](Time t) { return t.IsInfinite(); });
  if (fct.empty()) return Time::Zero();
  std::sort(fct.begin(), fct.end());
  const size_t rank = static_cast<size_t>(std::max(1.0, std::ceil(q * static_cast<double>(fct.size()))));
  return fct[std::min(rank, fct.size()) - 1];
}

// A training job's steps with a checkpoint: the mean step time of those
// that wrote one and of the others (none with checkpoint.every 1), and the
// mean write.
struct CheckpointSplit {
  size_t steps = 0;  // that wrote one
  Time step;         // their mean step time
  Time other;        // the others' mean step time
  Time write;        // the mean write, over the steps that wrote one
};
CheckpointSplit SplitByCheckpoint(const TenantFigures& f) {
  CheckpointSplit c;
  int64_t with = 0, without = 0, write = 0;
  size_t others = 0;
  for (size_t k = 0; k < f.steps.size() && k < f.checkpointed.size(); ++k) {
    if (f.checkpointed[k]) {
      ++c.steps;
      with += f.steps[k].makespan.ps();
      write += f.checkpoint_write[k].ps();
    } else {
      ++others;
      without += f.steps[k].makespan.ps();
    }
  }
  const auto mean = [](int64_t sum, size_t n) { return n == 0 ? Time::Zero() : Time::FromPs(sum / static_cast<int64_t>(n)); };
  c.step = mean(with, c.steps);
  c.other = mean(without, others);
  c.write = mean(write, c.steps);
  return c;
}

// What a tenant's headline time is: its long name (report.html) and the
// terminal's short one.
struct HeadlineName {
  const char* long_name;
  const char* short_name;
};
HeadlineName HeadlineOf(const TenantResult& t) {
  if (t.kind == "inference") return {"mean TTFT", "TTFT"};
  if (t.collective) return {"mean time per iteration", "iteration"};
  if (t.kind == "flows" || t.shared.steps.empty()) return {"mean FCT", "FCT"};
  return {"mean step time", "step"};
}

// The mean of `times` (zero if empty).
Time MeanOf(const std::vector<Time>& times) {
  int64_t sum = 0;
  for (Time x : times) sum += x.ps();
  return times.empty() ? Time::Zero() : Time::FromPs(sum / static_cast<int64_t>(times.size()));
}

nlohmann::ordered_json FiguresJson(const TenantResult& t, const TenantFigures& f) {
  nlohmann::ordered_json j;
  j["complete"] = f.complete;
  if (t.collective) {
    // nccl-tests' figures of the mean iteration (docs/collectives.md).
    const CollectiveChoice& c = *t.collective;
    j["iterations"] = f.steps.size();
    j["time_s"] = f.headline.seconds();
    nlohmann::ordered_json times = nlohmann::ordered_json::array();
    for (const JobMetrics& m : f.steps) times.push_back(m.makespan.seconds());
    j["iteration_times_s"] = std::move(times);
    const Bandwidth bw = BandwidthFor(c.op, c.ranks, c.bytes, f.headline);
    j["algbw_gb_s"] = bw.alg_gb_per_s;
    j["busbw_gb_s"] = bw.bus_gb_per_s;
  } else if (t.kind == "inference") {
    // The headline is the mean TTFT; every figure is over all its requests.
    if (f.inference) {
      j["requests"] = f.inference->requests;
      j["ttft_ms"] = Latency(f.inference->ttft);
      j["tpot_ms"] = Latency(f.inference->tpot);
      j["e2e_ms"] = Latency(f.inference->e2e);
      j["output_tokens_per_s"] = f.inference->output_tokens_per_s;
    }
  } else if (!f.steps.empty() || t.kind != "flows") {
    j["steps"] = f.steps.size();
    j["step_time_s"] = f.headline.seconds();
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const JobMetrics& m : f.steps) steps.push_back(m.makespan.seconds());
    j["step_times_s"] = std::move(steps);
    if (t.checkpoint_every > 0) {
      // The steps that wrote one and the others (with a checkpoint during
      // every step there are no others, and no other_step_time_s).
      const CheckpointSplit c = SplitByCheckpoint(f);
      nlohmann::ordered_json& k = j["checkpoint"];
      k = {{"every", t.checkpoint_every}, {"steps", c.steps}, {"step_time_s", c.step.seconds()}};
      if (t.checkpoint_every > 1) k["other_step_time_s"] = c.other.seconds();
      k["write_s"] = c.write.seconds();
    }
    if (t.dataset_readers > 0) {
      j["dataset"] = {{"readers", t.dataset_readers}, {"bytes", t.dataset_bytes}, {"read_s", MeanOf(f.dataset_read).seconds()}};
    }
    if (t.model_flops_per_step > 0) {
      j["mfu"] = TenantMfu(t, f);
      j["tokens_per_s"] = f.headline > Time::Zero() ? static_cast<double>(t.tokens_per_step) / f.headline.seconds() : 0;
    }
    j["exposed_comm_s"] = f.mean_exposed_comm_s;
    if (!f.steps.empty()) j["effective_gpu_utilization"] = f.steps.front().effective_utilization;
  } else {
    size_t done = 0;
    for (Time x : f.fct) done += !x.IsInfinite();
    j["flows"] = f.fct.size();
    j["completed"] = done;
    j["fct_ns"] = {{"mean", f.headline.ns()}, {"p50", Quantile(f.fct, 0.5).ns()}, {"p99", Quantile(f.fct, 0.99).ns()}};
  }
  return j;
}

// The shared run's counters and tracks, written as a single run writes
// them (report/telemetry_outputs.h): timeseries.csv when it was sampled;
// metrics.prom with, after the fabric's families, each tenant's bytes per
// port (its alone run's, which it puts there in the shared run too) as
// aifabric_tenant_transmit_bytes_total{tenant, node, port}; trace.json with
// a track per job tenant holding its steps, before the fabric's tracks.
Status WriteSharedRunTelemetry(const TenantRuns& runs, OutputFolder& out) {
  const Topology& topology = runs.topology;
  const TenantSimulation& shared = runs.shared;
  const TimeSeriesStore* store = shared.series.get();
  if (store != nullptr) {
    const auto csv = [&](TextSink& sink) { WriteTimeseriesCsv(sink, topology, *store); };
    if (Status st = out.Stream("timeseries.csv", csv); !st.ok()) return st;
  }
  size_t completed = 0;
  for (const TransferObservation& t : shared.observation.transfers) completed += !t.finish.IsInfinite();
  const auto metrics = [&](TextSink& sink) {
    WritePrometheusExposition(sink, topology, store, shared.observation.ports, shared.sim_time, completed);
    PrometheusTextWriter writer(sink);
    writer.Family("aifabric_tenant_transmit_bytes_total",
                  "Bytes a tenant (workload item) put on this egress port in the shared run.", MetricKind::kCounter);
    for (const TenantResult& t : runs.tenants) {
      for (size_t p = 0; p < t.port_tx_bytes.size(); ++p) {
        if (t.port_tx_bytes[p] == 0) continue;
        const Port& port = topology.port(static_cast<PortId>(p));
        const PrometheusLabel labels[] = {
            {"tenant", t.name}, {"node", topology.node(port.node).name}, {"port", topology.node(port.peer).name}};
        writer.Sample(labels, static_cast<double>(t.port_tx_bytes[p]));
      }
    }
  };
  if (Status st = out.Stream("metrics.prom", metrics); !st.ok()) return st;
  ChromeTrace trace;
  for (const TenantResult& t : runs.tenants) {
    if (t.shared.step_spans.empty()) continue;
    const int track = trace.Track(trace.Process("tenant " + t.name), "steps");
    for (size_t k = 0; k < t.shared.step_spans.size(); ++k) {
      const auto& [begin, end] = t.shared.step_spans[k];
      nlohmann::ordered_json args{{"step_time_ms", Ms(t.shared.steps[k].makespan)}};
      if (t.checkpoint_every > 1 && k < t.shared.checkpointed.size()) args["checkpoint"] = t.shared.checkpointed[k] != 0;
      trace.Slice(track, "step " + std::to_string(k), t.kind, begin, end, std::move(args));
    }
  }
  AddFabricTrace(topology, shared.observation, store, trace);
  const auto render_trace = [&trace](TextSink& sink) { trace.Render(sink); };
  return out.Stream("trace.json", render_trace);
}

}  // namespace

nlohmann::ordered_json TenantsSummary(const Scenario& scenario, const Topology& topology, const TenantRuns& runs) {
  nlohmann::ordered_json s;
  s["scenario"] = scenario.name;
  s["model"] = ModelKindName(scenario.model);
  s["seed"] = scenario.seed;
  s["sim_time_ns"] = runs.shared.sim_time.ns();
  s["wall_s"] = runs.wall_seconds;
  s["events"] = runs.shared.events;
  nlohmann::ordered_json tenants = nlohmann::ordered_json::array();
  for (const TenantResult& t : runs.tenants) {
    nlohmann::ordered_json j;
    j["name"] = t.name;
    j["kind"] = t.kind;
    if (!t.gpus.empty()) j["gpus"] = t.gpus;
    if (t.collective) {
      const CollectiveChoice& c = *t.collective;
      j["collective"] = {{"op", CollectiveOpName(c.op)},
                         {"bytes", c.bytes},
                         {"ranks", c.ranks},
                         {"algorithm", CollectiveAlgorithmName(c.algorithm)},
                         {"protocol", CollectiveProtocolName(c.protocol)}};
    }
    j["shared"] = FiguresJson(t, t.shared);
    j["alone"] = FiguresJson(t, t.alone);
    j["slowdown"] = t.slowdown;
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    for (size_t p : t.bottleneck_ports) links.push_back(LinkName(topology, p));
    j["bottleneck_links"] = std::move(links);
    uint64_t bytes = 0;
    for (uint64_t b : t.port_tx_bytes) bytes += b;
    j["link_bytes"] = bytes;
    tenants.push_back(std::move(j));
  }
  s["tenants"] = std::move(tenants);
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (const InterferenceEntry& e : runs.interference) {
    table.push_back({{"victim", runs.tenants[e.victim].name},
                     {"aggressor", runs.tenants[e.aggressor].name},
                     {"share", e.share},
                     {"slowdown_part", e.slowdown_part},
                     {"shared_bytes", e.shared_bytes}});
  }
  s["interference"] = std::move(table);
  return s;
}

nlohmann::ordered_json TenantsReportData(const nlohmann::ordered_json& summary, const TenantRuns& runs,
                                         const nlohmann::ordered_json& diagnosis) {
  nlohmann::ordered_json data;
  data["title"] = summary.value("scenario", std::string("aifabric run"));
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  for (const auto& [key, value] : summary.items()) {
    // Not the figures that measure the machine: the report is deterministic.
    if (value.is_primitive() && key != "wall_s") figures[key] = value;
  }
  data["summary"] = std::move(figures);
  nlohmann::ordered_json tenants = nlohmann::ordered_json::array();
  for (const TenantResult& t : runs.tenants) {
    tenants.push_back({{"name", t.name},
                       {"kind", t.kind},
                       {"headline", HeadlineOf(t).long_name},
                       {"shared_ms", Ms(t.shared.headline)},
                       {"alone_ms", Ms(t.alone.headline)},
                       {"slowdown", t.slowdown}});
  }
  data["tenants"] = std::move(tenants);
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (const auto& e : summary["interference"]) {
    table.push_back({{"victim", e["victim"]}, {"aggressor", e["aggressor"]}, {"share", e["share"]}});
  }
  data["interference"] = std::move(table);
  data["diagnosis"] = diagnosis;
  return data;
}

std::string FormatTenantsSummary(const Scenario& scenario, const Topology& topology, const TenantRuns& runs,
                                 const std::string& out_dir) {
  std::string out = fmt::format("aifabric run — {} ({} model, seed {}), {} workload items on one fabric\n",
                                scenario.name, ModelKindName(scenario.model), scenario.seed, runs.tenants.size());
  out += fmt::format("  {:<20} {:<12} {:>6} {:>14} {:>14} {:>9}\n", "tenant", "kind", "GPUs", "shared", "alone",
                     "slowdown");
  for (const TenantResult& t : runs.tenants) {
    out += fmt::format("  {:<20} {:<12} {:>6} {:>9.3f} ms {:>9.3f} ms {:>8.3f}x  (mean {})\n", t.name, t.kind,
                       t.gpus.size(), Ms(t.shared.headline), Ms(t.alone.headline), t.slowdown,
                       HeadlineOf(t).short_name);
    if (t.collective) {
      const CollectiveChoice& c = *t.collective;
      const Bandwidth shared = BandwidthFor(c.op, c.ranks, c.bytes, t.shared.headline);
      const Bandwidth alone = BandwidthFor(c.op, c.ranks, c.bytes, t.alone.headline);
      out += fmt::format("  {:<20} {} of {} bytes, {} {}: busbw {:.2f} GB/s shared, {:.2f} GB/s alone\n", "",
                         CollectiveOpName(c.op), c.bytes, CollectiveAlgorithmName(c.algorithm),
                         CollectiveProtocolName(c.protocol), shared.bus_gb_per_s, alone.bus_gb_per_s);
    }
    if (t.dataset_readers > 0) {
      out += fmt::format("  {:<20} dataset reads {} bytes a step on {} GPUs: {:.3f} ms shared, {:.3f} ms alone\n", "",
                         t.dataset_bytes, t.dataset_readers, Ms(MeanOf(t.shared.dataset_read)),
                         Ms(MeanOf(t.alone.dataset_read)));
    }
    if (t.model_flops_per_step > 0) {
      out += fmt::format("  {:<20} MFU {:.1f}% shared, {:.1f}% alone; exposed communication {:.3f} ms shared, {:.3f} ms alone\n",
                         "", 100 * TenantMfu(t, t.shared), 100 * TenantMfu(t, t.alone), t.shared.mean_exposed_comm_s * 1e3,
                         t.alone.mean_exposed_comm_s * 1e3);
    }
    if (t.checkpoint_every == 1) {
      out += fmt::format("  {:<20} checkpoint every step: write {:.3f} ms shared, {:.3f} ms alone\n", "",
                         Ms(SplitByCheckpoint(t.shared).write), Ms(SplitByCheckpoint(t.alone).write));
    } else if (t.checkpoint_every > 1) {
      const CheckpointSplit shared = SplitByCheckpoint(t.shared), alone = SplitByCheckpoint(t.alone);
      out += fmt::format("  {:<20} checkpoint every {} steps ({} written): step {:.3f} ms with it, {:.3f} ms without; "
                         "write {:.3f} ms (alone {:.3f}, {:.3f}; {:.3f})\n",
                         "", t.checkpoint_every, shared.steps, Ms(shared.step), Ms(shared.other), Ms(shared.write),
                         Ms(alone.step), Ms(alone.other), Ms(alone.write));
    }
    if (t.shared.inference && t.alone.inference) {
      out += fmt::format("  {:<20} TTFT p99 {:.3f} ms shared, {:.3f} ms alone; TPOT mean {:.3f} ms shared, {:.3f} ms alone\n",
                         "", t.shared.inference->ttft.p99_ms, t.alone.inference->ttft.p99_ms,
                         t.shared.inference->tpot.mean_ms, t.alone.inference->tpot.mean_ms);
    }
    if (!t.bottleneck_ports.empty()) {
      out += fmt::format("  {:<20} shares most on {}\n", "", LinkName(topology, t.bottleneck_ports.front()));
    }
  }
  if (runs.interference.empty()) {
    out += "  interference: no tenant shares a link with another\n";
  } else {
    out += "  interference (victim <- aggressor: share of the victim's slowdown, slowdown it adds)\n";
    for (const InterferenceEntry& e : runs.interference) {
      out += fmt::format("    {} <- {}: {:.1f}%, +{:.3f}x\n", runs.tenants[e.victim].name,
                         runs.tenants[e.aggressor].name, 100 * e.share, e.slowdown_part);
    }
  }
  if (runs.findings.empty()) {
    out += "  diagnosis   no findings\n";
  } else {
    for (size_t i = 0; i < runs.findings.size() && i < 3; ++i) {
      const Finding& f = runs.findings[i];
      std::string who;
      for (const std::string& o : f.owners) who += (who.empty() ? "" : ", ") + o;
      const std::string most = f.evidence.contains("slows_most") ? ", slows " + f.evidence["slows_most"].get<std::string>() + " most" : "";
      out += fmt::format("  {}  {} on {} -> {} (severity {:.2f}){}{}\n", i == 0 ? "diagnosis" : "         ", f.kind,
                         topology.node(f.node).name, topology.node(f.port_peer).name, f.severity,
                         who.empty() ? "" : "; shared by " + who, most);
    }
  }
  out += fmt::format("  simulated   {} simulations (shared + each alone) in {:.3f} s wall ({} events shared)\n",
                     runs.tenants.size() + 1, runs.wall_seconds, runs.shared.events);
  out += "  wrote       " + out_dir + "/summary.json, " + out_dir + "/diagnosis.json, " + out_dir + "/links.csv, " +
         (runs.shared.series ? out_dir + "/timeseries.csv, " : "") + out_dir + "/metrics.prom, " + out_dir +
         "/trace.json, " + out_dir + "/report.html\n";
  return out;
}

Result<TenantOutputs> WriteTenantOutputs(const Scenario& scenario, const std::string& origin, OutputFolder& out,
                                         const RunHooks& hooks) {
  Result<TenantRuns> runs = RunTenants(scenario, hooks);
  if (hooks.cancel != nullptr && hooks.cancel->load()) return Error{"cancelled"};
  if (!runs.ok()) return Error{origin + ": " + runs.error().message};
  TenantOutputs outputs;
  outputs.summary_json = TenantsSummary(scenario, runs->topology, *runs).dump(2) + "\n";
  if (Status st = out.Write("summary.json", outputs.summary_json); !st.ok()) return st.error();
  const auto links = [&](TextSink& sink) {
    WriteLinksCsv(sink, runs->topology, [&](PortId p) { return runs->shared.port_counters.at(p); },
                  runs->shared.sim_time);
  };
  if (Status st = out.Stream("links.csv", links); !st.ok()) return st.error();
  if (Status st = WriteSharedRunTelemetry(*runs, out); !st.ok()) return st.error();
  const nlohmann::ordered_json findings = FindingsJson(runs->topology, runs->findings);
  if (Status st = out.Write("diagnosis.json", findings.dump(2) + "\n"); !st.ok()) return st.error();
  const nlohmann::ordered_json data =
      TenantsReportData(nlohmann::ordered_json::parse(outputs.summary_json), *runs, findings);
  Status rendered = Status::Ok();
  const auto report = [&](TextSink& sink) { rendered = WriteHtmlReport(sink, data); };
  if (Status st = out.Stream("report.html", report); !st.ok()) return st.error();
  if (!rendered.ok()) return Error{"report.html: " + rendered.error().message};
  if (Status st = out.Commit(); !st.ok()) return st.error();
  outputs.summary_text = FormatTenantsSummary(scenario, runs->topology, *runs, out.dir());
  return outputs;
}

}  // namespace aifabric
