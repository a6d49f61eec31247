// The files of `aifabric schedule` from hand-made replay results: jobs.csv
// and compare.csv to the byte, summary.json's fields, the scheduler
// topology files of a small leaf-spine, and the printed tables.
#include "report/schedule_outputs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/schedule_report.h"
#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// Two jobs: j1 trains llama3-8b on one server (8 GPUs), j2 serves
// deepseek-v3 on two servers under one leaf pair.
ReplayResult TwoJobs() {
  ReplayResult r;
  r.policy = "topology";
  r.comm = "crux";
  ReplayJobResult j1;
  j1.job_id = "j1";
  j1.model = "llama3-8b";
  j1.gpus = 8;
  j1.iterations = 100;
  j1.submit_s = 0.1;
  j1.start_s = 0.3;
  j1.end_s = 10.75;
  j1.run_idle_s = 10;
  j1.comm_s = 2.5;
  j1.comm_idle_s = 2;
  j1.servers = 1;
  j1.tiers = 0;
  j1.parallelism = {8, 1, 1, 1};
  ReplayJobResult j2;
  j2.job_id = "j2";
  j2.model = "deepseek-v3";
  j2.kind = TraceJobKind::kInference;
  j2.gpus = 16;
  j2.iterations = 3;
  j2.submit_s = 1.25;
  j2.start_s = 3;
  j2.end_s = 7.5;
  j2.run_idle_s = 4;
  j2.servers = 2;
  j2.tiers = 1;
  j2.parallelism = {8, 2, 1, 1};
  r.jobs = {j1, j2};
  ReplayMetrics& m = r.metrics;
  m.jobs = 2;
  m.jct_mean_s = 8.45;
  m.jct_p95_s = 10.65;
  m.queue_mean_s = 0.975;
  m.queue_p95_s = 1.75;
  m.run_slowdown_mean = 1.075;
  m.comm_slowdown_mean = 1.25;
  m.gpu_util_alloc = 0.5;
  m.gpu_util_effective = 0.25;
  m.util_window_s = 3;
  m.fabric_util = 0.125;
  m.makespan_s = 10.65;
  m.schedulable_gpus = 32;
  m.events = 1234;
  m.rate_solves = 56;
  return r;
}

TEST(ScheduleJobsCsv, TwoJobsToTheByte) {
  // j1: queue 0.3 - 0.1 = 0.19999999999999998 in doubles (written so that
  // it reads back exactly, not rounded to 0.2); jct 10.75 - 0.1 = 10.65; run
  // 10.75 - 0.3 = 10.45; comm slowdown 2.5 / 2. j2: queue 3 - 1.25, jct
  // 7.5 - 1.25, run 7.5 - 3; no fabric communication, slowdown 1.
  EXPECT_EQ(ScheduleJobsCsv(TwoJobs()),
            "job_id,model,kind,gpus,iterations,submit_s,start_s,end_s,queue_s,jct_s,run_s,run_idle_s,comm_s,"
            "comm_idle_s,comm_slowdown,servers,tiers,tp,pp,dp,ep\n"
            "j1,llama3-8b,training,8,100,0.1,0.3,10.75,0.19999999999999998,10.65,10.45,10,2.5,2,1.25,1,0,8,1,1,1\n"
            "j2,deepseek-v3,inference,16,3,1.25,3,7.5,1.75,6.25,4.5,4,0,0,1,2,1,8,2,1,1\n");
}

