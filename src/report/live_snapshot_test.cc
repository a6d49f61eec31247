#include "report/live_snapshot.h"

#include <chrono>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// h0 -- s0 -- h1 at 100 Gb/s; port 0 is h0 -> s0, port 2 is h1 -> s0
// (AddLink gives each link two ports, a then b).
Topology TwoHosts() {
  Topology t;
  const NodeId h0 = t.AddHost("h0");
  const NodeId h1 = t.AddHost("h1");
  const NodeId s0 = t.AddSwitch("s0", 1, t.AddSwitchSpec(SwitchSpec{}));
  t.AddLink(h0, s0, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(h1, s0, DataRate::Gbps(100), Time::FromNs(500));
  return t;
}

TEST(LiveSnapshot, FiguresFromTheLastTwoPointsByHand) {
  const Topology topology = TwoHosts();
  ASSERT_EQ(topology.port(0).node, 0);
  ASSERT_EQ(topology.port(2).node, 1);
  TimeSeriesStore store(16);
  const int tx0 = store.AddSeries({0, 0, -1, Metric::kTxBytes});
  const int q0 = store.AddSeries({0, 0, 3, Metric::kQueueOccupancyBytes});
  const int q0b = store.AddSeries({0, 0, 4, Metric::kQueueOccupancyBytes});
  const int ecn0 = store.AddSeries({0, 0, 3, Metric::kQueueEcnMarked});
  const int pfc0 = store.AddSeries({0, 0, 3, Metric::kPfcPauseDurationUs});
  const int drop0 = store.AddSeries({0, 0, -1, Metric::kTxDiscards});
  const int tx2 = store.AddSeries({1, 2, -1, Metric::kTxBytes});
  const int qdrop2 = store.AddSeries({1, 2, 3, Metric::kQueueDroppedPackets});
  ASSERT_EQ(store.series(), 8u);
  (void)tx0; (void)q0; (void)q0b; (void)ecn0; (void)pfc0; (void)drop0; (void)tx2; (void)qdrop2;
  // t = 0 and t = 10 us. Port 0 sends 62,500 bytes in 10 us: 62,500 * 8 /
  // (100e9 * 10e-6) = 0.5 of line rate. Port 2 sends 125,000 bytes: 1.0.
  store.RecordSample(Time::Zero(), std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0});
  store.RecordSample(Time::FromUs(10), std::vector<double>{62'500, 1000, 250, 7, 3.5, 2, 125'000, 5});
  const nlohmann::ordered_json j = LiveSnapshotJson(LiveSample{topology, store, 3, {}});
  EXPECT_EQ(j["sim_time_ns"], 10'000);
  EXPECT_EQ(j["transfers_completed"], 3);
  EXPECT_EQ(j["ports_total"], 2);
  EXPECT_DOUBLE_EQ(j["max_util"].get<double>(), 1.0);
  ASSERT_EQ(j["ports"].size(), 2u);
  // The busiest first.
  const auto& busy = j["ports"][0];
  EXPECT_EQ(busy["node"], "h1");
  EXPECT_EQ(busy["port"], "s0");
  EXPECT_DOUBLE_EQ(busy["util"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(busy["drops"].get<double>(), 5);  // no discards series: the queues' drops
  const auto& p0 = j["ports"][1];
  EXPECT_EQ(p0["node"], "h0");
  EXPECT_DOUBLE_EQ(p0["util"].get<double>(), 0.5);
  // 1000 + 250 bytes queued: 1250 * 8 / 100e9 s = 100 ns.
  EXPECT_DOUBLE_EQ(p0["queue_bytes"].get<double>(), 1250);
  EXPECT_DOUBLE_EQ(p0["queue_delay_ns"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(p0["ecn_marks"].get<double>(), 7);
  EXPECT_DOUBLE_EQ(p0["pfc_pause_ns"].get<double>(), 3500);
  EXPECT_DOUBLE_EQ(p0["drops"].get<double>(), 2);
  // At most max_ports, the busiest kept.
  const nlohmann::ordered_json one = LiveSnapshotJson(LiveSample{topology, store, 3, {}}, 1);
  ASSERT_EQ(one["ports"].size(), 1u);
  EXPECT_EQ(one["ports"][0]["node"], "h1");
  EXPECT_EQ(one["ports_total"], 2);
}

TEST(LiveSnapshot, FlowLatencyIsTheNearestRankPercentilesByHand) {
  const Topology topology = TwoHosts();
  TimeSeriesStore store(16);
  store.AddSeries({0, 0, -1, Metric::kTxBytes});
  store.RecordSample(Time::Zero(), std::vector<double>{0});
  // None completed: all 0.
  const nlohmann::ordered_json none = LiveSnapshotJson(LiveSample{topology, store, 0, {}});
  EXPECT_EQ(none["flow_latency"]["count"], 0);
  EXPECT_DOUBLE_EQ(none["flow_latency"]["p99_ns"].get<double>(), 0);
  // 1..200 ns shuffled: p50 = the 100th smallest = 100, p99 = the 198th =
  // 198, max 200.
  LiveSample sample{topology, store, 200, {}};
  for (int i = 0; i < 200; ++i) sample.completion_ns.push_back((i * 37) % 200 + 1);
  const nlohmann::ordered_json j = LiveSnapshotJson(sample);
  EXPECT_EQ(j["flow_latency"]["count"], 200);
  EXPECT_DOUBLE_EQ(j["flow_latency"]["p50_ns"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(j["flow_latency"]["p99_ns"].get<double>(), 198);
  EXPECT_DOUBLE_EQ(j["flow_latency"]["max_ns"].get<double>(), 200);
}

TEST(LiveSnapshot, AFlowOnAnIdlePathShowsItsClosedFormFct) {
  // h0 -100G- leaf -100G- h1, cables 500 ns, a 400 ns store-and-forward
  // switch, 10 packets of 4096 B payload + 82 B RoCEv2 overhead (4178 B,
  // 334,240 ps at 100G). First packet: 334,240 + 500,000 + 400,000 +
  // 334,240 + 500,000 = 2,068,480 ps; the other 9 follow at line rate,
  // 9 * 334,240 = 3,008,160: FCT = 5,076,640 ps = 5,076.64 ns.
  Result<Scenario> scenario = LoadScenarioText(
      "cluster: {servers: 2, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
      "fabric:\n"
      "  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 1}\n"
      "  switch: {radix: 8, port_rate: 100Gbps, latency: 400ns, buffer: 32MB}\n"
      "  link: {latency: 500ns}\n"
      "workload: [{flows: [{src: 0, dst: 1, size: 40KiB, start: 0us}]}]\n"
      "simulation: {until: 1ms, telemetry: {interval: 1us}}\n",
      "idle.yaml", ".", {});
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  ASSERT_TRUE(run.ok()) << run.error().message;
  std::vector<nlohmann::ordered_json> snapshots;
  RunHooks hooks;
  hooks.publish_every = std::chrono::milliseconds(0);
  hooks.publish = [&snapshots](const LiveSample& sample) { snapshots.push_back(LiveSnapshotJson(sample)); };
  (*run)->Execute(hooks);
  ASSERT_EQ((*run)->finish(0).ps(), 5'076'640);
  ASSERT_FALSE(snapshots.empty());
  int completed = 0;
  for (const nlohmann::ordered_json& j : snapshots) {
    const auto& latency = j["flow_latency"];
    if (latency["count"] == 0) continue;
    ++completed;
    EXPECT_EQ(latency["count"], 1);
    EXPECT_DOUBLE_EQ(latency["p50_ns"].get<double>(), 5076.64);
    EXPECT_DOUBLE_EQ(latency["p99_ns"].get<double>(), 5076.64);
    EXPECT_DOUBLE_EQ(latency["max_ns"].get<double>(), 5076.64);
  }
  EXPECT_EQ(completed, 1);  // in exactly one snapshot: the one after it completed
}

}  // namespace
}  // namespace aifabric
