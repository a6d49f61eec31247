// Tenants of one fabric (run/tenant_run.h): two training jobs on disjoint
// leaves run as they do alone; the same two forced through one 2:1 uplink
// each slow down by the time the other's bytes take on it, worked out by
// hand; bytes are conserved across tenants; the same seed gives the same
// figures; bad placements name their field.
#include "run/tenant_run.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// Four servers of one H100 and a 100G NIC each, two per leaf, one spine;
// with `oversubscription` 2 each leaf has one 100G uplink (2 x 100G down).
// Two copies of the small dense model of training_run_test.cc, each data
// parallel over 2 GPUs, gradients all-reduced in 8 MiB buckets after
// backward (no overlap), placed on `a` and `b`.
Scenario TwoJobs(const std::string& a, const std::string& b, double oversubscription, const std::string& model = "flow",
                 const std::string& more = "", const std::string& job_keys = "") {
  std::string text = "name: two\n";
  text += "cluster: {servers: 4, gpus_per_server: 1, gpu: H100, nic: {rate: 100Gbps}}\n";
  text += "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 1, oversubscription: " +
          std::to_string(oversubscription) +
          "}, link: {latency: 500ns}, switch: {name: t, radix: 16, port_rate: 100Gbps, latency: 400ns, buffer: 64MiB},"
          " mtu: 4096, roce: {cc: none}}\n";
  text += "simulation: {model: " + model + "}\n";
  const std::string job = "training: {model: {name: tiny, layers: 2, hidden: 1024, heads: 8, kv_heads: 8,"
                          " ffn_hidden: 4096, mlp: gelu, vocab: 1000, seq_len: 512}, dp: 2, global_batch: 2,"
                          " bucket: 8MiB, overlap: false}";
  text += "workload:\n";
  text += "  - {name: a, placement: {servers: " + a + "}, " + job_keys + job + "}\n";
  text += "  - {name: b, placement: {servers: " + b + "}, " + job_keys + job + "}\n";
  text += more;
  Result<Scenario> s = LoadScenarioText(text, "two.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

TEST(TenantRun, DisjointLeavesOfANonBlockingFabricRunAsAlone) {
  for (const char* model : {"flow", "packet"}) {
    const Scenario s = TwoJobs("[0, 1]", "[2, 3]", 1, model);
    ASSERT_TRUE(s.shared_fabric);
    Result<TenantRuns> r = RunTenants(s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->tenants.size(), 2u);
    for (const TenantResult& t : r->tenants) {
      std::printf("%s %s: step %.4f ms shared, %.4f ms alone\n", model, t.name.c_str(), t.shared.headline.seconds() * 1e3,
                  t.alone.headline.seconds() * 1e3);
      EXPECT_TRUE(t.shared.complete && t.alone.complete);
      EXPECT_NEAR(t.slowdown, 1.0, 0.01);
    }
    EXPECT_EQ(r->tenants[0].gpus, (std::vector<GpuId>{0, 1}));
    EXPECT_EQ(r->tenants[1].gpus, (std::vector<GpuId>{2, 3}));
    EXPECT_TRUE(r->interference.empty());  // no link carries both
  }
}

TEST(TenantRun, OneSharedUplinkSlowsEachByTheOthersBytes) {
  // a on servers 0 and 2, b on 1 and 3: each ring flow crosses a leaf's
  // one 100G uplink, where alone it runs at its NIC's full rate. Both
  // jobs compute the same and start at 0, so each bucket's all-reduce of
  // a runs at the same time as b's, each at half the uplink: the
  // bandwidth term of every bucket doubles. With n = 2 a ring all-reduce
  // of S moves 2(n-1)/n S = S per GPU, so each step grows by
  //   G / B100 (G: the gradient bytes per GPU, B100 = 100e9/8 x 4096/4178
  //   bytes/s, the flow model's payload rate),
  // which is also the time the uplink takes to send the other job's
  // bytes: its wire bytes x 8 / 100e9, the interference table's figure.
  // The per-packet latencies keep the links' rates and do not change.
  const Scenario s = TwoJobs("[0, 2]", "[1, 3]", 2);
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<PreparedTraining> p = PrepareTraining(s, s.trainings[0]);
  ASSERT_TRUE(p.ok());
  const double g = static_cast<double>(p->step.comm_bytes[static_cast<size_t>(CommDimension::kData)]);
  const double expected = g / (100e9 / 8 * 4096 / 4178);
  for (const TenantResult& t : r->tenants) {
    const double added = (t.shared.headline - t.alone.headline).seconds();
    std::printf("%s: step %.4f ms alone, %.4f ms shared: +%.4f ms, by hand +%.4f ms (G = %.0f B)\n", t.name.c_str(),
                t.alone.headline.seconds() * 1e3, t.shared.headline.seconds() * 1e3, added * 1e3, expected * 1e3, g);
    EXPECT_NEAR(added, expected, 1e-6 * expected);
  }
  // The table: each is the other's only aggressor, on the leaf uplink or
  // the spine's downlink it crosses (the same bytes at the same rate), and
  // those bytes take the step's growth to send.
  ASSERT_EQ(r->interference.size(), 2u);
  for (const InterferenceEntry& e : r->interference) {
    EXPECT_EQ(e.aggressor, 1 - e.victim);
    EXPECT_DOUBLE_EQ(e.share, 1.0);
    const TenantResult& v = r->tenants[e.victim];
    EXPECT_NEAR(e.slowdown_part, v.slowdown - 1, 1e-12);
    const size_t ports = v.bottleneck_ports.size();
    ASSERT_GE(ports, 1u);
    const double send_s = static_cast<double>(e.shared_bytes) / static_cast<double>(ports) * 8 / 100e9;
    // Whole packets: each bucket's last packet is short, so the wire
    // bytes are within a packet per transfer of G x 4178/4096.
    EXPECT_NEAR(send_s, expected, 1e-3 * expected);
  }
}

TEST(TenantRun, BytesAreConservedAcrossTenants) {
  // Every port carries in the shared run exactly what the tenants put on it
  // alone: the same transfers on the same paths (each keeps its ids and
  // ECMP entropy), only their timing changes.
  const Scenario s = TwoJobs("[0, 2]", "[1, 3]", 2, "flow", "  - {name: bg, start: 1ms, permutation: {size: 4MiB}}\n");
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->tenants.size(), 3u);
  uint64_t total = 0;
  for (size_t p = 0; p < r->shared.port_tx_bytes.size(); ++p) {
    uint64_t sum = 0;
    for (const TenantResult& t : r->tenants) sum += t.port_tx_bytes[p];
    EXPECT_EQ(r->shared.port_tx_bytes[p], sum) << "port " << p;
    EXPECT_EQ(r->shared.port_counters.at(p).tx_bytes, sum) << "port " << p << " (links.csv)";
    total += sum;
  }
  EXPECT_GT(total, 0u);
  EXPECT_EQ(r->tenants[2].shared.fct.size(), 4u);  // a derangement of the 4 hosts
  EXPECT_TRUE(r->tenants[2].shared.complete);
}

TEST(TenantRun, BytesAreConservedAcrossTenantsRepeatingForADuration) {
  // Each job repeats its step for 40 ms: alone a step takes about 9.6 ms,
  // so 5 begin before 40 ms; shared, each step grows by G/B (about 8.9 ms,
  // the test above), so only 3 do. A tenant's bytes are then those of the
  // 3 steps its shared run did, and the ports conserve them: each port
  // carries in the shared run exactly the sum of the tenants' bytes (with
  // the alone runs' totals, 5 steps each, the sum would be 5/3 of it).
  const Scenario s = TwoJobs("[0, 2]", "[1, 3]", 2, "flow", "", "duration: 40ms, ");
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const TenantResult& t : r->tenants) {
    std::printf("%s: %zu steps shared, %zu alone\n", t.name.c_str(), t.shared.steps.size(), t.alone.steps.size());
    EXPECT_EQ(t.shared.steps.size(), 3u);
    EXPECT_EQ(t.alone.steps.size(), 5u);
  }
  uint64_t total = 0;
  for (size_t p = 0; p < r->shared.port_tx_bytes.size(); ++p) {
    uint64_t sum = 0;
    for (const TenantResult& t : r->tenants) sum += t.port_tx_bytes[p];
    EXPECT_EQ(r->shared.port_tx_bytes[p], sum) << "port " << p;
    total += sum;
  }
  EXPECT_GT(total, 0u);
}

