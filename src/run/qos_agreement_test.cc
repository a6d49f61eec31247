// QoS classes at flow level against the packet level, on
// examples/qos_classes.yaml: eight 4 MiB bulk flows (DWRR, lossless) into
// host 0 and eight 64 KiB messages into it in a strict latency class. The
// p50 and p99 FCT of each class agree within 10%: the messages run at the full
// receiver link above the bulk backlog at both levels, and the bulk
// flows share what the messages leave. With the latency class on its own
// DWRR queue weighted 1:4 against bulk (the example's second `--set`) the
// messages get 1/5 of the link at both levels. The first `--set` (the
// messages on the bulk queue) is not compared: at packet level they wait
// behind 14 MB of FIFO backlog (about 200 us), a wait the fluid has not
// (its queues are DCQCN's backlogs, shared max-min: flow/flow_dcqcn.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"
#include "test_paths.h"

namespace aifabric {
namespace {

struct ClassFcts {
  double latency_p50_us = 0;  // priority 5 flows
  double bulk_p50_us = 0;     // priority 3 flows
  double latency_p99_us = 0;
  double bulk_p99_us = 0;
};

double P50(std::vector<double> v) {
  EXPECT_FALSE(v.empty());
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// By nearest rank, as the run summary's: of eight, the largest.
double P99(std::vector<double> v) {
  EXPECT_FALSE(v.empty());
  std::sort(v.begin(), v.end());
  const size_t rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(v.size())));
  return v[std::max<size_t>(rank, 1) - 1];
}

ClassFcts RunQosExample(const std::string& model, std::vector<std::string> sets) {
  sets.push_back("simulation.model=" + model);
  Result<Scenario> s = LoadScenarioFile(std::string(AIFABRIC_SOURCE_DIR) + "/examples/qos_classes.yaml", sets);
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*s);
  EXPECT_TRUE(run.ok()) << run.error().message;
  ScenarioRun& r = **run;
  r.Execute();
  std::vector<double> latency, bulk;
  for (const FlowSpec& f : r.flows()) {
    EXPECT_FALSE(r.finish(f.id).IsInfinite());
    const double fct_us = (r.finish(f.id) - f.start).us_f();
    // The messages are the 64 KiB flows (their class may share bulk's priority).
    (f.bytes == 64 * 1024 ? latency : bulk).push_back(fct_us);
  }
  EXPECT_EQ(latency.size(), 8u);
  EXPECT_EQ(bulk.size(), 8u);
  return ClassFcts{P50(latency), P50(bulk), P99(latency), P99(bulk)};
}

