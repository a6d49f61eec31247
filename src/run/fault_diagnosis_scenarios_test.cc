// The diagnosis finds a straggler and a gray link on real runs without
// being told (issue 18's must-show): a GPU at half speed in a
// data-parallel job is the top finding and costs the step exactly what
// its critical path says; a link corrupting 1% of its frames is the top
// finding with its exact ends, from its FCS counters; a leaf-spine link
// losing 1% of its packets silently, with every counter at 0, is the top
// finding with its exact ends, from the transfers' resends; a clean
// fabric has neither.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "diagnosis/diagnosis.h"
#include "run/job_run.h"
#include "run/run_observation.h"
#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Scenario LoadFaultScenario(const std::string& yaml) {
  Result<Scenario> s = LoadScenarioText(yaml, "fault.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

// Hears of the finished job and diagnoses what its run saw.
class DiagnosingReport final : public SimulationReport {
 public:
  Status OnJobFinished(const FinishedJob& job) override {
    const Topology& t = job.simulation.topology();
    findings = FindingsJson(t, Diagnose(t, ObserveJob(job)))["findings"];
    return Status::Ok();
  }
  Status OnServiceFinished(const FinishedService&) override { return Status::Ok(); }
  nlohmann::ordered_json findings;
};

constexpr Time kFirst = Time::FromUs(1000);   // forward and backward, before the all-reduce
constexpr Time kSecond = Time::FromUs(500);   // the optimizer step, after it

// 2 servers x 8 GPUs, data parallel: each GPU computes kFirst, all 16
// all-reduce 16 MiB of gradients, each computes kSecond.
JobGraph DataParallelStep() {
  JobGraphBuilder b;
  std::vector<GpuId> all;
  for (GpuId g = 0; g < 16; ++g) all.push_back(g);
  const uint32_t group = b.AddGroup(all);
  const JobNodeIndex ar = b.AddCollective(CollectiveOp::kAllReduce, group, 16 << 20, CommDimension::kData, 0);
  for (GpuId g = 0; g < 16; ++g) {
    b.AddEdge(b.AddCompute(g, kFirst, 1e12, 0), ar);
    b.AddEdge(ar, b.AddCompute(g, kSecond, 1e12, 0));
  }
  return std::move(b).Build().value();
}

// 2 servers of 8 GPUs, a 400G NIC each, all 16 NICs under leaf0 (so no
// uplink can congest and be the finding instead).
std::string ClusterYaml(const std::string& model) {
  return "cluster: {servers: 2, gpus_per_server: 8, gpu: H100, nic: {rate: 400Gbps, per_gpu: 1}}\n"
         "fabric: {kind: roce, topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}, switch: 64x400G}\n"
         "simulation: {model: " + model + "}\n";
}

struct StepRun {
  Time makespan;
  nlohmann::ordered_json findings;
};

StepRun RunStep(const std::string& yaml, const JobGraph& graph) {
  DiagnosingReport report;
  RunHooks hooks;
  hooks.report = &report;
  Result<JobRunResult> r = RunJob(LoadFaultScenario(yaml), graph, "dp_job", 0, 0, hooks);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return {r.ok() ? r->makespan : Time::Zero(), report.findings};
}

TEST(FaultDiagnosisScenarios, AHalfSpeedGpuIsTheTopFindingAndCostsItsCriticalPath) {
  // The critical path by hand. Without the straggler every GPU's first
  // kernel ends at kFirst, the all-reduce takes A, the second kernels end
  // at kFirst + A + kSecond. GPU 5 at half speed from t = 0: its first
  // kernel ends at 2 kFirst, the all-reduce waits for it (every other GPU
  // idles kFirst), takes the same A on the same idle fabric, and GPU 5's
  // second kernel ends kSecond after the others': the step is
  // kFirst + kSecond = 1.5 ms longer, and that is what GPU 5 held the two
  // synchronisation points (the all-reduce and the end) back by.
  const JobGraph graph = DataParallelStep();
  const std::string straggler = "faults: [{kind: straggler, gpu: 5, at: 0, factor: 0.5}]\n";
  for (const char* model : {"flow", "analytic", "packet"}) {
    SCOPED_TRACE(model);
    const StepRun clean = RunStep(ClusterYaml(model), graph);
    const StepRun slow = RunStep(ClusterYaml(model) + straggler, graph);
    const Time expected = kFirst + kSecond;
    // At packet level the all-reduce starts kFirst later on a fabric as
    // idle as before; its packets see the same queues, so it takes the
    // same time to the picosecond (nothing in the model keys on absolute
    // time but the faults' own schedule).
    EXPECT_EQ(slow.makespan - clean.makespan, expected);
    for (const auto& f : clean.findings) EXPECT_NE(f["kind"], "straggler");
    ASSERT_FALSE(slow.findings.empty());
    const auto& top = slow.findings[0];
    EXPECT_EQ(top["kind"], "straggler");
    EXPECT_EQ(top["node"], "h5");  // GPU 5's NIC
    EXPECT_TRUE(top["port_peer"].is_null());
    EXPECT_EQ(top["evidence"]["gpu"], 5);
    // Its kernels took 2 x 1.5 ms against its peers' 1.5 ms.
    EXPECT_EQ(top["evidence"]["compute_speed"].get<double>(), 0.5);
    EXPECT_EQ(top["evidence"]["step_cost_ns"].get<double>(), expected.ns_f());
    // 15 GPUs waited kFirst at the all-reduce and kSecond at the end.
    EXPECT_EQ(top["evidence"]["others_waited_ns"].get<double>(), (expected * 15).ns_f());
  }
}

// Three flows inside leaf0 (h0 -> h4, h1 -> h5, h2 -> h6), 4 MiB each;
// `faults` on top. No flow crosses an uplink, so nothing but the gray
// link can lose a frame.
nlohmann::ordered_json DiagnoseFlows(const std::string& faults) {
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(LoadFaultScenario(
      ClusterYaml("packet") +
      "workload:\n"
      "  - flows: [{src: 0, dst: 4, size: 4MiB}, {src: 1, dst: 5, size: 4MiB}, {src: 2, dst: 6, size: 4MiB}]\n" +
      faults));
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run.ok()) return {};
  (*run)->Execute();
  EXPECT_EQ((*run)->completed(), 3u);
  const Topology& t = (*run)->topology();
  return FindingsJson(t, Diagnose(t, ObserveRun(**run)))["findings"];
}