TEST(TenantRun, TheSameSeedGivesTheSameSummaryOnAnyThreads) {
  // One thread runs the shared run and then each alone run; three run the
  // alone runs beside the shared one: the figures are the same.
  const Scenario s = TwoJobs("[0, 2]", "[1, 3]", 2, "flow", "  - {name: bg, permutation: {size: 4MiB}}\n");
  RunHooks threads;
  threads.threads = 3;
  Result<TenantRuns> one = RunTenants(s);
  Result<TenantRuns> two = RunTenants(s, threads);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(one->shared.events, two->shared.events);
  EXPECT_EQ(one->shared.sim_time, two->shared.sim_time);
  EXPECT_EQ(one->shared.port_tx_bytes, two->shared.port_tx_bytes);
  for (size_t i = 0; i < one->tenants.size(); ++i) {
    const TenantResult& x = one->tenants[i];
    const TenantResult& y = two->tenants[i];
    EXPECT_EQ(x.shared.headline, y.shared.headline);
    EXPECT_EQ(x.alone.headline, y.alone.headline);
    EXPECT_EQ(x.shared.fct, y.shared.fct);
    EXPECT_EQ(x.alone.fct, y.alone.fct);
    EXPECT_EQ(x.port_tx_bytes, y.port_tx_bytes);
  }
  ASSERT_EQ(one->interference.size(), two->interference.size());
  for (size_t i = 0; i < one->interference.size(); ++i) {
    EXPECT_EQ(one->interference[i].shared_bytes, two->interference[i].shared_bytes);
    EXPECT_EQ(one->interference[i].share, two->interference[i].share);
  }
}

