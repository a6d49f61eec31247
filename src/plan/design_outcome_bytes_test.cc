#include "plan/design_outcome_bytes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace aifabric {
namespace {

DesignOutcome SampleOutcome() {
  DesignOutcome o;
  o.design.name = "roce-400g-fat_tree-1to1-64x400G";
  o.scenario_yaml = "name: x\nseed: 1\n";
  o.bill.lines.push_back(BillLine{"switch", "64x400G", "leaf", 8, 30000.5, 550.25, true});
  o.bill.lines.push_back(BillLine{"link", "DAC-400G", "host-leaf", 256, 0.1 + 0.2, 1.0 / 3.0, false});
  o.bill.switches = 12;
  o.bill.links = 384;
  o.bill.tiers = 2;
  o.cost = CostOfOwnership{1e6 / 7, 5432.1, 1.0 / 9, 2e6 / 3, 3e7, 123456.789};
  WorkloadOutcome w;
  w.name = "llama3-8b";
  w.kind = "training";
  w.fits = false;
  w.memory_per_gpu_bytes = (uint64_t{1} << 40) + 3;
  w.parallelism = "tp8 pp1 dp4";
  w.tp = 8;
  w.pp = 1;
  w.dp = 4;
  w.ep = 2;
  w.gpus = 32;
  w.step_time_s = 1.2345678901234567;
  w.mfu = std::nextafter(0.4, 1.0);
  w.effective_gpu_utilization = 0.69;
  w.tokens_per_s = 113334.25;
  w.bottleneck = "data parallel";
  w.bottleneck_dimension = CommDimension::kData;
  w.exposed_comm_s = std::numeric_limits<double>::denorm_min();
  w.bottleneck_tier = "leaf-spine";
  w.bottleneck_link = "leaf3 -> spine1";
  w.bottleneck_link_busy = 0.62;
  w.goodput_per_s = -0.0;
  w.ttft_p50_s = 1e-300;
  w.tpot_p50_s = 2e300;
  w.slo_attainment = 0.1 + 0.2;  // 0.30000000000000004: every bit must survive
  o.workloads = {w, w};
  o.workloads[1].name = "second";
  o.effective_gpu_utilization = 0.5 + 1e-16;
  o.useful_gpu_hours = 1.4e6;
  o.useful_gpu_hours_per_usd = 0.6163;
  o.wall_s = 5.3;
  return o;
}

// Every field comes back with the same bits (so a plan gathered from
// processes is the plan of one); the Design is the one the receiver gives.
TEST(DesignOutcomeBytes, EveryFieldRoundTripsExactly) {
  const DesignOutcome o = SampleOutcome();
  Result<DesignOutcome> back = DecodeDesignOutcome(EncodeDesignOutcome(o), o.design);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->design.name, o.design.name);
  EXPECT_EQ(back->scenario_yaml, o.scenario_yaml);
  ASSERT_EQ(back->bill.lines.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back->bill.lines[i].category, o.bill.lines[i].category);
    EXPECT_EQ(back->bill.lines[i].part, o.bill.lines[i].part);
    EXPECT_EQ(back->bill.lines[i].where, o.bill.lines[i].where);
    EXPECT_EQ(back->bill.lines[i].count, o.bill.lines[i].count);
    EXPECT_EQ(back->bill.lines[i].unit_price_usd, o.bill.lines[i].unit_price_usd);
    EXPECT_EQ(back->bill.lines[i].unit_power_w, o.bill.lines[i].unit_power_w);
    EXPECT_EQ(back->bill.lines[i].price_assumed, o.bill.lines[i].price_assumed);
  }
  EXPECT_EQ(back->bill.switches, 12);
  EXPECT_EQ(back->bill.links, 384);
  EXPECT_EQ(back->bill.tiers, 2);
  EXPECT_EQ(back->cost.network_capex_usd, o.cost.network_capex_usd);
  EXPECT_EQ(back->cost.network_power_w, o.cost.network_power_w);
  EXPECT_EQ(back->cost.network_energy_usd, o.cost.network_energy_usd);
  EXPECT_EQ(back->cost.network_tco_usd, o.cost.network_tco_usd);
  EXPECT_EQ(back->cost.gpu_capex_usd, o.cost.gpu_capex_usd);
  EXPECT_EQ(back->cost.gpu_energy_usd, o.cost.gpu_energy_usd);
  ASSERT_EQ(back->workloads.size(), 2u);
  const WorkloadOutcome& w = back->workloads[0];
  const WorkloadOutcome& e = o.workloads[0];
  EXPECT_EQ(w.name, e.name);
  EXPECT_EQ(w.kind, e.kind);
  EXPECT_EQ(w.fits, e.fits);
  EXPECT_EQ(w.memory_per_gpu_bytes, e.memory_per_gpu_bytes);
  EXPECT_EQ(w.parallelism, e.parallelism);
  EXPECT_EQ(w.tp, 8);
  EXPECT_EQ(w.pp, 1);
  EXPECT_EQ(w.dp, 4);
  EXPECT_EQ(w.ep, 2);
  EXPECT_EQ(w.gpus, e.gpus);
  EXPECT_EQ(w.step_time_s, e.step_time_s);
  EXPECT_EQ(w.mfu, e.mfu);
  EXPECT_EQ(w.effective_gpu_utilization, e.effective_gpu_utilization);
  EXPECT_EQ(w.tokens_per_s, e.tokens_per_s);
  EXPECT_EQ(w.bottleneck, e.bottleneck);
  EXPECT_EQ(w.bottleneck_dimension, e.bottleneck_dimension);
  EXPECT_EQ(w.exposed_comm_s, e.exposed_comm_s);
  EXPECT_EQ(w.bottleneck_tier, "leaf-spine");
  EXPECT_EQ(w.bottleneck_link, "leaf3 -> spine1");
  EXPECT_EQ(w.bottleneck_link_busy, 0.62);
  EXPECT_TRUE(std::signbit(w.goodput_per_s));
  EXPECT_EQ(w.ttft_p50_s, e.ttft_p50_s);
  EXPECT_EQ(w.tpot_p50_s, e.tpot_p50_s);
  EXPECT_EQ(w.slo_attainment, 0.1 + 0.2);
  EXPECT_EQ(back->workloads[1].name, "second");
  EXPECT_EQ(back->effective_gpu_utilization, o.effective_gpu_utilization);
  EXPECT_EQ(back->useful_gpu_hours, o.useful_gpu_hours);
  EXPECT_EQ(back->useful_gpu_hours_per_usd, o.useful_gpu_hours_per_usd);
  EXPECT_EQ(back->wall_s, o.wall_s);
  // And encoding what came back gives the same bytes.
  EXPECT_EQ(EncodeDesignOutcome(*back), EncodeDesignOutcome(o));
}

