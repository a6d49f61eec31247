// Bottleneck localization on real packet-level runs: three seeded
// scenarios whose culprit is known by construction, each asserting the top
// finding's exact node and port_peer (issue 6).
#include <gtest/gtest.h>

#include <string>

#include "run/scenario_run.h"
#include "run/run_observation.h"
#include "scenario/scenario_loader.h"
#include "diagnosis/diagnosis.h"

namespace aifabric {
namespace {

struct Diagnosed {
  std::unique_ptr<ScenarioRun> run;
  FabricObservation observation;
  nlohmann::ordered_json findings;  // FindingsJson's "findings"
};

Diagnosed RunAndDiagnose(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  Result<Scenario> scenario = LoadScenarioText(yaml, "diagnosed.yaml", ".", overrides);
  EXPECT_TRUE(scenario.ok()) << scenario.error().message;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  EXPECT_TRUE(run.ok()) << run.error().message;
  Diagnosed d;
  d.run = std::move(run).value();
  d.run->Execute();
  d.observation = ObserveRun(*d.run);
  d.findings = FindingsJson(d.run->topology(), Diagnose(d.run->topology(), d.observation))["findings"];
  return d;
}

uint64_t TxBytes(const Diagnosed& d, const std::string& from, const std::string& to) {
  const Topology& t = d.run->topology();
  for (const Port& p : t.ports()) {
    if (t.node(p.node).name == from && t.node(p.peer).name == to) return d.observation.ports[p.id].tx_bytes;
  }
  ADD_FAILURE() << "no port " << from << "->" << to;
  return 0;
}

// 16 hosts write 4 MiB each to h0 at once; 15 share h0's leaf, h16 comes
// over a spine. PFC alone (no ECN/DCQCN): leaf0's port toward h0 is the
// only port where more arrives than leaves, so its queue fills the ingress
// buffers, and leaf0 pauses the senders and the spine: a pause tree rooted
// at leaf0 -> h0.
TEST(DiagnosisScenarios, IncastPauseTreeIsRootedAtThePortTowardTheReceiver) {
  const Diagnosed d = RunAndDiagnose(R"(
name: incast_pause_tree
seed: 1
cluster: {servers: 32, gpus_per_server: 1, nic: {model: CX7-400G}}
fabric:
  kind: roce
  topology: {type: leaf_spine, hosts_per_leaf: 16}
  switch: {name: shallow-400G, radix: 64, port_rate: 400Gbps, latency: 450ns, buffer: 32MB}
  link: {latency: 500ns}
  roce: {pfc: true, ecn: false, cc: none}
workload:
  - incast: {senders: 16, receiver: 0, size: 4MiB}
)");
  ASSERT_FALSE(d.findings.empty());
  const auto& top = d.findings[0];
  EXPECT_EQ(top["kind"], "incast");
  EXPECT_EQ(top["node"], "leaf0");
  EXPECT_EQ(top["port_peer"], "h0");
  EXPECT_EQ(top["evidence"]["sources"], 16);
  // It rooted the pause tree: leaf0 paused every port into it that fed
  // h0, the 15 senders on its leaf and the spine port h16's flow came by.
  const auto& root = top["evidence"]["pfc_pause_root"].at(0);
  EXPECT_EQ(root["node"], "leaf0");
  EXPECT_EQ(root["port_peer"], "h0");
  EXPECT_EQ(root["paused_ports"], 16);
  EXPECT_EQ(root["depth"], 1);
  // Each paused port is a finding below it, pointing at that root.
  size_t paused = 0;
  for (const auto& f : d.findings) {
    if (f["kind"] != "pfc_pause") continue;
    ++paused;
    EXPECT_EQ(f["port_peer"], "leaf0") << f.dump();
    EXPECT_EQ(f["evidence"]["root"]["node"], "leaf0") << f.dump();
    EXPECT_EQ(f["evidence"]["root"]["port_peer"], "h0") << f.dump();
  }
  EXPECT_EQ(paused, 16u);
}

// Four hosts of leaf0 send 1 MiB each to the four hosts of leaf1 over a
// 4:1 oversubscribed leaf: one 100G uplink leaf0 -> spine0 for 400G of
// host links. The uplink's capacity, not hashing, limits them.
TEST(DiagnosisScenarios, OversubscribedUplinkIsNamed) {
  const Diagnosed d = RunAndDiagnose(R"(
name: oversubscribed
seed: 1
cluster: {servers: 8, gpus_per_server: 1, nic: {rate: 100Gbps}}
fabric:
  kind: roce
  topology: {type: leaf_spine, hosts_per_leaf: 4, spines: 1, oversubscription: 4}
  switch: {name: t, radix: 8, port_rate: 100Gbps, latency: 400ns, buffer: 16MB}
  link: {latency: 500ns}
  roce: {pfc: true, ecn: false, cc: none}
workload:
  - flows:
      - {src: 0, dst: 4, size: 1MiB}
      - {src: 1, dst: 5, size: 1MiB}
      - {src: 2, dst: 6, size: 1MiB}
      - {src: 3, dst: 7, size: 1MiB}
)");
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings[0]["kind"], "oversubscribed_uplink");
  EXPECT_EQ(d.findings[0]["node"], "leaf0");
  EXPECT_EQ(d.findings[0]["port_peer"], "spine0");
  // 4 MiB of payload in 1,024 frames of 4,178 bytes crossed it.
  EXPECT_EQ(TxBytes(d, "leaf0", "spine0"), 1024u * 4178u);
}

// h0 -> h2 and h1 -> h3 cross from leaf0 to leaf1, which have two spines
// between them. With seed 4 the ECMP hash sends both flows up to spine1
// and none to spine0 (seeds 1-3 and 5-6 split them): a collision, the two
// flows at half rate while an uplink idles.
TEST(DiagnosisScenarios, EcmpCollisionIsNamed) {
  const Diagnosed d = RunAndDiagnose(R"(
name: ecmp_collision
seed: 4
cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 100Gbps}}
fabric:
  kind: roce
  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}
  switch: {name: t, radix: 4, port_rate: 100Gbps, latency: 400ns, buffer: 16MB}
  link: {latency: 500ns}
  roce: {pfc: true, ecn: false, cc: none}
workload:
  - flows:
      - {src: 0, dst: 2, size: 1MiB}
      - {src: 1, dst: 3, size: 1MiB}
)");
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings[0]["kind"], "ecmp_collision");
  EXPECT_EQ(d.findings[0]["node"], "leaf0");
  EXPECT_EQ(d.findings[0]["port_peer"], "spine1");
  EXPECT_EQ(TxBytes(d, "leaf0", "spine0"), 0u);             // the idle sibling
  EXPECT_EQ(TxBytes(d, "leaf0", "spine1"), 2u * 256u * 4178u);  // both flows' frames
}

}  // namespace
}  // namespace aifabric
