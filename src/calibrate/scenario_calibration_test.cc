// A scenario's `calibration: FILE` reaches the collective model: hand-checked.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "run/collective_run.h"
#include "run/job_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// A folder with `scenario.yaml` (one server of 8 H100, flow level) naming
// `cal.yaml` with `calibration_text`.
std::string WriteScenario(const std::string& name, const std::string& calibration_text) {
  const fs::path dir = fs::temp_directory_path() / ("aifabric_calibration_" + name);
  fs::create_directories(dir);
  std::ofstream(dir / "cal.yaml") << calibration_text;
  std::ofstream(dir / "scenario.yaml")
      << "name: one_server\ncalibration: cal.yaml\n"
         "cluster: {servers: 1, gpus_per_server: 8, gpu: H100, nic: {model: CX7-400G, per_gpu: 1}}\n"
         "fabric: {kind: roce, topology: {type: leaf_spine}, switch: 64x400G, mtu: 4KiB}\n"
         "simulation: {model: flow}\n";
  return (dir / "scenario.yaml").string();
}

double RingSimpleAllReduceUs(const Scenario& s, uint64_t bytes) {
  CollectiveRequest r;
  r.algorithm = CollectiveAlgorithm::kRing;
  r.protocol = CollectiveProtocol::kSimple;
  r.sizes = {bytes};
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, r);
  EXPECT_TRUE(sweep.ok()) << sweep.error().message;
  return sweep->times.at(0).us_f();
}

// A calibration file with Simple's ring base latency 50 us and NVLink
// step 10 us (built in: 8.4 and 3.4); LL and LL128 as built in.
constexpr const char* kSimpleLatencies =
    "nccl:\n"
    "  base_latency_us:\n    ring: [6.6, 14, 50]\n"
    "  hw_latency_us:\n    nvlink:\n      ring: [0.6, 1.9, 10]\n";

TEST(ScenarioCalibration, TheFilesLatenciesReplaceTheBuiltInOnes) {
  const std::string path = WriteScenario("latency", kSimpleLatencies);
  Result<Scenario> calibrated = LoadScenarioFile(path, {});
  ASSERT_TRUE(calibrated.ok()) << calibrated.error().message;
  Result<Scenario> built_in = LoadScenarioFile(path, {"calibration=" + path + ".none"});
  ASSERT_FALSE(built_in.ok());  // a missing file is an error naming the field
  EXPECT_NE(built_in.error().message.find("calibration"), std::string::npos) << built_in.error().message;
  Scenario plain = *calibrated;
  plain.calibration.reset();
  // Ring all-reduce on 8 GPUs of one server, 1 KiB: the latency chain
  // dominates, base + 2(n-1) x (step + NVLink path latency), so the
  // difference between the two runs is
  //   (50 - 8.4) + 14 x (10 - 3.4) = 41.6 + 92.4 = 134 us
  // (built-in Simple ring: base 8.4, NVLink step 3.4; data/calibration.yaml).
  const double diff = RingSimpleAllReduceUs(*calibrated, 1024) - RingSimpleAllReduceUs(plain, 1024);
  EXPECT_NEAR(diff, 134.0, 1e-6);
  // The rest of the built-in table is still there.
  EXPECT_DOUBLE_EQ(calibrated->calibration_spec().nccl_net_us.ring[2], 14);
  EXPECT_DOUBLE_EQ(calibrated->calibration_spec().compute_efficiency, BuiltInCalibration().compute_efficiency);
}

TEST(ScenarioCalibration, AJobsCollectivesTakeTheFilesLatenciesToo) {
  // The same 1 KiB ring all-reduce over the server's 8 GPUs, as the one
  // collective of a job (what a training step or a Chakra trace runs): its
  // time grows by the same (50 - 8.4) + 14 x (10 - 3.4) = 134 us.
  const std::string path = WriteScenario("job_latency", kSimpleLatencies);
  Result<Scenario> calibrated = LoadScenarioFile(path, {});
  ASSERT_TRUE(calibrated.ok()) << calibrated.error().message;
  Scenario plain = *calibrated;
  plain.calibration.reset();
  JobGraphBuilder b;
  const uint32_t group = b.AddGroup({0, 1, 2, 3, 4, 5, 6, 7});
  b.AddCollective(CollectiveOp::kAllReduce, group, 1024, CommDimension::kOther, b.AddLabel("all_reduce"),
                  CollectiveAlgorithm::kRing);
  Result<JobGraph> graph = std::move(b).Build();
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  Result<JobRunResult> with = RunJob(*calibrated, *graph, "job");
  Result<JobRunResult> without = RunJob(plain, *graph, "job");
  ASSERT_TRUE(with.ok()) << with.error().message;
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_NEAR((with->makespan - without->makespan).us_f(), 134.0, 1e-6);
  // And the job's collective is timed as `aifabric collective` times it.
  EXPECT_NEAR(with->makespan.us_f(), RingSimpleAllReduceUs(*calibrated, 1024), 1e-6);
}

TEST(ScenarioCalibration, BusEfficienciesScaleTheRates) {
  const std::string path = WriteScenario("efficiency", "bus_efficiency:\n  nvlink: 0.5\n  nic: 0.25\n  source: test\n");
  Result<Scenario> s = LoadScenarioFile(path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  Result<Scenario> plain = LoadScenarioFile(path, {"calibration=../none"});
  // CX7-400G: 400 Gb/s x 0.25 = 100 Gb/s.
  EXPECT_EQ(s->topology.nic_rate.bps(), 100'000'000'000ull);
  Scenario unscaled = *s;
  unscaled.calibration.reset();
  unscaled.server.nvlink_per_dir = DataRate::BitsPerSecond(s->server.nvlink_per_dir.bps() * 2);
  // 1 GiB is bandwidth-bound: half the NVLink rate, twice the drain time;
  // the latencies (a few tens of us against ~3 ms) are the same in both, so
  // t(0.5) = 2 t(1) - latency, i.e. within 2% of twice.
  const double slow = RingSimpleAllReduceUs(*s, 1ull << 30), fast = RingSimpleAllReduceUs(unscaled, 1ull << 30);
  EXPECT_NEAR(slow / fast, 2.0, 0.02);
}

TEST(ScenarioCalibration, ABadFileNamesItsLineAndField) {
  const std::string path = WriteScenario("bad", "nccl:\n  base_latency_us:\n    ring: [6.6, 14]\n");
  Result<Scenario> s = LoadScenarioFile(path, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("cal.yaml:3: nccl.base_latency_us.ring: expected a list [LL, LL128, Simple]"),
            std::string::npos)
      << s.error().message;
  const std::string unknown = WriteScenario("unknown", "bus_efficiency:\n  nvlnk: 0.5\n");
  Result<Scenario> u = LoadScenarioFile(unknown, {});
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message.find("cal.yaml:2"), std::string::npos) << u.error().message;
  EXPECT_NE(u.error().message.find("nvlnk"), std::string::npos) << u.error().message;
}

}  // namespace
}  // namespace aifabric
