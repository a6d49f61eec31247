// End-to-end specs of the aifabric command line: outputs, determinism,
// --set, validate, and bad input (exit code 2, a message naming the file
// and line or field, no output files).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

// Four single-NIC servers under one leaf-spine of 100G switches; each line
// is numbered in comments where tests refer to it.
const char* kSmallScenario =
    "name: small\n"                                               // 1
    "seed: 7\n"                                                   // 2
    "cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"  // 3
    "fabric:\n"                                                   // 4
    "  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}\n"  // 5
    "  switch: 32x100G\n"                                         // 6
    "  link: {latency: 1us}\n"                                    // 7
    "workload:\n"                                                 // 8
    "  - permutation: {size: 256KiB}\n";                          // 9

TEST(Cli, RunWritesAllOutputsAndSummaryAddsUp) {
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("run " + scenario + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"summary.json", "flows.csv", "links.csv", "fct.txt"}) {
    EXPECT_TRUE(Exists(dir.path() + "/out/" + f)) << f;
  }
  const auto summary = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  // A permutation of 4 hosts is 4 flows of 256 KiB; with no drops all
  // complete and every byte sent is delivered.
  EXPECT_EQ(summary["scenario"], "small");
  EXPECT_EQ(summary["model"], "packet");
  EXPECT_EQ(summary["seed"], 7);
  EXPECT_EQ(summary["flows"]["count"], 4);
  EXPECT_EQ(summary["flows"]["completed"], 4);
  EXPECT_EQ(summary["bytes"]["sent"], 4 * 262144);
  EXPECT_EQ(summary["bytes"]["delivered"], 4 * 262144);
  EXPECT_EQ(summary["drops"], 0);
  // Slowdown is FCT over the idle-fabric FCT: never below 1.
  EXPECT_GE(summary["flows"]["slowdown"]["p50"].get<double>(), 1.0);
  EXPECT_THAT(r.out, HasSubstr("4/4 completed"));

  // fct.txt uses HPCC's numbering: host n is 0x0b000001 + n/256*0x10000 +
  // n%256*0x100, so host 0 is 0b000001 and host 3 is 0b000301.
  std::istringstream fct(ReadFile(dir.path() + "/out/fct.txt"));
  std::string line;
  int lines = 0;
  while (std::getline(fct, line)) {
    ++lines;
    EXPECT_THAT(line, ::testing::MatchesRegex("0b000[0-3]01 0b000[0-3]01 [0-9]+ 4791 262144 0 [0-9]+ [0-9]+"));
  }
  EXPECT_EQ(lines, 4);
}

// One 995-byte flow across a k=8 fat-tree (100G, 1 us cables, 32x100G
// switches of 450 ns) on an idle fabric, worked by hand. Host 0 and host 127
// sit in different pods: 6 cables, 5 switches. The default packet is 4096
// payload bytes with 82 bytes of RoCEv2 framing; an ACK is 86 wire bytes.
TEST(Cli, FctTxtOfOneFlowIsHpccsDefinitionToTheNanosecond) {
  TempDir dir;
  const std::string scenario = dir.Write("one.yaml",
                                         "name: one\n"
                                         "cluster: {servers: 128, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
                                         "fabric:\n"
                                         "  topology: {type: fat_tree, k: 8}\n"
                                         "  switch: 32x100G\n"
                                         "  link: {latency: 1us}\n"
                                         "workload:\n"
                                         "  - flows:\n"
                                         "      - {src: 0, dst: 127, size: 995}\n");
  CommandResult r = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // HPCC (third.cc): pairRtt = 2 * delay + sum over hops of
  // floor(payload * 8e9 / bw) = 2 * (6 * 1000 + 5 * 450) + 6 * floor(4096 * 8 / 100)
  // = 16500 + 6 * 327 = 18462 ns; standalone_fct = pairRtt +
  // floor((995 + 1 * 82) * 8 / 100) = 18462 + 86 = 18548 ns.
  // fct: the last byte arrives after 6 store-and-forward hops of
  // 1077 * 8 / 100 = 86.16 ns plus 1000 ns, and 5 switches of 450 ns:
  // 8766.96 ns; its ACK comes back in 6 * (86 * 8 / 100 + 1000) + 5 * 450 =
  // 8291.28 ns; the sender holds it at 17058.24 ns, 17058 in whole ns.
  EXPECT_EQ(ReadFile(dir.path() + "/out/fct.txt"), "0b000001 0b007f01 10000 4791 995 0 17058 18548\n");
  // flows.csv keeps the one-way completion beside the acknowledged one.
  std::istringstream csv(ReadFile(dir.path() + "/out/flows.csv"));
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_EQ(header,
            "flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,acked_end_ns,acked_fct_ns,"
            "hpcc_standalone_fct_ns");
  EXPECT_THAT(row, ::testing::StartsWith("0,0,127,995,0,8766.96,8766.96,"));
  EXPECT_THAT(row, ::testing::EndsWith(",17058.24,17058.24,18548"));
}