TEST(TenantRun, APolicyPlacesOnTheFreeGpusAndAFullClusterIsAnError) {
  // b's first_fit takes the first free whole servers after a's explicit 0 and 2.
  Scenario s = TwoJobs("[0, 2]", "[1, 3]", 1);
  s.tenants[1].placement = TenantPlacement{{}, {}, "first_fit"};
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tenants[1].gpus, (std::vector<GpuId>{1, 3}));
  // A third copy of b by first_fit finds no two whole servers free.
  TenantSpec c = s.tenants[1];
  c.name = "c";
  c.path = "workload.2";
  s.tenants.push_back(c);
  Result<TenantRuns> full = RunTenants(s);
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.error().message.find("workload.2.placement: first_fit finds no 2 free GPUs"), std::string::npos)
      << full.error().message;
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

TEST(TenantRun, TheDiagnosisNamesTheSharedUplinkAndBothJobs) {
  // The step of each job waits on the network for about half its time
  // (the exposed all-reduce of the shared run), so each is network-bound;
  // the busiest link each crosses is a leaf uplink or spine downlink: both
  // jobs' ring flows at 100G, where its NIC links carry one.
  const Scenario s = TwoJobs("[0, 2]", "[1, 3]", 2);
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  bool named = false;
  for (const Finding& f : r->findings) {
    const Node& from = r->topology.node(f.node);
    const Node& to = r->topology.node(f.port_peer);
    std::printf("%s %s -> %s owners %zu\n", f.kind.c_str(), from.name.c_str(), to.name.c_str(), f.owners.size());
    if (f.owners == std::vector<std::string>{"a", "b"} && from.kind == NodeKind::kSwitch &&
        to.kind == NodeKind::kSwitch) {
      named = true;
      ASSERT_TRUE(f.evidence.contains("tenants"));
      EXPECT_EQ(f.evidence["tenants"].size(), 2u);
    }
  }
  EXPECT_TRUE(named) << "no finding on a switch-to-switch link names both jobs";
}

}  // namespace
}  // namespace aifabric
