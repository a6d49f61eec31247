// Faults end to end: examples/faults/ runs and its summary.json says what
// the fault did; a fault naming nothing that exists is a clear error
// (exit 2); --set adds faults as any list.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

const std::string kExample = std::string(AIFABRIC_SOURCE_DIR) + "/examples/faults/link_down.yaml";

TEST(FaultsCli, LinkDownExampleReportsLossesAndTheReroute) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("fault       link_down leaf0-spine0#2 at 50.000 us: detected at 70.000 us"));
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  const auto& f = s["faults"][0];
  EXPECT_EQ(f["kind"], "link_down");
  EXPECT_EQ(f["at_ns"].get<double>(), 50'000);
  // The scenario's detection delay, 20 us after the failure.
  EXPECT_EQ(f["detected_ns"].get<double>(), 70'000);
  EXPECT_EQ(f["rerouted_ns"].get<double>(), 70'000);
  EXPECT_EQ(f["route_changes"].get<uint64_t>(), 1u);  // the repair at 5 ms comes after the run
  EXPECT_GT(f["flows_rerouted"].get<uint64_t>(), 0u);
  // Every drop of the run is the fault's (the fabric is lossy RoCE but its
  // buffers hold this load); every flow completes, so each data byte lost
  // was resent at least once (go-back-N resends more).
  const uint64_t lost = f["packets_lost"].get<uint64_t>();
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(s["drops"].get<uint64_t>(), lost);
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
  EXPECT_GE(f["bytes_resent"].get<uint64_t>(), s["bytes"]["dropped"].get<uint64_t>());
  EXPECT_GT(s["bytes"]["dropped"].get<uint64_t>(), 0u);
}

TEST(FaultsCli, TheLinkDownCostsItsFlowSetAgainstTheRunWithoutIt) {
  // The run is made again without the fault: the permutation's span with
  // it over the span without it. Losses and resends only add time on the
  // same flows, so the slowdown is above 1; --no-fault-baseline drops the
  // section and its second run.
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("fault cost  workload[0] (permutation): "));
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["fault_cost"].size(), 1u);
  const auto& c = s["fault_cost"][0];
  EXPECT_EQ(c["entry"], "workload[0] (permutation)");
  const double with = c["time_ns"].get<double>(), without = c["baseline_time_ns"].get<double>();
  EXPECT_GT(with, without);
  EXPECT_DOUBLE_EQ(c["slowdown"].get<double>(), with / without);
  // The baseline is the same scenario with `faults` removed.
  TempDir clean;
  ASSERT_EQ(RunAifabric("run " + kExample + " --quiet --set faults= --out " + clean.path() + "/out").exit_code, 0);
  const auto b = nlohmann::json::parse(ReadFile(clean.path() + "/out/summary.json"));
  EXPECT_EQ(without, b["flows"]["fct_ns"]["max"].get<double>());  // every flow starts at 0: the span is the last FCT

  TempDir once;
  CommandResult r1 = RunAifabric("run " + kExample + " --quiet --no-fault-baseline --out " + once.path() + "/out");
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  const auto s1 = nlohmann::json::parse(ReadFile(once.path() + "/out/summary.json"));
  EXPECT_FALSE(s1.contains("fault_cost"));
  EXPECT_TRUE(s1.contains("faults"));
}

