#include "calibrate/collective_fit.h"

#include <cstdio>
#include <gtest/gtest.h>

#include "run/collective_run.h"
#include "scenario/scenario_loader.h"
#include "workload/collective_sweep_report.h"
#include "test_paths.h"

namespace aifabric {
namespace {

// The default `aifabric collective` cluster (2 servers x 8 H100, one
// CX7-400G per GPU, rail-optimized RoCEv2) at flow level.
Scenario Cluster() {
  Result<Scenario> s = LoadScenarioText(DefaultCollectiveScenarioText(), "default", ".", {"simulation.model=flow"});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

// The figures a log is generated from, all away from the built-in ones.
struct Truth {
  double base_ll = 9.0, nvlink_ll = 1.0, net_ll = 4.0;        // built-in 6.6 / 0.6 / 2.7
  double base_simple = 12.0, nvlink_simple = 5.0, net_simple = 20.0;  // built-in 8.4 / 3.4 / 14
  double nvlink_efficiency = 0.8, nic_efficiency = 0.9;       // built-in 1 / 1
  double ll_efficiency = 0.7;                                 // built-in 1
};

// The cluster with the true figures, set by hand (not through the fitter).
Scenario TrueCluster(const Truth& t) {
  Scenario s = Cluster();
  CalibrationSpec c = BuiltInCalibration();
  c.nccl_base_us.ring = {t.base_ll, c.nccl_base_us.ring[1], t.base_simple};
  c.nccl_nvlink_us.ring = {t.nvlink_ll, c.nccl_nvlink_us.ring[1], t.nvlink_simple};
  c.nccl_net_us.ring = {t.net_ll, c.nccl_net_us.ring[1], t.net_simple};
  c.protocol_bus_efficiency[0] = t.ll_efficiency;
  s.calibration = c;
  s.server.nvlink_per_dir = DataRate::BitsPerSecond(static_cast<uint64_t>(s.server.nvlink_per_dir.bps() * t.nvlink_efficiency));
  s.topology.nic_rate = DataRate::BitsPerSecond(static_cast<uint64_t>(s.topology.nic_rate.bps() * t.nic_efficiency));
  return s;
}

// An nccl-tests log of `op` on `ranks` GPUs as NCCL_ALGO=Ring
// NCCL_PROTO=<protocol> would print it, with NCCL_DEBUG=INFO's tuner lines
// naming the choice per size, from the model run with the true figures.
std::string GeneratedLog(const Scenario& truth, CollectiveOp op, int ranks, CollectiveProtocol protocol,
                         std::vector<uint64_t> sizes) {
  CollectiveRequest r;
  r.op = op;
  r.gpus = ranks;
  r.algorithm = CollectiveAlgorithm::kRing;
  r.protocol = protocol;
  r.sizes = std::move(sizes);
  r.data_check = true;
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(truth, r);
  EXPECT_TRUE(sweep.ok()) << sweep.error().message;
  std::string text = "# nThread 1 nGpus 1 minBytes 1024 maxBytes 268435456 step: 4(factor) warmup iters: 5 iters: 20\n#\n# Using devices\n";
  char line[200];
  for (int k = 0; k < ranks; ++k) {
    std::snprintf(line, sizeof line, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0x%02x] NVIDIA H100 80GB HBM3\n", k,
                  1000 + k, k < 8 ? "node-a" : "node-b", k % 8, 16 * (k % 8));
    text += line;
  }
  const int proto = protocol == CollectiveProtocol::kLl ? 0 : protocol == CollectiveProtocol::kLl128 ? 1 : 2;
  for (const SweepRow& row : sweep->rows) {
    std::snprintf(line, sizeof line, "node-a:1000:1001 [0] NCCL INFO %llu Bytes -> Algo 1 proto %d time 1.00\n",
                  static_cast<unsigned long long>(row.bytes), proto);
    text += line;
  }
  return text + FormatSweepTable(sweep->rows, std::string(CollectiveOpName(op)) + "_perf");
}

double FigureValue(const CalibrationFit& fit, const std::string& name) {
  for (const FittedFigure& f : fit.figures) {
    if (f.Name() == name) return f.value;
  }
  ADD_FAILURE() << name << " was not fitted";
  return 0;
}

TEST(CollectiveFit, RecoversTheFiguresALogWasGeneratedFrom) {
  const Truth truth;
  const Scenario true_cluster = TrueCluster(truth);
  const std::vector<uint64_t> ll_sizes = {1 << 10, 16 << 10, 256 << 10, 4 << 20};
  const std::vector<uint64_t> simple_sizes = {1 << 10, 16 << 10, 256 << 10, 4 << 20, 64 << 20, 256 << 20};
  struct Spec {
    CollectiveOp op;
    int ranks;
    CollectiveProtocol protocol;
  };
  const Spec specs[] = {
      {CollectiveOp::kAllReduce, 8, CollectiveProtocol::kLl},     {CollectiveOp::kAllGather, 8, CollectiveProtocol::kLl},
      {CollectiveOp::kAllReduce, 8, CollectiveProtocol::kSimple}, {CollectiveOp::kAllGather, 8, CollectiveProtocol::kSimple},
      {CollectiveOp::kAllReduce, 16, CollectiveProtocol::kLl},    {CollectiveOp::kAllReduce, 16, CollectiveProtocol::kSimple},
  };
  std::vector<NcclTestsLog> logs;
  for (const Spec& s : specs) {
    const std::string text = GeneratedLog(true_cluster, s.op, s.ranks, s.protocol,
                                          s.protocol == CollectiveProtocol::kLl ? ll_sizes : simple_sizes);
    Result<NcclTestsLog> log = ParseNcclTestsLog(text, "generated.log");
    ASSERT_TRUE(log.ok()) << log.error().message;
    ASSERT_EQ(log->op, s.op);
    ASSERT_EQ(log->ranks, s.ranks);
    logs.push_back(*log);
  }
  CalibrationFitOptions options;
  options.cross_validate = false;
  Result<CalibrationFit> fit = FitCollectiveCalibration(Cluster(), logs, options);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->figures.size(), 9u);  // 3 latencies x 2 protocols, LL's efficiency, NVLink's and the NIC's
  const struct {
    const char* name;
    double value;
  } expected[] = {
      {"nccl.base_latency_us.ring[ll]", truth.base_ll},
      {"nccl.hw_latency_us.nvlink.ring[ll]", truth.nvlink_ll},
      {"nccl.hw_latency_us.net.ring[ll]", truth.net_ll},
      {"nccl.base_latency_us.ring[simple]", truth.base_simple},
      {"nccl.hw_latency_us.nvlink.ring[simple]", truth.nvlink_simple},
      {"nccl.hw_latency_us.net.ring[simple]", truth.net_simple},
      {"bus_efficiency.protocol[ll]", truth.ll_efficiency},
      {"bus_efficiency.nvlink", truth.nvlink_efficiency},
      {"bus_efficiency.nic", truth.nic_efficiency},
  };
  for (const auto& e : expected) {
    EXPECT_NEAR(FigureValue(*fit, e.name), e.value, 0.02 * e.value) << e.name;
  }
  // The fitted calibration carries them, so a scenario naming it runs them.
  EXPECT_NEAR(fit->calibration.nccl_base_us.ring[2], truth.base_simple, 0.02 * truth.base_simple);
  EXPECT_NEAR(fit->calibration.nic_bus_efficiency, truth.nic_efficiency, 0.02 * truth.nic_efficiency);
  for (const CalibrationPoint& p : fit->points) {
    EXPECT_NEAR(p.fitted_us, p.measured_us, 0.02 * p.measured_us) << p.bytes;
  }
}

TEST(CollectiveFit, EfficienciesStayPhysicalWhenTheLogIsFasterThanTheLinks) {
  // Logs of the built-in cluster (every efficiency 1) with every time cut
  // to 70%: the large sizes, bound by the 400G NICs, then move faster than
  // the NICs allow. A protocol's and the NIC's efficiency are fractions of
  // a rate, so they stop at 1 (the NIC's, where it starts, stays there);
  // NVLink's stops at the raw rate over the achievable one it starts from
  // (H100: 450 / 370.8 GB/s = 1.2136).
  const Scenario cluster = Cluster();
  std::vector<NcclTestsLog> logs;
  for (CollectiveProtocol protocol : {CollectiveProtocol::kLl, CollectiveProtocol::kSimple}) {
    const std::string text = GeneratedLog(cluster, CollectiveOp::kAllReduce, 16, protocol,
                                          {1 << 10, 256 << 10, 4 << 20, 64 << 20, 256 << 20});
    Result<NcclTestsLog> log = ParseNcclTestsLog(text, "generated.log");
    ASSERT_TRUE(log.ok()) << log.error().message;
    for (NcclTestsRow& row : log->rows) row.out_of_place.time_us *= 0.7;
    logs.push_back(*log);
  }
  CalibrationFitOptions options;
  options.cross_validate = false;
  Result<CalibrationFit> fit = FitCollectiveCalibration(cluster, logs, options);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_LE(FigureValue(*fit, "bus_efficiency.protocol[ll]"), 1.0 + 1e-12);
  EXPECT_NEAR(FigureValue(*fit, "bus_efficiency.nic"), 1.0, 1e-12);
  const double raw_over_achievable = 450.0 / 370.8;
  EXPECT_LE(FigureValue(*fit, "bus_efficiency.nvlink"), raw_over_achievable * (1 + 1e-9));
}

TEST(CollectiveFit, CrossValidationPredictsEachLeftOutSize) {
  // One log, one protocol: the left-out size is predicted by the fit of the others.
  Truth truth;
  const std::string text = GeneratedLog(TrueCluster(truth), CollectiveOp::kAllReduce, 8, CollectiveProtocol::kSimple,
                                        {1 << 10, 16 << 10, 256 << 10, 4 << 20, 64 << 20});
  Result<NcclTestsLog> log = ParseNcclTestsLog(text, "generated.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  Result<CalibrationFit> fit = FitCollectiveCalibration(Cluster(), {*log});
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  for (const CalibrationPoint& p : fit->points) {
    EXPECT_GT(p.held_out_size_us, 0);
    EXPECT_EQ(p.held_out_log_us, 0);  // one log: nothing to leave out
    // The model is exact for its own log, so even held out a size comes back close.
    EXPECT_NEAR(p.held_out_size_us, p.measured_us, 0.05 * p.measured_us) << p.bytes;
  }
}

TEST(CollectiveFit, ALogThatDoesNotFitTheClusterIsRejected) {
  Result<NcclTestsLog> log =
      ReadNcclTestsLog(std::string(AIFABRIC_SOURCE_DIR) + "/data/nccl_tests_logs/sendrecv_perf_a40x2_nccltests214.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  // 2 ranks on 2 hosts; servers of 8 GPUs would hold both on one.
  Result<CalibrationFit> fit = FitCollectiveCalibration(Cluster(), {*log});
  ASSERT_FALSE(fit.ok());
  EXPECT_NE(fit.error().message.find("2 ranks on 2 host(s), but the cluster's servers hold 8 GPUs each"),
            std::string::npos)
      << fit.error().message;
}

}  // namespace
}  // namespace aifabric
