#include "report/run_outputs.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

#include "run/run_observation.h"
#include "report/hpcc_fct.h"
#include "transport/rc_transport.h"
#include "report/faults_json.h"
#include "report/links_csv.h"
#include "report/telemetry_outputs.h"

namespace aifabric {
namespace {

// fmt::format_to into a sink, through a stack buffer (a line at a time).
template <typename... Args>
void AppendFormatted(TextSink& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::memory_buffer line;
  fmt::format_to(std::back_inserter(line), format, std::forward<Args>(args)...);
  out.Append(std::string_view(line.data(), line.size()));
}

double NsValue(Time t) { return static_cast<double>(t.ps()) / 1000.0; }

// Nearest-rank percentile of sorted values. REQUIRES: !sorted.empty().
template <typename T>
T Percentile(const std::vector<T>& sorted, double p) {
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  if (rank < 1) rank = 1;
  return sorted[rank - 1];
}

// {mean, p50, p99, max} of a set of values; zeros when empty.
nlohmann::ordered_json Stats(std::vector<double> v) {
  nlohmann::ordered_json j;
  if (v.empty()) {
    j = {{"mean", 0}, {"p50", 0}, {"p99", 0}, {"max", 0}};
    return j;
  }
  std::sort(v.begin(), v.end());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  j["mean"] = mean;
  j["p50"] = Percentile(v, 50);
  j["p99"] = Percentile(v, 99);
  j["max"] = v.back();
  return j;
}

struct FlowFigures {
  std::vector<double> fct_ns;
  std::vector<double> slowdown;
  size_t count = 0;
};

FlowFigures Figures(const ScenarioRun& run, size_t first, size_t count) {
  FlowFigures f;
  f.count = count;
  for (size_t i = first; i < first + count; ++i) {
    const FlowSpec& flow = run.flows()[i];
    const Time end = run.finish(flow.id);
    if (end.IsInfinite()) continue;
    const Time fct = end - flow.start;
    f.fct_ns.push_back(NsValue(fct));
    f.slowdown.push_back(static_cast<double>(fct.ps()) / static_cast<double>(run.ideal_fct(flow.id).ps()));
  }
  return f;
}

nlohmann::ordered_json FlowJson(const FlowFigures& f) {
  nlohmann::ordered_json j;
  j["count"] = f.count;
  j["completed"] = f.fct_ns.size();
  j["fct_ns"] = Stats(f.fct_ns);
  j["slowdown"] = Stats(f.slowdown);
  return j;
}

double Utilization(const ScenarioRun& run, const Port& port) {
  return LinkUtilization(run.LinkCounters(port.id).tx_bytes, port, run.sim_time());
}

// HPCC's figures of every flow of a run, indexed as run.flows(), with the
// run's payload per packet, header and ACK sizes.
class HpccFigures {
 public:
  explicit HpccFigures(const ScenarioRun& run)
      : payload_bytes_(run.scenario().packet.mtu_bytes), header_bytes_(run.scenario().packet.wire_overhead_bytes) {
    std::vector<std::pair<NodeId, NodeId>> pairs;
    pairs.reserve(run.flows().size());
    for (const FlowSpec& f : run.flows()) pairs.push_back({run.request(f.id).src, run.request(f.id).dst});
    const uint32_t ack_wire_bytes =
        run.scenario().transport.fabric == FabricKind::kIb ? kIbAckWireBytes : kRoceAckWireBytes;
    pairs_ = HpccPairsOf(run.topology(), pairs, payload_bytes_, ack_wire_bytes);
  }

  // When the sender holds the last byte's ACK: the last byte's arrival
  // plus that ACK's return on the idle reverse path.
  Time Acked(size_t index, Time arrival) const { return arrival + pairs_[index].ack_return; }
  int64_t StandaloneFctNs(size_t index, uint64_t bytes) const {
    return HpccStandaloneFctNs(pairs_[index], bytes, payload_bytes_, header_bytes_);
  }

