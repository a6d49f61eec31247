// Load balancing at flow level against the packet level: a permutation of
// 1 MiB flows on a k = 8 fat-tree (128 hosts, 100G, non-blocking),
// InfiniBand with credits, selective repeat and ECMP over all shortest
// paths. The figure is the permutation's mean FCT: every host sends one
// flow and receives one, so it is the mean of 128 flows' throughputs, the
// figure a collision halves. Spraying and adaptive routing at flow level
// are within 10% of the packet level's; ECMP hashing collides on the same
// paths at both levels and about doubles it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

struct Permutation {
  double mean_fct_us = 0;
  size_t at_ideal = 0;  // flows whose FCT is their FCT alone on the idle fabric
};

Permutation RunPermutation(const std::string& model, const std::string& balancing) {
  const std::string text =
      "name: lb\nseed: 7\n"
      "cluster: {servers: 128, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
      "fabric: {kind: ib, topology: {type: fat_tree, k: 8}, switch: 32x100G, mtu: 4KiB,"
      " ib: {routing: shortest_paths}, transport: {recovery: selective_repeat}, load_balancing: " +
      balancing + "}\nsimulation: {model: " + model + "}\nworkload:\n  - permutation: {size: 1MiB}\n";
  Result<Scenario> s = LoadScenarioText(text, "lb.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*s);
  EXPECT_TRUE(run.ok()) << run.error().message;
  ScenarioRun& r = **run;
  r.Execute();
  Permutation p;
  for (const FlowSpec& f : r.flows()) {
    EXPECT_FALSE(r.finish(f.id).IsInfinite());
    const Time fct = r.finish(f.id) - f.start;
    p.mean_fct_us += fct.us_f() / static_cast<double>(r.flows().size());
    p.at_ideal += fct == r.ideal_fct(f.id);
  }
  return p;
}

TEST(LoadBalancingAgreement, FlowLevelSprayAndAdaptiveAgreeWithPacketLevelOnAFatTreePermutation) {
  const Permutation ecmp_packet = RunPermutation("packet", "ecmp"), ecmp_flow = RunPermutation("flow", "ecmp");
  const Permutation spray_packet = RunPermutation("packet", "spray"), spray_flow = RunPermutation("flow", "spray");
  const Permutation adaptive_packet = RunPermutation("packet", "adaptive"), adaptive_flow = RunPermutation("flow", "adaptive");
  std::printf("permutation mean FCT (us), packet / flow: ECMP %.2f / %.2f, spray %.2f / %.2f, adaptive %.2f / %.2f\n",
              ecmp_packet.mean_fct_us, ecmp_flow.mean_fct_us, spray_packet.mean_fct_us, spray_flow.mean_fct_us,
              adaptive_packet.mean_fct_us, adaptive_flow.mean_fct_us);
  EXPECT_NEAR(spray_flow.mean_fct_us, spray_packet.mean_fct_us, 0.10 * spray_packet.mean_fct_us);
  EXPECT_NEAR(adaptive_flow.mean_fct_us, adaptive_packet.mean_fct_us, 0.10 * adaptive_packet.mean_fct_us);
  EXPECT_NEAR(ecmp_flow.mean_fct_us, ecmp_packet.mean_fct_us, 0.10 * ecmp_packet.mean_fct_us);
  // Spread over every shortest path, a permutation loads no link of a
  // non-blocking fat-tree beyond one host's rate (a leaf's up-ports carry
  // 1/4 of each of its 4 hosts' flows, and so on up and down), so at flow
  // level every flow runs at its rate alone: FCT = ideal FCT, for all 128.
  EXPECT_EQ(spray_flow.at_ideal, 128u);
  EXPECT_EQ(adaptive_flow.at_ideal, 128u);
  // ECMP's collisions (two or more flows hashed onto one link) cost both
  // levels at least 1.5x the sprayed mean.
  EXPECT_GT(ecmp_packet.mean_fct_us, 1.5 * spray_packet.mean_fct_us);
  EXPECT_GT(ecmp_flow.mean_fct_us, 1.5 * spray_flow.mean_fct_us);
}

}  // namespace
}  // namespace aifabric
