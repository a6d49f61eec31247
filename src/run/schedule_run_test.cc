// The scenario -> ReplayOptions mapping of `aifabric schedule`, and the
// errors RunSchedule names by their origin.
#include "run/schedule_run.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

Scenario LoadScheduleScenario(const std::string& text) {
  Result<Scenario> s = LoadScenarioText(text, "c.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? std::move(s).value() : Scenario();
}

TEST(ReplayOptionsFor, MapsTheSchedulingSectionAndTheFabric) {
  const Scenario s = LoadScheduleScenario(
      "seed: 9\n"
      "cluster: {servers: 6, gpus_per_server: 8}\n"
      "fabric: {kind: ib, mtu: 2KiB, ecmp_seed: 77}\n"
      "scheduling: {storage_servers: 2, max_phases_per_job: 12, load_window: 5s,\n"
      "             jobs: {grad_bytes: 2, checkpoint_interval: 60s}}\n");
  Result<ReplayOptions> o = ReplayOptionsFor(s, 6, PolicySpec{"topology", false, true});
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->policy, "topology");
  EXPECT_FALSE(o->crux);
  EXPECT_TRUE(o->cassini);
  // The last two of six servers.
  EXPECT_EQ(o->storage_servers, (std::vector<int>{4, 5}));
  EXPECT_EQ(o->max_phases_per_job, 12);
  EXPECT_EQ(o->load_window_s, 5.0);
  EXPECT_EQ(o->job_model.grad_bytes, 2);
  EXPECT_EQ(o->job_model.checkpoint_interval_s, 60.0);
  // InfiniBand: 26 bytes of wire overhead per 2 KiB packet.
  EXPECT_DOUBLE_EQ(o->payload_efficiency, 2048.0 / (2048 + 26));
  EXPECT_EQ(o->ecmp_seed, 77u);
  EXPECT_EQ(o->seed, 9u);
}

TEST(ReplayOptionsFor, DefaultsFollowTheScenario) {
  const Scenario s = LoadScheduleScenario("seed: 4\ncluster: {servers: 2}\n");
  Result<ReplayOptions> o = ReplayOptionsFor(s, 2, PolicySpec{});
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->policy, "first_fit");
  EXPECT_TRUE(o->storage_servers.empty());
  // RoCEv2: 82 bytes per 4 KiB packet; the ECMP seed derived from the seed.
  EXPECT_DOUBLE_EQ(o->payload_efficiency, 4096.0 / (4096 + 82));
  EXPECT_EQ(o->ecmp_seed, DefaultEcmpSeed(4));
  EXPECT_EQ(o->seed, 4u);
}

TEST(ReplayOptionsFor, StorageMustLeaveAServer) {
  // The server count is the built fabric's (here 1), not cluster.servers.
  const Scenario s = LoadScheduleScenario("cluster: {servers: 2}\nscheduling: {storage_servers: 1}\n");
  Result<ReplayOptions> o = ReplayOptionsFor(s, 1, PolicySpec{});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error().message,
            "scheduling.storage_servers: expected fewer than the cluster's 1 servers so that a server is left for jobs, "
            "got 1");
}

class RunScheduleErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "aifabric_schedule_run_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(RunScheduleErrors, NameTheScenarioOrTheTrace) {
  // An HPCC file of 3 hosts under one switch: 3 servers.
  Write("topo.txt", "4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n");
  const std::string cluster = Write("c.yaml",
                                    "cluster: {gpus_per_server: 1}\n"
                                    "fabric: {topology: {format: hpcc, file: topo.txt}}\n"
                                    "scheduling: {storage_servers: 3}\n");
  const std::string trace = Write("t.csv", "job_id,submit_s,gpus,model,iterations\nj,0,1,llama3-8b,1\n");
  Result<Scenario> s = LoadScenarioFile(cluster, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const PolicySpec spec;
  Result<ScheduleRun> storage = RunSchedule(*s, trace, {&spec, 1});
  ASSERT_FALSE(storage.ok());
  EXPECT_EQ(storage.error().message.rfind(cluster + ": scheduling.storage_servers: expected fewer than the cluster's 3", 0),
            0u)
      << storage.error().message;

  s->scheduling.storage_servers = 0;
  const std::string big = Write("big.csv", "job_id,submit_s,gpus,model,iterations\nhuge,0,4,llama3-8b,1\n");
  Result<ScheduleRun> too_big = RunSchedule(*s, big, {&spec, 1});
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error().message.rfind(big + ": job 'huge'", 0), 0u) << too_big.error().message;

  const std::string bad = Write("bad.csv", "job_id,submit_s,gpus,model,iterations\nj,0,1,no-such-model,1\n");
  Result<ScheduleRun> unknown = RunSchedule(*s, bad, {&spec, 1});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message.rfind(bad + ":2: ", 0), 0u) << unknown.error().message;

  Result<ScheduleRun> ok = RunSchedule(*s, trace, {&spec, 1});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_EQ(ok->results.size(), 1u);
  EXPECT_EQ(ok->trace_jobs, 1u);
  EXPECT_EQ(ok->results[0].jobs.size(), 1u);
  EXPECT_EQ(ok->wall_s.size(), 1u);
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

// scheduling.link_failures by name -> the link between the two switches;
// a name that is not a node, or two nodes with no link, is an error naming
// the failure.
TEST(ResolveLinkFailures, NamesBecomeTheLinkBetweenThem) {
  const Scenario s = LoadScheduleScenario(
      "cluster: {servers: 4, gpus_per_server: 8, nic: {rate: 100Gbps}}\n"
      "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}, switch: 32x100G}\n"
      "scheduling:\n"
      "  link_failures:\n"
      "    - {between: [spine1, leaf0], at: 10s, for: 5s}\n");
  Result<BuiltFabric> fabric = BuildFabric(s);
  ASSERT_TRUE(fabric.ok()) << fabric.error().message;
  ReplayOptions o;
  ASSERT_TRUE(ResolveLinkFailures(s, fabric->topology, o).ok());
  ASSERT_EQ(o.link_failures.size(), 1u);
  const Topology& t = fabric->topology;
  const Port& p = t.port(static_cast<PortId>(o.link_failures[0].link * 2));
  const std::string ends = t.node(p.node).name + "-" + t.node(p.peer).name;
  EXPECT_TRUE(ends == "leaf0-spine1" || ends == "spine1-leaf0") << ends;
  EXPECT_EQ(o.link_failures[0].at_s, 10);
  EXPECT_EQ(o.link_failures[0].for_s, 5);

  Scenario unknown = s;
  unknown.scheduling.link_failures[0].a = "spine9";
  ReplayOptions u;
  EXPECT_EQ(ResolveLinkFailures(unknown, t, u).error().message,
            "scheduling.link_failures.0.between: no node named 'spine9' in the topology");
  Scenario apart = s;
  apart.scheduling.link_failures[0].a = "leaf1";
  ReplayOptions a;
  EXPECT_EQ(ResolveLinkFailures(apart, t, a).error().message,
            "scheduling.link_failures.0.between: 'leaf1' and 'leaf0' share no link");
}

}  // namespace
}  // namespace aifabric