 private:
  const uint32_t payload_bytes_, header_bytes_;
  std::vector<HpccPair> pairs_;
};

// end_ns/fct_ns: the last payload byte's arrival (one way); acked_*: when
// the sender has its ACK; hpcc_standalone_fct_ns: HPCC's standalone_fct.
void WriteFlowsCsv(TextSink& out, const ScenarioRun& run, const HpccFigures& hpcc) {
  out.Append("flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,acked_end_ns,acked_fct_ns,"
             "hpcc_standalone_fct_ns\n");
  for (size_t i = 0; i < run.flows().size(); ++i) {
    const FlowSpec& flow = run.flows()[i];
    const Time end = run.finish(flow.id);
    const Time ideal = run.ideal_fct(flow.id);
    const int64_t standalone_ns = hpcc.StandaloneFctNs(i, run.request(flow.id).bytes);
    if (end.IsInfinite()) {
      AppendFormatted(out, "{},{},{},{},{},,,{},,,,{}\n", flow.id, flow.src, flow.dst, flow.bytes, ExactNs(flow.start),
                      ExactNs(ideal), standalone_ns);
    } else {
      const Time fct = end - flow.start;
      const Time acked = hpcc.Acked(i, end);
      AppendFormatted(out, "{},{},{},{},{},{},{},{},{:.6f},{},{},{}\n", flow.id, flow.src, flow.dst, flow.bytes,
                      ExactNs(flow.start), ExactNs(end), ExactNs(fct), ExactNs(ideal),
                      static_cast<double>(fct.ps()) / static_cast<double>(ideal.ps()), ExactNs(acked),
                      ExactNs(acked - flow.start), standalone_ns);
    }
  }
}

void WriteRunLinksCsv(TextSink& out, const ScenarioRun& run, const HpccFigures& /*hpcc*/) {
  WriteLinksCsv(out, run.topology(), [&run](PortId p) { return run.LinkCounters(p); }, run.sim_time());
}

// HPCC's fct.txt (third.cc qp_finish): one line per completed flow
// (transfer, however many queue pairs carried it) in completion order:
// sip dip sport dport size start_ns fct_ns standalone_fct_ns, where fct is
// until the sender holds the last byte's ACK and standalone_fct is HPCC's
// base RTT plus the wire bytes at the bottleneck rate, in whole ns.
void WriteFctTxt(TextSink& out, const ScenarioRun& run, const HpccFigures& hpcc) {
  struct Done {
    const FlowSpec* flow;
    size_t index;
    Time acked;
  };
  std::vector<Done> done;
  for (size_t i = 0; i < run.flows().size(); ++i) {
    const FlowSpec& f = run.flows()[i];
    if (!run.finish(f.id).IsInfinite()) done.push_back({&f, i, hpcc.Acked(i, run.finish(f.id))});
  }
  std::stable_sort(done.begin(), done.end(), [](const Done& a, const Done& b) {
    return a.acked < b.acked || (a.acked == b.acked && a.flow->id < b.flow->id);
  });
  for (const Done& d : done) {
    const FlowSpec* f = d.flow;
    const TransferRequest& r = run.request(f->id);
    AppendFormatted(out, "{:08x} {:08x} {} {} {} {} {} {}\n", HpccIp(r.src), HpccIp(r.dst), r.sport, r.dport, r.bytes,
                    f->start.ps() / 1000, (d.acked - f->start).ps() / 1000, hpcc.StandaloneFctNs(d.index, r.bytes));
  }
}

}  // namespace

uint32_t HpccIp(int node_id) {
  return 0x0b000001u + static_cast<uint32_t>(node_id / 256) * 0x10000u + static_cast<uint32_t>(node_id % 256) * 0x100u;
}

nlohmann::ordered_json BuildSummary(const ScenarioRun& run) {
  nlohmann::ordered_json s;
  const Scenario& sc = run.scenario();
  s["scenario"] = sc.name;
  s["model"] = run.network().name();
  s["seed"] = sc.seed;
  s["sim_time_ns"] = NsValue(run.sim_time());
  s["wall_s"] = run.wall_seconds();
  s["events"] = run.sim().events_processed();
  s["events_per_s"] = run.wall_seconds() > 0 ? static_cast<double>(run.sim().events_processed()) / run.wall_seconds() : 0.0;

  const Topology& t = run.topology();
  s["topology"] = {{"hosts", t.hosts().size()},
                   {"switches", t.num_nodes() - t.hosts().size()},
                   {"links", t.num_links()}};

  s["flows"] = FlowJson(Figures(run, 0, run.flows().size()));

  const NetworkTotals network = run.network().RunTotals();
  const PayloadTotals& totals = network.payload;
  s["bytes"] = {{"sent", totals.sent},           {"delivered", totals.delivered},
                {"dropped", totals.dropped},     {"discarded", totals.discarded},
                {"in_flight", totals.in_flight}, {"retransmitted", totals.retransmitted}};
  uint64_t drops = 0, pause_ps = 0, ecn_marks = 0, pfc_frames = 0, pfc_storms = 0;
  double max_util = 0, util_sum = 0;
  std::string busiest;
  for (const Port& port : t.ports()) {
    const PortCounters c = run.LinkCounters(port.id);
    drops += c.drop_packets;
    pause_ps += c.pfc_pause_ps;
    ecn_marks += c.ecn_marks;
    pfc_frames += c.pfc_frames_tx;
    pfc_storms += c.pfc_storms;
    const double u = Utilization(run, port);
    util_sum += u;
    if (u > max_util) {
      max_util = u;
      busiest = t.node(port.node).name + "->" + t.node(port.peer).name;
    }
  }
  s["drops"] = drops;
  s["pfc_pause_ns"] = NsValue(Time::FromPs(static_cast<int64_t>(pause_ps)));
  s["pfc_frames"] = pfc_frames;
  s["pfc_storms"] = pfc_storms;
  s["pfc_deadlocks"] = network.pfc_deadlocks;
  s["ecn_marks"] = ecn_marks;
  s["retransmitted_bytes"] = totals.retransmitted;
  s["out_of_order_packets"] = network.out_of_order_packets;
  s["timeouts"] = network.timeouts;
  s["cnps"] = network.cnps;
  s["acks"] = network.acks;
  s["links"] = {{"max_util", max_util},
                {"mean_util", t.ports().empty() ? 0.0 : util_sum / static_cast<double>(t.ports().size())},
                {"busiest", busiest}};

  nlohmann::ordered_json workloads = nlohmann::ordered_json::array();
  for (const WorkloadSlice& slice : run.slices()) {
    nlohmann::ordered_json w = FlowJson(Figures(run, slice.first, slice.count));
    w["kind"] = slice.kind;
    workloads.push_back(std::move(w));
  }
  s["workload"] = std::move(workloads);
  // Only a scenario with faults has the section, so other outputs stay as they were.
  if (!sc.faults.empty()) s["faults"] = FaultsJson(run.network().FaultOutcomes());
  s["warnings"] = WarningsJson(run.warnings());
  return s;
}

nlohmann::ordered_json WarningsJson(const std::vector<ScenarioWarning>& warnings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ScenarioWarning& w : warnings) {
    list.push_back({{"trap", ScenarioTrapName(w.trap)}, {"field", w.field}, {"message", w.message}});
  }
  return list;
}

Status WriteOutputs(const ScenarioRun& run, const nlohmann::ordered_json& summary, OutputFolder& out) {
  using Writer = void (*)(TextSink&, const ScenarioRun&, const HpccFigures&);
  const HpccFigures hpcc(run);
  for (const auto& [name, write] : {std::pair<const char*, Writer>{"flows.csv", WriteFlowsCsv},
                                    {"links.csv", WriteRunLinksCsv},
                                    {"fct.txt", WriteFctTxt}}) {
    const auto stream = [&run, &hpcc, w = write](TextSink& sink) { w(sink, run, hpcc); };
    if (Status st = out.Stream(name, stream); !st.ok()) return st;
  }
  if (Status st = out.Write("summary.json", summary.dump(2) + "\n"); !st.ok()) return st;
  if (!run.scenario().telemetry.enabled) return Status::Ok();
  const FabricObservation observation = ObserveRun(run);
  TelemetryInputs in;
  in.topology = &run.topology();
  in.observation = &observation;
  in.store = run.series();
  in.sim_time = run.sim_time();
  in.transfers_completed = run.completed();
  in.summary = &summary;
  return WriteTelemetryFiles(in, out);
}

}  // namespace aifabric