TEST(FaultDiagnosisScenarios, AOnePercentCorruptingLinkIsTheTopFindingWithItsEnds) {
  const nlohmann::ordered_json f =
      DiagnoseFlows("faults: [{kind: gray_link, link: [h2, leaf0], at: 0, corruption_rate: 0.01}]\n");
  ASSERT_FALSE(f.empty());
  const auto& top = f[0];
  EXPECT_EQ(top["kind"], "gray_link");
  // The link's two ends; it names the direction that lost more of its
  // frames (h2's data or leaf0's acknowledgements to it).
  const std::set<std::string> ends{top["node"].get<std::string>(), top["port_peer"].get<std::string>()};
  EXPECT_EQ(ends, (std::set<std::string>{"h2", "leaf0"}));
  const auto& e = top["evidence"];
  EXPECT_EQ(e["found_by"], "fcs_errors");
  EXPECT_GE(e["loss_rate"].get<double>(), e["reverse_loss_rate"].get<double>());
  // About 1% of what crossed it: 4 MiB is 1024 frames of 4 KiB, so the
  // count of losses is binomial(1024+, 0.01): mean >= 10.24, sd ~3.2;
  // five sd either side of 1% is [0.0, 0.026].
  EXPECT_GT(e["loss_rate"].get<double>(), 0.0);
  EXPECT_LT(e["loss_rate"].get<double>(), 0.026);
  // The flow on it resent what was lost.
  EXPECT_GT(e["bytes_resent"].get<uint64_t>(), 0u);
  for (size_t i = 1; i < f.size(); ++i) EXPECT_NE(f[i]["kind"], "gray_link");
}

TEST(FaultDiagnosisScenarios, ACleanFabricHasNoGrayLink) {
  for (const auto& f : DiagnoseFlows("")) EXPECT_NE(f["kind"], "gray_link");
}

// 8 hosts, two under each of 4 leaves, 2 spines, 400G everywhere, RoCEv2
// with PFC (lossless: no congestion drop), at packet level; an all-to-all
// of 1 MiB per pair (56 flows of 256 packets of 4 KiB), ECMP per flow.
// `faults` on top.
struct AllToAllRun {
  FabricObservation observation;
  std::vector<FaultOutcome> outcomes;
  nlohmann::ordered_json findings;
  Topology topology;
};