TEST(ScheduleSummaryJson, NamesTheRunAndCarriesEveryMetric) {
  const nlohmann::ordered_json j = ScheduleSummaryJson(TwoJobs(), {"cluster-a", "traces/t.csv", 7, {}});
  EXPECT_EQ(j["cluster"], "cluster-a");
  EXPECT_EQ(j["trace"], "traces/t.csv");
  EXPECT_EQ(j["spec"], "topology+crux");
  EXPECT_EQ(j["policy"], "topology");
  EXPECT_EQ(j["comm"], "crux");
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["jobs"], 2);
  EXPECT_TRUE(j["jobs"].is_number_integer());
  EXPECT_EQ(j["jct_mean_s"], 8.45);
  EXPECT_EQ(j["jct_p95_s"], 10.65);
  EXPECT_EQ(j["queue_mean_s"], 0.975);
  EXPECT_EQ(j["queue_p95_s"], 1.75);
  EXPECT_EQ(j["gpu_util_alloc"], 0.5);
  EXPECT_EQ(j["gpu_util_effective"], 0.25);
  EXPECT_EQ(j["util_window_s"], 3);
  EXPECT_EQ(j["run_slowdown_mean"], 1.075);
  EXPECT_EQ(j["comm_slowdown_mean"], 1.25);
  EXPECT_EQ(j["fabric_util"], 0.125);
  EXPECT_EQ(j["makespan_s"], 10.65);
  EXPECT_EQ(j["schedulable_gpus"], 32);
  EXPECT_EQ(j["reroutes"], 0);
  EXPECT_EQ(j["events"], 1234);
  EXPECT_EQ(j["rate_solves"], 56);
  EXPECT_EQ(j["warnings"], nlohmann::ordered_json::array());
  // 6 names of the run + the 16 fields of ReplayMetrics + warnings.
  EXPECT_EQ(j.size(), 23u);
}

TEST(ScheduleCompareCsv, OneRowPerSpecWithEveryMetric) {
  ReplayResult a = TwoJobs();
  a.policy = "first_fit";
  a.comm = "none";
  ReplayResult b = TwoJobs();
  b.comm = "crux+cassini";
  b.metrics.jct_mean_s = 7.5;
  const std::vector<ReplayResult> results = {a, b};
  EXPECT_EQ(ScheduleCompareCsv(results),
            "spec,policy,comm,jobs,jct_mean_s,jct_p95_s,queue_mean_s,queue_p95_s,gpu_util_alloc,gpu_util_effective,"
            "util_window_s,run_slowdown_mean,comm_slowdown_mean,fabric_util,makespan_s,schedulable_gpus,reroutes,events,"
            "rate_solves\n"
            "first_fit,first_fit,none,2,8.45,10.65,0.975,1.75,0.5,0.25,3,1.075,1.25,0.125,10.65,32,0,1234,56\n"
            "topology+crux+cassini,topology,crux+cassini,2,7.5,10.65,0.975,1.75,0.5,0.25,3,1.075,1.25,0.125,10.65,32,"
            "0,1234,56\n");
}

TEST(ScheduleComparison, ChangesAreAgainstTheFirstSpec) {
  ReplayResult a = TwoJobs();
  a.comm = "none";
  a.metrics.fabric_util = 0;
  ReplayResult b = TwoJobs();
  b.policy = "random";
  b.comm = "none";
  b.metrics.jct_mean_s = 8.45 * 0.9;  // 10% lower
  b.metrics.gpu_util_effective = 0.3;  // 20% higher
  b.metrics.fabric_util = 0.1;         // against 0: no percentage
  const std::vector<ReplayResult> results = {a, b};
  const std::string table = FormatScheduleComparison(results, {"c", "t.csv", 1, {}});
  std::istringstream lines(table);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "aifabric schedule — c (t.csv, seed 1; change vs topology)");
  auto row = [&](const std::string& name) {
    std::istringstream in(table);
    for (std::string l; std::getline(in, l);) {
      if (l.rfind("  " + name + " ", 0) == 0) return l;
    }
    return std::string();
  };
  EXPECT_NE(row("metric").find("topology"), std::string::npos);
  EXPECT_NE(row("metric").find("random"), std::string::npos);
  EXPECT_NE(row("jct_mean_s").find("7.605 (-10.0%)"), std::string::npos) << row("jct_mean_s");
  EXPECT_NE(row("gpu_util_effective").find("0.3 (+20.0%)"), std::string::npos) << row("gpu_util_effective");
  EXPECT_NE(row("fabric_util").find("0.1 (-)"), std::string::npos) << row("fabric_util");
  EXPECT_NE(row("jobs").find("2 (+0.0%)"), std::string::npos) << row("jobs");
  EXPECT_EQ(row("events"), "");  // the replay's cost is not a result of the schedule
  // Every row has its two values: the header, 14 metrics.
  int rows = 0;
  for (std::istringstream in(table); std::getline(in, line);) rows += line.rfind("  ", 0) == 0;
  EXPECT_EQ(rows, 15);
}