TEST(QosAgreement, StrictLatencyClassAndBulkClassAgreeWithin10PercentAtP50AndP99) {
  // The latency class, strict: each message runs at the receiver link's
  // full rate above the bulk backlog at both levels (64 KiB at 400G's
  // payload rate is 1.34 us, the rest is the path's latency). The bulk
  // class: DCQCN (the example's congestion control) cuts the eight flows'
  // rates on the incast's ECN marks at both levels (at flow level on the
  // fluid queue of host 0's port, flow/flow_dcqcn.h), leaving the link
  // idle part of the time: about 1.05 ms against the 0.69 ms the link
  // needs (32 MiB at 400G). With DCQCN off at both levels the eight flows
  // share what the messages leave of host 0's link, the scheduling alone
  // setting the figure.
  const ClassFcts packet = RunQosExample("packet", {}), flow = RunQosExample("flow", {});
  const ClassFcts packet_nocc = RunQosExample("packet", {"fabric.roce.cc=none"});
  const ClassFcts flow_nocc = RunQosExample("flow", {"fabric.roce.cc=none"});
  std::printf("qos_classes p50 FCT (us), packet / flow: latency %.3f / %.3f, bulk %.2f / %.2f; without DCQCN: "
              "latency %.3f / %.3f, bulk %.2f / %.2f\n",
              packet.latency_p50_us, flow.latency_p50_us, packet.bulk_p50_us, flow.bulk_p50_us,
              packet_nocc.latency_p50_us, flow_nocc.latency_p50_us, packet_nocc.bulk_p50_us, flow_nocc.bulk_p50_us);
  EXPECT_NEAR(flow.latency_p50_us, packet.latency_p50_us, 0.10 * packet.latency_p50_us);
  EXPECT_NEAR(flow.bulk_p50_us, packet.bulk_p50_us, 0.10 * packet.bulk_p50_us);
  EXPECT_NEAR(flow_nocc.latency_p50_us, packet_nocc.latency_p50_us, 0.10 * packet_nocc.latency_p50_us);
  EXPECT_NEAR(flow_nocc.bulk_p50_us, packet_nocc.bulk_p50_us, 0.10 * packet_nocc.bulk_p50_us);
  // And at p99 (each class's slowest flow): the messages all run alone on
  // the link above the backlog, the bulk flows all drain together.
  std::printf("qos_classes p99 FCT (us), packet / flow: latency %.3f / %.3f, bulk %.2f / %.2f; without DCQCN: "
              "latency %.3f / %.3f, bulk %.2f / %.2f\n",
              packet.latency_p99_us, flow.latency_p99_us, packet.bulk_p99_us, flow.bulk_p99_us,
              packet_nocc.latency_p99_us, flow_nocc.latency_p99_us, packet_nocc.bulk_p99_us, flow_nocc.bulk_p99_us);
  EXPECT_NEAR(flow.latency_p99_us, packet.latency_p99_us, 0.10 * packet.latency_p99_us);
  EXPECT_NEAR(flow.bulk_p99_us, packet.bulk_p99_us, 0.10 * packet.bulk_p99_us);
  EXPECT_NEAR(flow_nocc.latency_p99_us, packet_nocc.latency_p99_us, 0.10 * packet_nocc.latency_p99_us);
  EXPECT_NEAR(flow_nocc.bulk_p99_us, packet_nocc.bulk_p99_us, 0.10 * packet_nocc.bulk_p99_us);
  // The fluid figure by hand: 8 x 4 MiB over 400G x 4096/4178, less the
  // 8 x 64 KiB of messages that go first (they add their own bytes'
  // time), within the path latency (a few us).
  const double drain_us = (8.0 * 4 * 1024 * 1024 + 8.0 * 64 * 1024) * 8 / (400e9 * 4096 / 4178) * 1e6;
  EXPECT_NEAR(flow_nocc.bulk_p50_us, drain_us, 5.0);
}

TEST(QosAgreement, ALatencyClassWeighted1To4AgainstBulkAgreesWithin10PercentAtP50AndP99) {
  // The example's second variant: the latency class on a DWRR queue of
  // weight 1 against bulk's 4. Each message gets a fifth of host 0's link
  // at both levels (64 KiB at 80G: 6.7 us, plus the path).
  const std::vector<std::string> dwrr = {"fabric.qos.classes.0.scheduler=dwrr"};
  const ClassFcts packet = RunQosExample("packet", dwrr), flow = RunQosExample("flow", dwrr);
  std::printf("qos_classes, latency class DWRR 1:4: p50 FCT packet %.3f us, flow %.3f us; p99 %.3f / %.3f us\n",
              packet.latency_p50_us, flow.latency_p50_us, packet.latency_p99_us, flow.latency_p99_us);
  EXPECT_NEAR(flow.latency_p50_us, packet.latency_p50_us, 0.10 * packet.latency_p50_us);
  EXPECT_NEAR(flow.latency_p99_us, packet.latency_p99_us, 0.10 * packet.latency_p99_us);
  // A fifth of the link: slower than the strict class's full link by the
  // message's 4 x 1.34 us more of drain.
  const ClassFcts strict = RunQosExample("flow", {});
  const double message_us = 64.0 * 1024 * 8 / (400e9 * 4096 / 4178) * 1e6;
  EXPECT_NEAR(flow.latency_p50_us - strict.latency_p50_us, 4 * message_us, 0.01 * message_us);
}

}  // namespace
}  // namespace aifabric