AllToAllRun RunAllToAll(const std::string& faults) {
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(LoadFaultScenario(
      "seed: 7\n"
      "cluster: {servers: 8, gpus_per_server: 1, gpu: H100, nic: {rate: 400Gbps, per_gpu: 1}}\n"
      "fabric: {kind: roce, topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}, switch: 64x400G}\n"
      "simulation: {model: packet}\n"
      "workload:\n"
      "  - all_to_all: {size: 1MiB}\n" +
      faults));
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run.ok()) return {};
  (*run)->Execute();
  EXPECT_EQ((*run)->completed(), 56u);
  AllToAllRun out;
  out.topology = (*run)->topology();
  out.observation = ObserveRun(**run);
  out.outcomes = (*run)->network().FaultOutcomes();
  out.findings = FindingsJson(out.topology, Diagnose(out.topology, out.observation))["findings"];
  return out;
}

PortId PortBetween(const Topology& t, const std::string& from, const std::string& to) {
  for (PortId p : t.node(t.FindByName(from)).ports) {
    if (t.node(t.port(p).peer).name == to) return p;
  }
  ADD_FAILURE() << "no port " << from << " -> " << to;
  return kNoPort;
}

bool Crosses(const TransferObservation& x, PortId p) {
  return std::find(x.path.begin(), x.path.end(), p) != x.path.end();
}

TEST(FaultDiagnosisScenarios, ASilentOnePercentLossIsTheTopFindingFromTheResendsAlone) {
  const AllToAllRun r = RunAllToAll("faults: [{kind: gray_link, link: [leaf0, spine1], at: 0, loss_rate: 0.01}]\n");
  const Topology& t = r.topology;
  const PortId up = PortBetween(t, "leaf0", "spine1"), down = PortBetween(t, "spine1", "leaf0");
  // The simulator knows it lost packets...
  ASSERT_EQ(r.outcomes.size(), 1u);
  ASSERT_TRUE(r.outcomes[0].packets_lost.has_value());
  EXPECT_GT(*r.outcomes[0].packets_lost, 0u);
  // ... and no counter of the fabric does: no port counted a drop or an
  // FCS error (PFC keeps congestion lossless, and the loss is silent).
  for (const PortObservation& p : r.observation.ports) {
    EXPECT_EQ(p.drop_packets, 0u) << "port " << p.port;
    EXPECT_EQ(p.fcs_error_packets, 0u) << "port " << p.port;
  }
  // The figures the finding must give, from the run's own paths and
  // resends: a transfer crossing the link in either direction sends 256
  // packets over it and resends unless all survive, probability 0.99^256
  // = 0.076; a transfer that does not cross it loses nothing.
  size_t crossing = 0, resending = 0, resending_up = 0, resending_down = 0, flows_up = 0, flows_down = 0;
  uint64_t resent = 0, crossing_bytes = 0;
  for (const TransferObservation& x : r.observation.transfers) {
    EXPECT_TRUE(x.single_path);
    EXPECT_TRUE(x.earlier_path.empty());  // a gray link is never routed around
    const bool on_up = Crosses(x, up), on_down = Crosses(x, down);
    if (!on_up && !on_down) {
      EXPECT_EQ(x.resent_bytes, 0u) << "flow " << x.id << " does not cross leaf0 - spine1";
      continue;
    }
    ++crossing;
    crossing_bytes += x.bytes;
    flows_up += on_up;
    flows_down += on_down;
    if (x.resent_bytes == 0) continue;
    ++resending;
    resending_up += on_up;
    resending_down += on_down;
    resent += x.resent_bytes;
  }
  // ECMP spreads the 24 flows leaving leaf0's hosts for other leaves, and
  // the 24 entering them, over two spines: some of each cross spine1.
  EXPECT_GT(flows_up, 0u);
  EXPECT_GT(flows_down, 0u);
  EXPECT_GE(resending, 2u);

  ASSERT_FALSE(r.findings.empty());
  const auto& top = r.findings[0];
  EXPECT_EQ(top["kind"], "gray_link");
  // The direction more resending flows crossed (ties: the higher share,
  // then the lower port id).
  // The shares resending / flows of each direction, cross-multiplied.
  const size_t share_up = resending_up * flows_down, share_down = resending_down * flows_up;
  const bool up_named = resending_up != resending_down ? resending_up > resending_down
                        : share_up != share_down       ? share_up > share_down
                                                       : up < down;
  EXPECT_EQ(top["node"], up_named ? "leaf0" : "spine1");
  EXPECT_EQ(top["port_peer"], up_named ? "spine1" : "leaf0");
  // This seed's paths and draws: 9 flows cross the link, 5 leaving leaf0
  // and 4 entering it; 8 resent, 4 each way, so the share decides: 4 of 4
  // into leaf0 against 4 of 5 out. The finding: spine1 -> leaf0.
  EXPECT_EQ(crossing, 9u);
  EXPECT_EQ(flows_up, 5u);
  EXPECT_EQ(resending, 8u);
  EXPECT_EQ(resending_down, 4u);
  EXPECT_EQ(top["node"], "spine1");
  EXPECT_EQ(top["port_peer"], "leaf0");
  const auto& e = top["evidence"];
  EXPECT_EQ(e["found_by"], "resend_tomography");
  EXPECT_EQ(e["resending_flows"].get<size_t>(), resending);
  EXPECT_EQ(e["flows_crossing"].get<size_t>(), crossing);
  EXPECT_EQ(e["direction_resending_flows"].get<size_t>(), up_named ? resending_up : resending_down);
  EXPECT_EQ(e["reverse_resending_flows"].get<size_t>(), up_named ? resending_down : resending_up);
  EXPECT_EQ(e["bytes_resent"].get<uint64_t>(), resent);
  EXPECT_EQ(e["resent_rate"].get<double>(),
            std::round(static_cast<double>(resent) / static_cast<double>(crossing_bytes) * 1e4) / 1e4);
  // Nothing else is blamed for a loss.
  for (size_t i = 1; i < r.findings.size(); ++i) {
    EXPECT_NE(r.findings[i]["kind"], "gray_link") << r.findings[i].dump();
    EXPECT_NE(r.findings[i]["kind"], "drops") << r.findings[i].dump();
  }
}