TEST(DesignOutcomeBytes, CutOrPaddedBytesAreAnError) {
  const DesignOutcome o = SampleOutcome();
  const std::string bytes = EncodeDesignOutcome(o);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeDesignOutcome(bytes.substr(0, n), o.design).ok()) << n;
  }
  Result<DesignOutcome> padded = DecodeDesignOutcome(bytes + "x", o.design);
  ASSERT_FALSE(padded.ok());
  EXPECT_NE(padded.error().message.find("left over"), std::string::npos);
}

TEST(DesignOutcomeBytes, PacketCheckRoundTripsExactly) {
  PacketCheck c;
  c.scenario_yaml = "name: copy\n";
  c.servers = 16;
  c.gpus = 128;
  c.workloads.push_back(PacketCheckWorkload{"llama3-70b", "tp8 pp4 dp4", 0.1 + 0.2, 1.0 / 3.0});
  c.workloads.push_back(PacketCheckWorkload{"gpt3-175b", "tp8 pp8 dp2", 2e-300, 7.0});
  c.error_bar = std::nextafter(0.05, 1.0);
  c.wall_s = 12.5;
  const std::string bytes = EncodePacketCheck(c);
  Result<PacketCheck> back = DecodePacketCheck(bytes);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->scenario_yaml, c.scenario_yaml);
  EXPECT_EQ(back->servers, 16);
  EXPECT_EQ(back->gpus, 128);
  ASSERT_EQ(back->workloads.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back->workloads[i].name, c.workloads[i].name);
    EXPECT_EQ(back->workloads[i].parallelism, c.workloads[i].parallelism);
    EXPECT_EQ(back->workloads[i].flow_step_time_s, c.workloads[i].flow_step_time_s);
    EXPECT_EQ(back->workloads[i].packet_step_time_s, c.workloads[i].packet_step_time_s);
  }
  EXPECT_EQ(back->error_bar, c.error_bar);
  EXPECT_EQ(back->wall_s, c.wall_s);
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(DecodePacketCheck(bytes.substr(0, n)).ok()) << n;
}

}  // namespace
}  // namespace aifabric