TEST(FaultsCli, TheStragglerExampleNamesItsGpuAndWhatItCost) {
  TempDir dir;
  const std::string example = std::string(AIFABRIC_SOURCE_DIR) + "/examples/faults/straggler_256gpu.yaml";
  CommandResult r = RunAifabric("run " + example + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("fault       straggler gpu37 at 0.000 us"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("fault cost  workload.0.training: "));
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  EXPECT_EQ(s["faults"][0]["kind"], "straggler");
  EXPECT_EQ(s["faults"][0]["packets_lost"], 0);
  EXPECT_EQ(s["training"][0]["faults"], s["faults"]);
  const auto& c = s["fault_cost"][0];
  EXPECT_DOUBLE_EQ(c["time_ns"].get<double>(), s["training"][0]["step_time_s"].get<double>() * 1e9);
  EXPECT_GT(c["slowdown"].get<double>(), 1.0);
  // Half speed at most doubles the step: every kernel of the job at most
  // twice as long, and the communication no longer.
  EXPECT_LE(c["slowdown"].get<double>(), 2.0);
  const auto d = nlohmann::json::parse(ReadFile(dir.path() + "/out/diagnosis.json"));
  ASSERT_FALSE(d["findings"].empty());
  const auto& top = d["findings"][0];
  EXPECT_EQ(top["kind"], "straggler");
  EXPECT_EQ(top["evidence"]["gpu"], 37);
  EXPECT_EQ(top["node"], "h37");
  // All its kernels ran inside the window, its TP peers' at full speed.
  EXPECT_EQ(top["evidence"]["compute_speed"].get<double>(), 0.5);

  // The same step without it: pipeline stages of unequal work, and no
  // rank named a straggler.
  TempDir clean;
  ASSERT_EQ(RunAifabric("run " + example + " --quiet --set faults= --out " + clean.path() + "/out").exit_code, 0);
  const auto cd = nlohmann::json::parse(ReadFile(clean.path() + "/out/diagnosis.json"));
  for (const auto& f : cd["findings"]) EXPECT_NE(f["kind"], "straggler");
}

TEST(FaultsCli, ALinkDownDuringAnAllReduceCostsTheRetransmissionTimeout) {
  // examples/faults/link_down_all_reduce.yaml: the leaf0-spine1 link goes
  // down at 150 us, mid-all-reduce, with a 10 us detection delay.
  const std::string example = std::string(AIFABRIC_SOURCE_DIR) + "/examples/faults/link_down_all_reduce.yaml";
  TempDir dir;
  CommandResult r = RunAifabric("run " + example + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  const auto& f = s["faults"][0];
  EXPECT_EQ(f["kind"], "link_down");
  EXPECT_EQ(f["name"], "leaf0-spine1");
  EXPECT_EQ(f["at_ns"].get<double>(), 150'000);
  EXPECT_EQ(f["detected_ns"].get<double>(), 160'000);  // at + detection
  EXPECT_EQ(f["rerouted_ns"].get<double>(), 160'000);  // ECMP groups updated at detection
  EXPECT_GT(f["flows_rerouted"].get<uint64_t>(), 0u);
  // Every lost packet is a full 4 KiB data packet, and go-back-N resends
  // at least what was lost.
  const uint64_t lost = f["packets_lost"].get<uint64_t>();
  EXPECT_GT(lost, 0u);
  EXPECT_GE(f["bytes_resent"].get<uint64_t>(), lost * 4096);
  // The lost packets are the tail of their windows: nothing behind them
  // shows the gap, the senders wait out the RTO. So the cost is the RTO
  // plus a part that does not depend on it: above 1 ms, and 0.8 ms less
  // with an RTO of 200 us.
  const auto& c = s["fault_cost"][0];
  const double cost_ns = c["time_ns"].get<double>() - c["baseline_time_ns"].get<double>();
  EXPECT_GT(cost_ns, 1e6);
  TempDir fast;
  ASSERT_EQ(RunAifabric("run " + example + " --quiet --set fabric.transport.rto=200us --out " + fast.path() + "/out")
                .exit_code,
            0);
  const auto s2 = nlohmann::json::parse(ReadFile(fast.path() + "/out/summary.json"));
  const auto& c2 = s2["fault_cost"][0];
  EXPECT_EQ(c2["baseline_time_ns"].get<double>(), c["baseline_time_ns"].get<double>());
  const double cost2_ns = c2["time_ns"].get<double>() - c2["baseline_time_ns"].get<double>();
  EXPECT_GT(cost2_ns, 200e3);
  EXPECT_NEAR(cost_ns - cost2_ns, 800e3, 0.01);  // times are whole picoseconds
}

TEST(FaultsCli, AStragglerWhereNothingComputesIsAnError) {
  CommandResult r = RunAifabric("run " + kExample + " --quiet --set 'faults=[{kind: straggler, gpu: 3, at: 0, factor: 0.5}]'" +
                                " --out /tmp/never-written");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("faults.0.kind: a straggler slows a GPU's compute kernels and a flows run has "
                                          "none"));
}

// A gray link in our own metrics.prom: every packet it destroyed was a
// corrupted frame, counted by its sending port as an FCS error, so the
// per-port counters of aifabric_port_fcs_error_packets_total (one per
// direction of h3 - leaf0, the link the fault names) add up to the
// fault's packets_lost in summary.json: a conservation check.
TEST(FaultsCli, AGrayLinksFcsErrorsInMetricsPromAddUpToItsLosses) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample +
                                " --quiet --no-fault-baseline --set 'faults=[{kind: gray_link, link: [h3, leaf0], "
                                "at: 0, corruption_rate: 0.01}]' --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  const uint64_t lost = s["faults"][0]["packets_lost"].get<uint64_t>();
  ASSERT_GT(lost, 0u);
  const std::string prom = ReadFile(dir.path() + "/out/metrics.prom");
  const std::string family = "aifabric_port_fcs_error_packets_total";
  EXPECT_THAT(prom, ::testing::HasSubstr("# TYPE " + family + " counter"));
  uint64_t counted = 0;
  int samples = 0;
  size_t at = 0;
  while ((at = prom.find("\n" + family + "{", at)) != std::string::npos) {
    const size_t end = prom.find('\n', at + 1);
    const std::string line = prom.substr(at + 1, end - at - 1);
    EXPECT_TRUE(line.find("node=\"h3\",port=\"leaf0\"") != std::string::npos ||
                line.find("node=\"leaf0\",port=\"h3\"") != std::string::npos)
        << line;
    counted += std::stoull(line.substr(line.rfind(' ') + 1));
    ++samples;
    at = end;
  }
  EXPECT_GE(samples, 1);
  EXPECT_LE(samples, 2);
  EXPECT_EQ(counted, lost);
}

// A silent loss end to end (examples/faults/silent_loss.yaml): the fault
// counts the packets it lost, no file of the fabric's counters shows one
// (summary.json's drops, links.csv's drops column, metrics.prom's FCS
// errors), and diagnosis.json's top finding is the link, found from the
// transfers' resends. Every flow that resent crossed the link (the only
// loss), so the bytes the finding's flows resent are the fault's.
TEST(FaultsCli, ASilentLossIsInNoCounterAndTheDiagnosisFindsItFromTheResends) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + std::string(AIFABRIC_SOURCE_DIR) +
                                "/examples/faults/silent_loss.yaml --quiet --no-fault-baseline --out " + dir.path() +
                                "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  const auto& fault = s["faults"][0];
  EXPECT_GT(fault["packets_lost"].get<uint64_t>(), 0u);
  EXPECT_GT(fault["bytes_resent"].get<uint64_t>(), 0u);
  EXPECT_TRUE(fault["detected_ns"].is_null());
  EXPECT_EQ(s["drops"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
  std::istringstream links(ReadFile(dir.path() + "/out/links.csv"));
  std::string line;
  std::getline(links, line);
  ASSERT_EQ(line, "link_id,src,dst,rate_gbps,bytes,util,drops,ecn_marks,pfc_pause_ns,max_queue_bytes");
  while (std::getline(links, line)) {
    std::istringstream row(line);
    std::string field;
    for (int column = 0; column <= 6; ++column) std::getline(row, field, ',');
    EXPECT_EQ(field, "0") << line;
  }
  EXPECT_THAT(ReadFile(dir.path() + "/out/metrics.prom"),
              ::testing::Not(::testing::HasSubstr("aifabric_port_fcs_error_packets_total")));
  const auto d = nlohmann::json::parse(ReadFile(dir.path() + "/out/diagnosis.json"));
  ASSERT_FALSE(d["findings"].empty());
  const auto& top = d["findings"][0];
  EXPECT_EQ(top["kind"], "gray_link");
  EXPECT_EQ(top["evidence"]["found_by"], "resend_tomography");
  const std::set<std::string> ends{top["node"].get<std::string>(), top["port_peer"].get<std::string>()};
  EXPECT_EQ(ends, (std::set<std::string>{"leaf0", "spine1"}));
  EXPECT_EQ(top["evidence"]["bytes_resent"], fault["bytes_resent"]);
}

TEST(FaultsCli, AFaultNamingNothingIsAnError) {
  CommandResult r =
      RunAifabric("run " + kExample + " --quiet --set 'faults.0.link=[leaf0, spine7]' --out /tmp/never-written");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("faults.0.link: no node named 'spine7' in the topology"));
  CommandResult v = RunAifabric("validate " + kExample + " --set faults.0.index=9");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_THAT(v.err, ::testing::HasSubstr("faults.0.index: 'leaf0' and 'spine0' share 8 links; expected 0..7, got 9"));
}

TEST(FaultsCli, NoFaultsLeavesTheSummaryAsItWas) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --quiet --set faults= --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  EXPECT_FALSE(s.contains("faults"));
  EXPECT_EQ(s["drops"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace aifabric::testing