TEST(FaultDiagnosisScenarios, TheSameLinkCorruptingIsFoundByItsCounters) {
  // The same 1% as corrupted frames: the ports of the link count every
  // one as an FCS error, and the finding comes from them.
  const AllToAllRun r =
      RunAllToAll("faults: [{kind: gray_link, link: [leaf0, spine1], at: 0, corruption_rate: 0.01}]\n");
  const Topology& t = r.topology;
  const PortId up = PortBetween(t, "leaf0", "spine1"), down = PortBetween(t, "spine1", "leaf0");
  ASSERT_EQ(r.outcomes.size(), 1u);
  const uint64_t fcs = r.observation.ports[static_cast<size_t>(up)].fcs_error_packets +
                       r.observation.ports[static_cast<size_t>(down)].fcs_error_packets;
  EXPECT_EQ(fcs, r.outcomes[0].packets_lost.value_or(0));
  EXPECT_GT(fcs, 0u);
  ASSERT_FALSE(r.findings.empty());
  const auto& top = r.findings[0];
  EXPECT_EQ(top["kind"], "gray_link");
  EXPECT_EQ(top["evidence"]["found_by"], "fcs_errors");
  const std::set<std::string> ends{top["node"].get<std::string>(), top["port_peer"].get<std::string>()};
  EXPECT_EQ(ends, (std::set<std::string>{"leaf0", "spine1"}));
  for (size_t i = 1; i < r.findings.size(); ++i) EXPECT_NE(r.findings[i]["kind"], "gray_link");
}

TEST(FaultDiagnosisScenarios, ASilentLossRunRepeatsExactly) {
  // The same seed: the same losses, resends and findings, to the byte.
  const std::string fault = "faults: [{kind: gray_link, link: [leaf0, spine1], at: 0, loss_rate: 0.01}]\n";
  const AllToAllRun a = RunAllToAll(fault), b = RunAllToAll(fault);
  EXPECT_EQ(a.findings, b.findings);
  ASSERT_EQ(a.observation.transfers.size(), b.observation.transfers.size());
  for (size_t i = 0; i < a.observation.transfers.size(); ++i) {
    EXPECT_EQ(a.observation.transfers[i].resent_bytes, b.observation.transfers[i].resent_bytes);
    EXPECT_EQ(a.observation.transfers[i].finish, b.observation.transfers[i].finish);
  }
  EXPECT_EQ(a.outcomes[0].packets_lost, b.outcomes[0].packets_lost);
  EXPECT_EQ(a.outcomes[0].bytes_resent, b.outcomes[0].bytes_resent);
}

TEST(FaultDiagnosisScenarios, AnAllToAllOnACleanFabricResendsNothing) {
  const AllToAllRun r = RunAllToAll("");
  for (const TransferObservation& x : r.observation.transfers) EXPECT_EQ(x.resent_bytes, 0u);
  for (const auto& f : r.findings) EXPECT_NE(f["kind"], "gray_link");
}

}  // namespace
}  // namespace aifabric
