// End-to-end specs of `aifabric schedule`: a small trace on a 32-GPU
// leaf-spine, its files, determinism, --compare, --set, and bad input
// (exit code 2, a message naming the file, line, flag or job, no output).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

// 4 servers x 8 GPUs, a 100G NIC per GPU; two leaves of 16 NICs (two
// servers each) under two spines.
const char* kTinyCluster =
    "name: tiny\n"
    "seed: 3\n"
    "cluster: {servers: 4, gpus_per_server: 8, nic: {rate: 100Gbps}}\n"
    "fabric:\n"
    "  topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}\n"
    "  switch: 32x100G\n"
    "scheduling: {policy: topology, max_phases_per_job: 8}\n";

// Six jobs, in file order a..f; by submit time c comes before b.
// c's submit time is written as a generator writes doubles, finer than the
// simulator's picosecond: it must still start no earlier than it arrived.
const char* kTrace =
    "job_id,submit_s,gpus,model,iterations\n"
    "a,0,8,llama3-8b,4\n"
    "b,2,16,llama3-8b,3\n"
    "c,0.3333333333333333,4,llama3-8b,5\n"
    "d,2.5,32,llama3-8b,2\n"
    "e,3,1,llama3-8b,6\n"
    "f,3,16,llama3-8b,2\n";

struct JobRow {
  std::string id;
  double submit_s, start_s, end_s;
};

// The rows of jobs.csv (header checked), by its column names.
std::vector<JobRow> JobRows(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("job_id,model,kind,gpus,iterations,submit_s,start_s,end_s,", 0), 0u) << line;
  std::vector<JobRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    EXPECT_EQ(f.size(), 21u) << line;
    if (f.size() < 8) continue;
    rows.push_back({f[0], std::stod(f[5]), std::stod(f[6]), std::stod(f[7])});
  }
  return rows;
}

class ScheduleCli : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string cluster_ = dir_.Write("tiny.yaml", kTinyCluster);
  std::string trace_ = dir_.Write("trace.csv", kTrace);
  std::string Args(const std::string& out, const std::string& extra = "") const {
    return "schedule --cluster " + cluster_ + " --trace " + trace_ + " --out " + dir_.path() + "/" + out + " " + extra;
  }
};

TEST_F(ScheduleCli, ReplaysEveryJobAndWritesItsFiles) {
  CommandResult r = RunAifabric(Args("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = dir_.path() + "/out/";
  for (const char* f : {"summary.json", "jobs.csv", "topology.conf", "k8s-node-labels.sh", "kueue-topology.yaml"}) {
    EXPECT_TRUE(Exists(out + f)) << f;
  }
  // One row per job, in submit order (ties in file order: e before f);
  // each waited, then ran.
  const std::vector<JobRow> rows = JobRows(ReadFile(out + "jobs.csv"));
  ASSERT_EQ(rows.size(), 6u);
  const char* ids[] = {"a", "c", "b", "d", "e", "f"};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].id, ids[i]);
    EXPECT_GE(rows[i].start_s, rows[i].submit_s) << rows[i].id;
    EXPECT_GT(rows[i].end_s, rows[i].start_s) << rows[i].id;
  }
  // d asks for all 32 GPUs: it cannot overlap any other job.
  const JobRow& d = rows[3];
  for (const JobRow& other : rows) {
    if (other.id != "d") {
      EXPECT_TRUE(other.end_s <= d.start_s || other.start_s >= d.end_s) << other.id;
    }
  }
  const auto summary = nlohmann::json::parse(ReadFile(out + "summary.json"));
  EXPECT_EQ(summary["cluster"], "tiny");
  EXPECT_EQ(summary["trace"], trace_);
  EXPECT_EQ(summary["spec"], "topology");  // scheduling.policy
  EXPECT_EQ(summary["comm"], "none");
  EXPECT_EQ(summary["seed"], 3);
  EXPECT_EQ(summary["jobs"], 6);
  EXPECT_EQ(summary["schedulable_gpus"], 32);
  for (const char* key : {"jct_mean_s", "jct_p95_s", "queue_mean_s", "gpu_util_alloc", "gpu_util_effective"}) {
    EXPECT_TRUE(summary[key].is_number()) << key;
  }
  // Allocated GPU time bounds the computing time.
  EXPECT_LE(summary["gpu_util_effective"].get<double>(), summary["gpu_util_alloc"].get<double>());
  EXPECT_LE(summary["gpu_util_alloc"].get<double>(), 1.0);
  // The Slurm tree: two leaves of two servers each.
  EXPECT_THAT(ReadFile(out + "topology.conf"), HasSubstr("Nodes=node[0001-0002]"));
  EXPECT_THAT(ReadFile(out + "topology.conf"), HasSubstr("Nodes=node[0003-0004]"));
  EXPECT_THAT(r.out, HasSubstr("aifabric schedule — tiny (topology, seed 3)"));
  EXPECT_THAT(r.out, HasSubstr("6 jobs on 32 schedulable GPUs"));
  EXPECT_THAT(r.out, HasSubstr("peak memory"));
}

