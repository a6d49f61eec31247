// The calibration file: the figures REFERENCES.md gives, and refusal of bad files.
#include "workload/training_calibration.h"

#include <gtest/gtest.h>

#include "workload/model_data.h"

namespace aifabric {
namespace {

TEST(TrainingCalibration, BuiltInFigures) {
  const CalibrationSpec& c = BuiltInCalibration();
  EXPECT_DOUBLE_EQ(c.compute_efficiency, 0.60);
  EXPECT_FALSE(c.compute_source.empty());
  // Adam, fp32 gradients: read 4 + 12, write 12 + 2.
  EXPECT_DOUBLE_EQ(c.optimizer_bytes_per_param, 30);
  const NicBandwidthSpec* cx7 = c.FindNic("CX7-400G");
  ASSERT_NE(cx7, nullptr);
  EXPECT_NEAR(cx7->achievable_fraction(), 48.5 / 50, 1e-12);  // SimAI
  EXPECT_EQ(c.FindNic("nope"), nullptr);
  // NCCL tuning.cc: Ring base 6.6/14/8.4; NET Ring 2.7/4/14; NVLink Ring Simple 3.4.
  EXPECT_DOUBLE_EQ(c.nccl_base_us.ring[static_cast<int>(NcclProtocolIndex::kLl)], 6.6);
  EXPECT_DOUBLE_EQ(c.nccl_base_us.ring[static_cast<int>(NcclProtocolIndex::kSimple)], 8.4);
  EXPECT_DOUBLE_EQ(c.nccl_net_us.ring[static_cast<int>(NcclProtocolIndex::kLl128)], 4);
  EXPECT_DOUBLE_EQ(c.nccl_nvlink_us.ring[static_cast<int>(NcclProtocolIndex::kSimple)], 3.4);
  EXPECT_DOUBLE_EQ(c.nccl_net_us.nvls_tree[static_cast<int>(NcclProtocolIndex::kSimple)], 20.9);
  EXPECT_DOUBLE_EQ(c.nccl_net_overhead_us, 1.0);
  // NCCL's tuner: NVLS_TREE's bus-to-algorithm ratio 0.70 (two nodes)
  // against NVLS's 5/6.
  EXPECT_NEAR(c.nvls_tree_bus_efficiency, 0.70 / (5.0 / 6.0), 1e-12);
}

TEST(TrainingCalibration, BadFilesNameTheField) {
  const std::string good = kBuiltInCalibrationYaml;
  ASSERT_TRUE(ParseCalibration(good, "c.yaml").ok());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    Result<CalibrationSpec> r = ParseCalibration(text, "c.yaml");
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_NE(with("efficiency: 0.60", "efficiency: 1.5").find("compute.efficiency: expected a number in [0.000001, 1.000000]"),
            std::string::npos);
  EXPECT_NE(with("ring: [2.7, 4, 14]", "ring: [2.7, 4]").find("nccl.hw_latency_us.net.ring: expected a list [LL, LL128, Simple]"),
            std::string::npos);
  EXPECT_NE(with("achievable: 48.5GB/s", "achievable: 51GB/s").find("nic_bandwidth[0].achievable: exceeds the line rate"),
            std::string::npos);
  EXPECT_NE(with("nvls_tree: 0.84", "nvls_tree: 1.2").find("bus_efficiency.nvls_tree: expected a number in"),
            std::string::npos);
  EXPECT_NE(with("compute:", "bogus: 1\ncompute:").find("unknown field 'bogus'"), std::string::npos);
  EXPECT_NE(with("optimizer:", "optimiser:").find("top level: unknown field 'optimiser'"), std::string::npos);
}

}  // namespace
}  // namespace aifabric
