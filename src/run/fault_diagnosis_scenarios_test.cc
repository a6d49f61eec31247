// The diagnosis finds a straggler and a gray link on real runs without
// being told (issue 18's must-show): a GPU at half speed in a
// data-parallel job is the top finding and costs the step exactly what
// its critical path says; a link losing 1% of its frames is the top
// finding with its exact ends; a clean fabric has neither.
#include <gtest/gtest.h>

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

TEST(FaultDiagnosisScenarios, AOnePercentGrayLinkIsTheTopFindingWithItsEnds) {
  const nlohmann::ordered_json f =
      DiagnoseFlows("faults: [{kind: gray_link, link: [h2, leaf0], at: 0, loss_rate: 0.01}]\n");
  ASSERT_FALSE(f.empty());
  const auto& top = f[0];
  EXPECT_EQ(top["kind"], "gray_link");
  // The link's two ends; it names the direction that lost more of its
  // frames (h2's data or leaf0's acknowledgements to it).
  const std::set<std::string> ends{top["node"].get<std::string>(), top["port_peer"].get<std::string>()};
  EXPECT_EQ(ends, (std::set<std::string>{"h2", "leaf0"}));
  const auto& e = top["evidence"];
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

}  // namespace
}  // namespace aifabric