nlohmann::json WithoutWallClock(nlohmann::json j) {
  // The only figures that measure the machine rather than the simulation.
  j.erase("wall_s");
  j.erase("events_per_s");
  return j;
}

TEST(Cli, SameScenarioAndSeedGiveByteIdenticalOutputs) {
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  ASSERT_EQ(RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/a").exit_code, 0);
  ASSERT_EQ(RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/b").exit_code, 0);
  for (const char* f : {"flows.csv", "links.csv", "fct.txt", "timeseries.csv", "metrics.prom", "trace.json",
                        "diagnosis.json", "report.html"}) {
    EXPECT_EQ(ReadFile(dir.path() + "/a/" + f), ReadFile(dir.path() + "/b/" + f)) << f;
  }
  EXPECT_EQ(WithoutWallClock(nlohmann::json::parse(ReadFile(dir.path() + "/a/summary.json"))),
            WithoutWallClock(nlohmann::json::parse(ReadFile(dir.path() + "/b/summary.json"))));
  // A different seed draws a different permutation.
  ASSERT_EQ(RunAifabric("run " + scenario + " --quiet --set seed=8 --out " + dir.path() + "/c").exit_code, 0);
  EXPECT_NE(ReadFile(dir.path() + "/a/flows.csv"), ReadFile(dir.path() + "/c/flows.csv"));
}

TEST(Cli, SetOverridesAFieldByItsDottedPath) {
  // 8 servers instead of 4: the permutation has 8 flows of 1 MiB.
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/out" +
                                " --set cluster.servers=8 --set workload.0.permutation.size=1MiB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  EXPECT_EQ(summary["flows"]["count"], 8);
  EXPECT_EQ(summary["bytes"]["sent"], 8 * 1048576);
}

TEST(Cli, ValidatePrintsTheClusterAndWritesDot) {
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("validate " + scenario + " --dot " + dir.path() + "/fabric.dot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 4 hosts, 2 leaves + 2 spines, 4 host links + 2x2 leaf-spine links.
  EXPECT_THAT(r.out, HasSubstr("4 hosts, 4 switches, 8 links"));
  EXPECT_THAT(ReadFile(dir.path() + "/fabric.dot"), HasSubstr("graph"));
}

// --config writes a config_db.json per switch and cabling.csv; a path
// that cannot be written is bad input (exit 2) and leaves no file.
TEST(Cli, ValidateWritesTheSwitchConfiguration) {
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("validate " + scenario + " --config " + dir.path() + "/cfg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* sw : {"leaf0", "leaf1", "spine0", "spine1"}) {
    const nlohmann::json db = nlohmann::json::parse(ReadFile(dir.path() + "/cfg/" + sw + "/config_db.json"));
    EXPECT_EQ(db["DEVICE_METADATA"]["localhost"]["hostname"], sw);
    EXPECT_EQ(db["PORT"]["Ethernet0"]["speed"], "100000");  // 32x100G: Mb/s
  }
  // 8 links, each once, plus the header.
  const std::string csv = ReadFile(dir.path() + "/cfg/cabling.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);

  dir.Write("blocker", "a file where a folder is needed");
  r = RunAifabric("validate " + scenario + " --config " + dir.path() + "/blocker/cfg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--config"));
  EXPECT_FALSE(Exists(dir.path() + "/blocker/cfg"));
}

TEST(Cli, HelpAndVersion) {
  EXPECT_EQ(RunAifabric("--help").exit_code, 0);
  CommandResult v = RunAifabric("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_THAT(v.out, HasSubstr("aifabric"));
  EXPECT_EQ(RunAifabric("run").exit_code, 2);  // missing scenario argument
}

struct BadInput {
  const char* label;
  std::string scenario;                 // scenario text
  std::vector<std::pair<std::string, std::string>> files;  // extra files
  std::string extra_args;
  std::vector<std::string> expect;      // substrings of the error message
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(Cli, ValidateAcceptsACollectiveItemAndCountsItsCost) {
  // A collective item and a training item reading its dataset load, and
  // the estimate counts the collective's iterations and the sweep that
  // chooses its algorithm: more events than the flows alone.
  TempDir dir;
  const std::string flows = dir.Write("flows.yaml", kSmallScenario);
  const std::string items = dir.Write(
      "items.yaml", Replace(kSmallScenario, "  - permutation: {size: 256KiB}\n",
                            "  - permutation: {size: 256KiB}\n"
                            "  - {steps: 4, collective: {op: all_reduce, size: 4MiB, gpus: 2}}\n"));
  CommandResult f = RunAifabric("validate " + flows);
  CommandResult v = RunAifabric("validate " + items);
  ASSERT_EQ(v.exit_code, 0) << v.err;
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto events = [](const std::string& out) {
    const size_t at = out.find("estimated cost: ");
    return at == std::string::npos ? 0.0 : std::stod(out.substr(at + 16));
  };
  EXPECT_GT(events(v.out), events(f.out)) << v.out;
}

std::vector<BadInput> BadInputs() {
  const std::string base = kSmallScenario;
  const std::string hpcc_topology = "name: t\nfabric:\n  topology: {format: hpcc, file: topology.txt}\n  switch: 32x100G\n";
  return {
      {"wrong type", Replace(base, "servers: 4", "servers: many"), {}, "", {"bad.yaml:3", "cluster.servers"}},
      {"unknown key", Replace(base, "  link:", "  lnk:"), {}, "", {"bad.yaml:7", "fabric.lnk"}},
      {"negative rate", Replace(base, "rate: 100Gbps", "rate: -100Gbps"), {}, "", {"bad.yaml:3", "cluster.nic.rate"}},
      {"unknown catalog entry", Replace(base, "32x100G", "999x100G"), {}, "", {"bad.yaml:6", "fabric.switch"}},
      {"bad unit", Replace(base, "latency: 1us", "latency: 5parsecs"), {}, "", {"bad.yaml:7", "fabric.link.latency"}},
      {"bad enum", Replace(base, "type: leaf_spine", "type: torus"), {}, "", {"bad.yaml:5", "fabric.topology.type"}},
      {"zero servers", Replace(base, "servers: 4", "servers: 0"), {}, "", {"bad.yaml:3", "cluster.servers"}},
      {"YAML syntax error", Replace(base, "  link: {latency: 1us}", "  link: {latency: 1us"), {}, "", {"bad.yaml:"}},
      {"missing topology file", hpcc_topology, {}, "", {"fabric.topology.file", "topology.txt"}},
      {"malformed HPCC topology line", hpcc_topology,
       {{"topology.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 fast 0.001ms 0\n"}}, "", {"topology.txt:4"}},
      {"link to a node that does not exist", hpcc_topology,
       {{"topology.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 9 100Gbps 0.001ms 0\n"}}, "", {"topology.txt:4", "9"}},
      {"malformed HPCC flow line", base + "  - flows: {format: hpcc, file: flow.txt}\n",
       {{"flow.txt", "2\n0 1 3 100 1000 0.0\n0 1 3\n"}}, "", {"flow.txt:3"}},
      {"flow to a node that does not exist", base + "  - flows: [{src: 0, dst: 99, size: 1KiB}]\n", {}, "",
       {"workload[1]", "99"}},
      {"topology too large for the switch", Replace(base, "servers: 4", "servers: 100000"), {}, "",
       {"fabric.topology"}},
      {"checkpoint every 0 steps",
       Replace(base, "  - permutation: {size: 256KiB}\n",
               "  - {steps: 4, training: {model: llama3-8b, dp: 2, global_batch: 2, checkpoint: {storage_servers: 1, "
               "every: 0}}}\n"),
       {}, "", {"bad.yaml:9", "workload.0.training.checkpoint.every: expected an integer >= 1"}},
      {"checkpoint every 1.5 steps",
       Replace(base, "  - permutation: {size: 256KiB}\n",
               "  - {steps: 4, training: {model: llama3-8b, dp: 2, global_batch: 2, checkpoint: {storage_servers: 1, "
               "every: 1.5}}}\n"),
       {}, "", {"bad.yaml:9", "workload.0.training.checkpoint.every: expected an integer >= 1, got '1.5'"}},
      {"collective of an unknown op",
       Replace(base, "  - permutation: {size: 256KiB}\n", "  - collective: {op: all_sum, size: 1MiB, gpus: 2}\n"), {},
       "", {"bad.yaml:9", "workload.0.collective.op"}},
      {"collective of 0 bytes",
       Replace(base, "  - permutation: {size: 256KiB}\n", "  - collective: {op: all_reduce, size: 0, gpus: 2}\n"), {},
       "", {"bad.yaml:9", "workload.0.collective.size"}},
      {"collective on more GPUs than the cluster",
       Replace(base, "  - permutation: {size: 256KiB}\n", "  - collective: {op: all_reduce, size: 1MiB, gpus: 64}\n"),
       {}, "", {"bad.yaml:9", "workload.0.collective.gpus: 64 GPUs, more than the cluster's"}},
      {"malformed --set", base, {}, "--set cluster.servers", {"--set cluster.servers"}},
      {"--set of an unknown field", base, {}, "--set fabric.color=blue", {"fabric.color"}},
      {"coflows on the packet model", base, {}, "--collectives coflow",
       {"simulation.collectives", "needs the flow or analytic model"}},
  };
}

TEST(Cli, BadInputGivesExitCode2AMessageAndNoOutput) {
  for (const BadInput& bad : BadInputs()) {
    SCOPED_TRACE(bad.label);
    TempDir dir;
    const std::string scenario = dir.Write("bad.yaml", bad.scenario);
    for (const auto& [name, contents] : bad.files) dir.Write(name, contents);
    const std::string out = dir.path() + "/out";
    CommandResult r = RunAifabric("run " + scenario + " --out " + out + " " + bad.extra_args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const std::string& s : bad.expect) EXPECT_THAT(r.err, HasSubstr(s));
    EXPECT_FALSE(Exists(out)) << "no output files on bad input";
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(Cli, EveryExampleRunsAndConservesBytes) {
  // Each runnable scenario under examples/ runs cleanly and drains, so the
  // payload its NICs sent equals what hosts received plus what switches
  // dropped (three independent counters); a run that dropped nothing
  // completed every flow.
  int examples = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(AIFABRIC_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".yaml") continue;
    // examples/plan/ holds the planner's inputs (price files), not scenarios.
    if (entry.path().parent_path().filename() == "plan") continue;
    // A calibration file (examples/validation/*_fit.yaml) is what a scenario's
    // `calibration:` names, not a scenario.
    if (entry.path().stem().string().ends_with("_fit")) continue;
    SCOPED_TRACE(entry.path().string());
    ++examples;
    // Both run and validate hold the scenario to the default --max-events
    // and --max-memory (run/run_cost.h) before anything runs: every example
    // passes them.
    if (ReadFile(entry.path().string()).rfind("# large example", 0) == 0) {
      // Too slow for the suite (docs/training.md gives its figures): it
      // must at least load, within the default bounds.
      CommandResult v = RunAifabric("validate " + entry.path().string());
      EXPECT_EQ(v.exit_code, 0) << v.err;
      EXPECT_NE(v.out.find("\nestimated cost: "), std::string::npos) << v.out;
      continue;
    }
    TempDir dir;
    CommandResult r = RunAifabric("run " + entry.path().string() + " --quiet --out " + dir.path() + "/out");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
    if (s.contains("tenants")) {
      // A shared run (docs/multi_tenant.md): every tenant finished beside
      // the others and alone, and each victim's shares sum to 1.
      std::map<std::string, double> shares;
      for (const auto& t : s["tenants"]) {
        EXPECT_TRUE(t["shared"]["complete"].get<bool>()) << t["name"];
        EXPECT_TRUE(t["alone"]["complete"].get<bool>()) << t["name"];
        EXPECT_GT(t["slowdown"].get<double>(), 0);
      }
      for (const auto& e : s["interference"]) shares[e["victim"].get<std::string>()] += e["share"].get<double>();
      for (const auto& [victim, sum] : shares) EXPECT_NEAR(sum, 1.0, 1e-9) << victim;
      EXPECT_TRUE(Exists(dir.path() + "/out/diagnosis.json"));
      // links.csv is the shared simulation's: its bytes, over all ports,
      // are what the tenants put on the links (each one's link_bytes, from
      // its alone run) when each did the same work shared and alone (a
      // job repeated for a `duration` runs fewer steps when slowed).
      uint64_t tenant_bytes = 0;
      bool same_work = true;
      for (const auto& t : s["tenants"]) {
        tenant_bytes += t["link_bytes"].get<uint64_t>();
        for (const char* count : {"steps", "iterations", "requests", "flows"}) {
          if (t["shared"].contains(count)) same_work = same_work && t["shared"][count] == t["alone"][count];
        }
      }
      std::istringstream links(ReadFile(dir.path() + "/out/links.csv"));
      std::string line;
      std::getline(links, line);
      EXPECT_EQ(line, "link_id,src,dst,rate_gbps,bytes,util,drops,ecn_marks,pfc_pause_ns,max_queue_bytes");
      uint64_t link_bytes = 0;
      while (std::getline(links, line)) {
        std::istringstream row(line);
        std::string field;
        for (int column = 0; column <= 4; ++column) std::getline(row, field, ',');
        link_bytes += std::stoull(field);
      }
      if (same_work) {
        EXPECT_EQ(link_bytes, tenant_bytes);
      }
      // report.html carries each tenant's slowdown and the interference
      // table exactly as summary.json has them.
      const std::string page = ReadFile(dir.path() + "/out/report.html");
      const std::string open = "id=\"report-data\">";
      const size_t from = page.find(open);
      ASSERT_NE(from, std::string::npos);
      const size_t to = page.find("</script>", from);
      const auto data = nlohmann::json::parse(page.substr(from + open.size(), to - from - open.size()));
      ASSERT_EQ(data["tenants"].size(), s["tenants"].size());
      for (size_t i = 0; i < s["tenants"].size(); ++i) {
        EXPECT_EQ(data["tenants"][i]["name"], s["tenants"][i]["name"]);
        EXPECT_EQ(data["tenants"][i]["slowdown"], s["tenants"][i]["slowdown"]);
      }
      ASSERT_EQ(data["interference"].size(), s["interference"].size());
      for (size_t i = 0; i < s["interference"].size(); ++i) {
        for (const char* key : {"victim", "aggressor", "share"}) {
          EXPECT_EQ(data["interference"][i][key], s["interference"][i][key]) << key;
        }
      }
      continue;
    }
    if (s.contains("training")) {
      // A training step: it finished, and its GPUs did useful work.
      for (const auto& t : s["training"]) {
        EXPECT_GT(t["step_time_s"].get<double>(), 0);
        EXPECT_GT(t["effective_gpu_utilization"].get<double>(), 0);
        EXPECT_LE(t["effective_gpu_utilization"].get<double>(), 1);
      }
      continue;
    }
    if (s.contains("inference")) {
      // Serving: every request done; a first token before the last.
      for (const auto& t : s["inference"]) {
        EXPECT_GT(t["requests"].get<uint64_t>(), 0u);
        EXPECT_EQ(t["ttft_ms"]["count"], t["requests"]);
        EXPECT_LE(t["ttft_ms"]["p50"].get<double>(), t["e2e_ms"]["p50"].get<double>());
      }
      EXPECT_TRUE(Exists(dir.path() + "/out/requests.csv"));
      continue;
    }
    if (s.contains("chakra")) {
      // A trace replay: each rank's kernels run one after another, so the
      // job takes at least its compute.
      for (const auto& t : s["chakra"]) {
        EXPECT_GE(t["job_time_s"].get<double>(), t["compute_s"].get<double>());
        EXPECT_GT(t["compute_s"].get<double>(), 0);
      }
      continue;
    }
    const auto& b = s["bytes"];
    EXPECT_EQ(b["sent"].get<uint64_t>(),
              b["delivered"].get<uint64_t>() + b["dropped"].get<uint64_t>() + b["discarded"].get<uint64_t>());
    if (s["drops"] == 0) {
      EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
    }
  }
  EXPECT_GE(examples, 4);
}

TEST(Cli, RoceIncastWithoutPfcDropsAndRetransmits) {
  // The 16-to-1 incast of examples/roce_incast.yaml outgrows its switch's
  // shared buffer. With the RoCE defaults PFC pauses the senders and nothing
  // is dropped; with neither PFC nor congestion control the buffer
  // overflows and go-back-N resends what was lost. Either way every flow
  // completes.
  const std::string scenario = std::string(AIFABRIC_SOURCE_DIR) + "/examples/roce_incast.yaml";
  auto run = [&](const std::string& args) {
    TempDir dir;
    CommandResult r = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/out " + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0) return nlohmann::json::object();
    return nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  };

  const nlohmann::json lossless = run("");
  ASSERT_FALSE(lossless.empty());
  EXPECT_EQ(lossless["drops"], 0);
  EXPECT_GT(lossless["pfc_frames"].get<uint64_t>(), 0u);
  EXPECT_EQ(lossless["flows"]["count"], 16);
  EXPECT_EQ(lossless["flows"]["completed"], lossless["flows"]["count"]);

  const nlohmann::json lossy = run("--set fabric.roce.pfc=false --set fabric.roce.cc=none");
  ASSERT_FALSE(lossy.empty());
  EXPECT_GT(lossy["drops"].get<uint64_t>(), 0u);
  EXPECT_GT(lossy["retransmitted_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(lossy["pfc_frames"], 0);
  EXPECT_EQ(lossy["flows"]["count"], 16);
  EXPECT_EQ(lossy["flows"]["completed"], lossy["flows"]["count"]);
}

TEST(Cli, TheFlowModelRunsTheSameScenario) {
  // The small scenario's permutation at flow level: every flow done, every
  // byte delivered, no link above its capacity, and each flow no faster
  // than alone on the idle fabric (slowdown >= 1).
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("run " + scenario + " --model flow --quiet --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  EXPECT_EQ(s["model"], "flow");
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
  EXPECT_EQ(s["bytes"]["sent"], s["bytes"]["delivered"]);
  EXPECT_LE(s["links"]["max_util"].get<double>(), 1.0 + 1e-9);
  EXPECT_GE(s["flows"]["slowdown"]["p50"].get<double>(), 1.0 - 1e-9);
  EXPECT_EQ(s["drops"], 0);
}

TEST(Cli, CompareRunsEachModelAndReportsDifferences) {
  // The small permutation under all three models: every metric has a value
  // per model, the first model's difference from itself is 0, and the
  // others' are (value - first) / first in percent.
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("compare " + scenario + " -J " + dir.path() + "/cmp.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("flows.fct_ns.p99"));
  const auto j = nlohmann::json::parse(ReadFile(dir.path() + "/cmp.json"));
  EXPECT_EQ(j["models"], nlohmann::json({"packet", "flow", "analytic"}));
  ASSERT_GE(j["metrics"].size(), 6u);
  for (const auto& m : j["metrics"]) {
    ASSERT_EQ(m["values"].size(), 3u);
    if (m["values"][0].get<double>() == 0) continue;
    EXPECT_DOUBLE_EQ(m["diff_percent"][0].get<double>(), 0);
    const double first = m["values"][0].get<double>();
    EXPECT_NEAR(m["diff_percent"][2].get<double>(), 100 * (m["values"][2].get<double>() - first) / first, 1e-9);
  }
  CommandResult bad = RunAifabric("compare " + scenario + " --models packet,emulated");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--models"));
}

TEST(Cli, ATenantCheckpointingEveryOtherStepReportsEachKindOfStep) {
  // examples/multi_tenant/checkpoint_every.yaml: four steps, a checkpoint
  // during steps 2 and 4. summary.json's `checkpoint` figures are those
  // steps' mean and the others' (src/run/tenant_qos_test.cc works both out
  // by hand); the mean step is their average.
  TempDir dir;
  CommandResult r = RunAifabric("run " + std::string(AIFABRIC_SOURCE_DIR) +
                                "/examples/multi_tenant/checkpoint_every.yaml --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("checkpoint every 2 steps (2 written): step 18.450 ms with it, 9.566 ms without"));
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  for (const char* run : {"shared", "alone"}) {
    SCOPED_TRACE(run);
    const auto& f = s["tenants"][0][run];
    const auto& steps = f["step_times_s"];
    ASSERT_EQ(steps.size(), 4u);
    ASSERT_TRUE(f.contains("checkpoint"));
    const auto& c = f["checkpoint"];
    EXPECT_EQ(c["every"], 2);
    EXPECT_EQ(c["steps"], 2);
    EXPECT_EQ(c["step_time_s"], steps[1]);
    EXPECT_EQ(c["step_time_s"], steps[3]);
    EXPECT_EQ(c["other_step_time_s"], steps[0]);
    EXPECT_EQ(c["other_step_time_s"], steps[2]);
    EXPECT_GT(c["step_time_s"].get<double>(), c["other_step_time_s"].get<double>());
    EXPECT_NEAR(f["step_time_s"].get<double>(),
                (c["step_time_s"].get<double>() + c["other_step_time_s"].get<double>()) / 2, 1e-12);
    EXPECT_NEAR(c["write_s"].get<double>(), 0.17524, 1e-5);  // 2 GiB into server 3's one 100G link
  }
  // trace.json marks the steps that wrote one.
  const auto trace = nlohmann::json::parse(ReadFile(dir.path() + "/out/trace.json"));
  std::vector<bool> marked;
  for (const auto& e : trace["traceEvents"]) {
    if (e.contains("args") && e["args"].contains("checkpoint")) marked.push_back(e["args"]["checkpoint"].get<bool>());
  }
  EXPECT_EQ(marked, (std::vector<bool>{false, true, false, true}));
  // With a checkpoint during every step (`every: 1`) every step writes
  // one, each the same 2 GiB into the same 100G link: the write takes the
  // same 175.24 ms, and there are no other steps to report.
  TempDir every;
  CommandResult p = RunAifabric("run " + std::string(AIFABRIC_SOURCE_DIR) +
                                "/examples/multi_tenant/checkpoint_every.yaml --set workload.0.training.checkpoint.every=1"
                                " --out " + every.path() + "/out");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_THAT(p.out, HasSubstr("checkpoint every step: write 175.2"));
  const auto t = nlohmann::json::parse(ReadFile(every.path() + "/out/summary.json"));
  for (const char* run : {"shared", "alone"}) {
    SCOPED_TRACE(run);
    const auto& f = t["tenants"][0][run];
    ASSERT_TRUE(f.contains("checkpoint"));
    const auto& c = f["checkpoint"];
    EXPECT_EQ(c["every"], 1);
    EXPECT_EQ(c["steps"], f["step_times_s"].size());
    EXPECT_EQ(c["step_time_s"], f["step_time_s"]);
    EXPECT_FALSE(c.contains("other_step_time_s"));
    EXPECT_NEAR(c["write_s"].get<double>(), 0.17524, 1e-5);
  }
}

TEST(Cli, MissingScenarioFileIsBadInput) {
  CommandResult r = RunAifabric("run /nonexistent/scenario.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/scenario.yaml"));
}

}  // namespace
}  // namespace aifabric::testing