TEST_F(ScheduleCli, SameInputsGiveByteIdenticalFiles) {
  ASSERT_EQ(RunAifabric(Args("a", "--quiet")).exit_code, 0);
  ASSERT_EQ(RunAifabric(Args("b", "--quiet")).exit_code, 0);
  for (const char* f : {"summary.json", "jobs.csv", "topology.conf", "k8s-node-labels.sh", "kueue-topology.yaml"}) {
    const std::string a = ReadFile(dir_.path() + "/a/" + f);
    EXPECT_FALSE(a.empty()) << f;
    EXPECT_EQ(a, ReadFile(dir_.path() + "/b/" + f)) << f;
  }
}

TEST_F(ScheduleCli, QuietPrintsNothing) {
  CommandResult r = RunAifabric(Args("q", "--quiet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST_F(ScheduleCli, CompareReplaysEverySpecOnTheSameTrace) {
  CommandResult r = RunAifabric(Args("cmp", "--compare first_fit,topology+cassini+crux"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("first_fit"));
  EXPECT_THAT(r.out, HasSubstr("topology+crux+cassini"));
  for (const char* metric : {"jobs", "jct_mean_s", "jct_p95_s", "queue_mean_s", "queue_p95_s", "gpu_util_alloc",
                             "gpu_util_effective", "run_slowdown_mean", "comm_slowdown_mean", "fabric_util",
                             "makespan_s"}) {
    EXPECT_THAT(r.out, HasSubstr(std::string("  ") + metric + " ")) << metric;
  }
  const std::string out = dir_.path() + "/cmp/";
  for (const char* f : {"compare.csv", "topology.conf", "k8s-node-labels.sh", "kueue-topology.yaml",
                        "first_fit/summary.json", "first_fit/jobs.csv", "topology+crux+cassini/summary.json",
                        "topology+crux+cassini/jobs.csv"}) {
    EXPECT_TRUE(Exists(out + f)) << f;
  }
  EXPECT_FALSE(Exists(out + "summary.json"));
  std::istringstream csv(ReadFile(out + "compare.csv"));
  std::vector<std::string> lines;
  for (std::string l; std::getline(csv, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("first_fit,first_fit,none,6,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("topology+crux+cassini,topology,crux+cassini,6,", 0), 0u) << lines[2];
  for (const char* spec : {"first_fit", "topology+crux+cassini"}) {
    EXPECT_EQ(JobRows(ReadFile(out + spec + "/jobs.csv")).size(), 6u) << spec;
  }
}

TEST_F(ScheduleCli, SetOverridesTheClusterScenario) {
  // One storage server leaves 3 x 8 = 24 GPUs for jobs; d (32 GPUs) no
  // longer fits, so drop it from the trace.
  std::string trace = kTrace;
  trace.erase(trace.find("d,2.5"), std::string("d,2.5,32,llama3-8b,2\n").size());
  const std::string small = dir_.Write("small.csv", trace);
  CommandResult r = RunAifabric("schedule --cluster " + cluster_ + " --trace " + small + " --out " + dir_.path() +
                                "/s --quiet --set scheduling.storage_servers=1 --policy random");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(ReadFile(dir_.path() + "/s/summary.json"));
  EXPECT_EQ(summary["schedulable_gpus"], 24);
  EXPECT_EQ(summary["spec"], "random");
  EXPECT_EQ(summary["jobs"], 5);
}

// The shipped clusters take the shipped trace (its first 300 jobs, to stay
// fast): 256 - 4 storage servers of 8 GPUs on cluster.yaml; 847 - 4 on the
// Lingjun file, whose ToR names ("P10/S14") become label values with '.'.
TEST(ScheduleCliExamples, TheExampleClustersReplayTheExampleTrace) {
  TempDir dir;
  std::istringstream full(ReadFile(std::string(AIFABRIC_SOURCE_DIR) + "/examples/scheduling/trace.csv"));
  std::string head;
  std::string line;
  for (int i = 0; i <= 300 && std::getline(full, line); ++i) head += line + "\n";
  const std::string trace = dir.Write("head.csv", head);
  struct Example {
    const char* file;
    int schedulable_gpus;
  };
  for (const Example& e : {Example{"cluster.yaml", 252 * 8}, Example{"lingjun_cluster.yaml", 843 * 8}}) {
    SCOPED_TRACE(e.file);
    const std::string out = dir.path() + "/" + e.file;
    CommandResult r =
        RunAifabric(std::string("schedule --cluster ") + AIFABRIC_SOURCE_DIR + "/examples/scheduling/" + e.file +
                    " --trace " + trace + " --out " + out + " --compare first_fit,topology+crux+cassini");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Exists(out + "/k8s-node-labels.sh"));
    EXPECT_EQ(r.err.find("not written"), std::string::npos) << r.err;
    EXPECT_TRUE(Exists(out + "/topology.conf"));
    for (const char* spec : {"first_fit", "topology+crux+cassini"}) {
      const auto summary = nlohmann::json::parse(ReadFile(out + "/" + spec + "/summary.json"));
      EXPECT_EQ(summary["jobs"], 300);
      EXPECT_EQ(summary["schedulable_gpus"], e.schedulable_gpus);
      const std::vector<JobRow> rows = JobRows(ReadFile(out + "/" + spec + "/jobs.csv"));
      ASSERT_EQ(rows.size(), 300u);
      for (const JobRow& row : rows) EXPECT_GT(row.end_s, row.start_s) << row.id;
    }
  }
}

// The packet-level window. A lone 16-GPU llama3-8b job (tp 4, dp 4, on
// servers 0 and 1) with its all-reduce overlapping all of its compute
// starts that all-reduce as it starts, at 0 s: the window [0, 1 ms) holds
// its ring's flows that cross servers, dp rank 1 -> 2 and 3 -> 0 for each
// of the 4 tensor ranks: 8 flows, run at packet level into packet_window/.
TEST_F(ScheduleCli, PacketWindowRerunsTheWindowsFlowsAtPacketLevel) {
  const std::string lone = dir_.Write("lone.csv", "job_id,submit_s,gpus,model,iterations\nx,0,16,llama3-8b,3\n");
  const std::string out = dir_.path() + "/window";
  CommandResult r = RunAifabric("schedule --cluster " + cluster_ + " --trace " + lone + " --out " + out +
                                " --set scheduling.jobs.overlap_fraction=1 --packet-window 0s,1ms");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("8 flows at packet level"));
  const auto summary = nlohmann::json::parse(ReadFile(out + "/packet_window/summary.json"));
  EXPECT_EQ(summary["model"], "packet");
  std::istringstream flows(ReadFile(out + "/packet_window/flows.csv"));
  std::string line;
  int rows = -1;  // the header
  while (std::getline(flows, line)) ++rows;
  EXPECT_EQ(rows, 8);
  for (const char* f : {"links.csv", "diagnosis.json", "metrics.prom", "report.html"}) {
    EXPECT_TRUE(Exists(out + "/packet_window/" + f)) << f;
  }
  EXPECT_TRUE(Exists(out + "/summary.json"));  // the replay's own files too
}

// A spine link down for the whole replay: the jobs that crossed it are
// routed around it (the summary counts no reroutes: every job starts with
// it already down), every job still finishes; a failure on a host's link
// is refused with the scenario's field named.
TEST_F(ScheduleCli, LinkFailuresReplayAroundTheDownLink) {
  // kTinyCluster with a link_failures entry in its scheduling section.
  const std::string cluster = dir_.Write(
      "failing2.yaml",
      "name: tiny\nseed: 3\ncluster: {servers: 4, gpus_per_server: 8, nic: {rate: 100Gbps}}\n"
      "fabric:\n  topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}\n  switch: 32x100G\n"
      "scheduling:\n  policy: topology\n  max_phases_per_job: 8\n"
      "  link_failures:\n    - {between: [leaf0, spine1], at: 0s}\n");
  const std::string out = dir_.path() + "/failed";
  CommandResult r = RunAifabric("schedule --cluster " + cluster + " --trace " + trace_ + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(ReadFile(out + "/summary.json"));
  EXPECT_EQ(summary["jobs"], 6);
  EXPECT_EQ(summary["reroutes"], 0);
  for (const JobRow& row : JobRows(ReadFile(out + "/jobs.csv"))) EXPECT_GT(row.end_s, row.start_s) << row.id;
  const std::string host_link = dir_.Write(
      "host.yaml",
      "name: tiny\ncluster: {servers: 4, gpus_per_server: 8, nic: {rate: 100Gbps}}\n"
      "fabric:\n  topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}\n  switch: 32x100G\n"
      "scheduling:\n  link_failures:\n    - {between: [h0, leaf0], at: 0s}\n");
  CommandResult bad = RunAifabric("schedule --cluster " + host_link + " --trace " + trace_ + " --out " + out + "2");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr(host_link + ": scheduling.link_failures.0: the link h0 - leaf0 has a host at one end"));
  EXPECT_FALSE(Exists(out + "2"));
}

TEST_F(ScheduleCli, BadInputExitsTwoWithTheMessageAndWritesNothing) {
  const std::string bad_trace = dir_.Write("bad.csv", "job_id,submit_s,gpus,model,iterations\na,0,8,llama3-8b,4\nb,1,x,llama3-8b,4\n");
  const std::string big_trace = dir_.Write("big.csv", "job_id,submit_s,gpus,model,iterations\nhuge,0,64,llama3-8b,1\n");
  struct Case {
    std::string args;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      {"--policy best_fit", {"--policy: unknown policy 'best_fit'", "first_fit"}},
      {"--policy topology+fast", {"--policy: unknown option '+fast'"}},
      {"--compare first_fit,first_fit", {"--compare: policy spec 'first_fit' listed twice"}},
      {"--compare first_fit,", {"--compare: empty policy spec"}},
      {"--set scheduling.policy=nope", {"--set scheduling.policy: unknown policy 'nope'"}},
      {"--set cluster.servers=-1", {"--set cluster.servers: expected an integer >= 1"}},
      {"--set scheduling.storage_servers=4", {"--set scheduling.storage_servers: expected fewer than cluster.servers (4)"}},
      {"--packet-window 1s", {"--packet-window: expected START,DURATION"}},
      {"--packet-window 1s,1s", {"--packet-window: duration: expected more than 0 and at most 100ms"}},
      {"--packet-window x,1ms", {"--packet-window: start: "}},
      {"--compare first_fit,topology --packet-window 0s,1ms", {"--packet-window"}},
  };
  for (const Case& c : cases) {
    CommandResult r = RunAifabric(Args("bad", c.args));
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    for (const std::string& s : c.expect) EXPECT_THAT(r.err, HasSubstr(s)) << c.args;
    EXPECT_FALSE(Exists(dir_.path() + "/bad")) << c.args;
  }
  const std::string out = " --out " + dir_.path() + "/bad";
  CommandResult missing = RunAifabric("schedule --cluster " + cluster_ + " --trace " + dir_.path() + "/nope.csv" + out);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr(dir_.path() + "/nope.csv"));
  CommandResult line = RunAifabric("schedule --cluster " + cluster_ + " --trace " + bad_trace + out);
  EXPECT_EQ(line.exit_code, 2);
  EXPECT_THAT(line.err, HasSubstr(bad_trace + ":3: gpus"));
  CommandResult big = RunAifabric("schedule --cluster " + cluster_ + " --trace " + big_trace + out);
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_THAT(big.err, HasSubstr("job 'huge'"));
  EXPECT_THAT(big.err, HasSubstr("64 GPUs"));
  CommandResult no_trace = RunAifabric("schedule --cluster " + cluster_ + out);
  EXPECT_EQ(no_trace.exit_code, 2);
  EXPECT_THAT(no_trace.err, HasSubstr("--trace"));
  EXPECT_FALSE(Exists(dir_.path() + "/bad"));
}

}  // namespace
}  // namespace aifabric::testing

namespace aifabric::testing {
namespace {

// The example traces are what `aifabric trace` writes for the example
// clusters (the commands docs/scheduling.md gives), byte for byte: the
// generator is deterministic and the committed files are its output.
TEST(TraceCli, ReproducesTheExampleTraces) {
  TempDir dir;
  struct Example {
    const char* cluster;
    const char* flags;
    const char* trace;
  };
  for (const Example& e : {Example{"cluster.yaml", "", "trace.csv"},
                           Example{"lingjun_cluster.yaml", " --per-hour 94", "trace_lingjun.csv"}}) {
    const std::string out = dir.path() + "/" + e.trace;
    CommandResult r = RunAifabric(std::string("trace --cluster ") + AIFABRIC_SOURCE_DIR + "/examples/scheduling/" +
                                  e.cluster + e.flags + " --out " + out + " --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadFile(out), ReadFile(std::string(AIFABRIC_SOURCE_DIR) + "/examples/scheduling/" + e.trace)) << e.trace;
  }
}

TEST(TraceCli, SmallTraceAndBadInput) {
  TempDir dir;
  const std::string cluster = dir.Write("c.yaml", kTinyCluster);
  const std::string out = dir.path() + "/t.csv";
  CommandResult r = RunAifabric("trace --cluster " + cluster + " --out " + out +
                                " --jobs 40 --source helios --seed 3 --models llama3-8b,llama3-70b");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream csv(ReadFile(out));
  std::string line;
  int rows = -1;
  while (std::getline(csv, line)) {
    ++rows;
    if (rows == 0) continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 5u);
    EXPECT_LE(std::stoi(f[2]), 32) << line;  // no job larger than the 4 x 8 GPUs
  }
  EXPECT_EQ(rows, 40);
  struct Case {
    std::string args;
    std::string expect;
  };
  for (const Case& c : std::vector<Case>{{"--source nowhere", "nowhere"},
                                         {"--models llama3-8b,gpt5", "--models: "},
                                         {"--max-gpus 0", "--max-gpus: expected at least 1"}}) {
    CommandResult bad = RunAifabric("trace --cluster " + cluster + " --out " + dir.path() + "/bad.csv " + c.args);
    EXPECT_EQ(bad.exit_code, 2) << c.args;
    EXPECT_THAT(bad.err, HasSubstr(c.expect)) << c.args << "\n" << bad.err;
    EXPECT_FALSE(Exists(dir.path() + "/bad.csv")) << c.args;
  }
}

}  // namespace
}  // namespace aifabric::testing