TEST(ScheduleSummaryText, ShowsTheHeadlineFigures) {
  const std::string text = FormatScheduleSummary(TwoJobs(), {"c", "t.csv", 3, {}});
  EXPECT_EQ(text.rfind("aifabric schedule — c (topology+crux, seed 3)\n", 0), 0u) << text;
  EXPECT_NE(text.find("t.csv: 2 jobs on 32 schedulable GPUs, makespan 10.7 s"), std::string::npos) << text;
  EXPECT_NE(text.find("mean 8.4 s, p95 10.7 s"), std::string::npos) << text;  // 8.45 is just below 8.45 in binary
  EXPECT_NE(text.find("allocated 50.0%, effective 25.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("utilization 12.5%"), std::string::npos) << text;
}

TEST(SchedulerTopologyFiles, DescribeTheLeafSpineForSlurmAndKubernetes) {
  const Topology t = sched_testing::LeafSpine2x2();
  const ClusterLayout layout = sched_testing::Layout(t);
  const SchedulerTopologyOutput out = SchedulerTopologyFiles(t, layout);
  EXPECT_TRUE(out.notes.empty());
  ASSERT_EQ(out.files.size(), 3u);
  EXPECT_EQ(out.files[0].first, "topology.conf");
  EXPECT_EQ(out.files[1].first, "k8s-node-labels.sh");
  EXPECT_EQ(out.files[2].first, "kueue-topology.yaml");
  // h0 h1 under leaf0, h2 h3 under leaf1; both spines link both leaves.
  const std::string& conf = out.files[0].second;
  EXPECT_NE(conf.find("SwitchName=leaf0 Nodes=node[0001-0002]\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("SwitchName=leaf1 Nodes=node[0003-0004]\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("SwitchName=spine0 Switches=leaf[0-1]\n"), std::string::npos) << conf;
  const std::string& labels = out.files[1].second;
  EXPECT_NE(labels.find("kubectl label node node0003 cloud.provider.com/topology-block=pod0 "
                        "cloud.provider.com/topology-rack=leaf1 --overwrite\n"),
            std::string::npos)
      << labels;
  EXPECT_NE(out.files[2].second.find("kind: Topology\n"), std::string::npos);
}

TEST(SchedulerTopologyFiles, LeaveOutWhatTheFabricCannotBeWrittenAsWithANote) {
  // A ToR name that ends in '/': fine for Slurm, not a Kubernetes label
  // value even with '/' made '.' (Lingjun's "P1/S1" becomes "P1.S1").
  Topology t;
  t.AddHost("h0", 0, 0);
  t.AddHost("h1", 1, 0);
  const NodeId tor = t.AddSwitch("P1/S1/", 1, t.AddSwitchSpec(SwitchSpec{}));
  for (NodeId h : {0, 1}) t.AddLink(h, tor, DataRate::Gbps(100), Time::Zero());
  const SchedulerTopologyOutput out = SchedulerTopologyFiles(t, sched_testing::Layout(t));
  ASSERT_EQ(out.files.size(), 1u);
  EXPECT_EQ(out.files[0].first, "topology.conf");
  EXPECT_NE(out.files[0].second.find("SwitchName=P1/S1/ Nodes=node[0001-0002]\n"), std::string::npos);
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_EQ(out.notes[0].rfind("k8s-node-labels.sh and kueue-topology.yaml not written: ", 0), 0u) << out.notes[0];
  EXPECT_NE(out.notes[0].find("P1/S1/"), std::string::npos) << out.notes[0];
}

}  // namespace
}  // namespace aifabric
