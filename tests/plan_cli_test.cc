// End-to-end specs of `aifabric plan`: the plan.json contract and its sums
// (bill of materials, cost of ownership, useful GPU-hours per dollar, the
// order), each design's scenario re-run alone, thread count invariance,
// --config for the chosen design, and bad input (exit 2, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// 32 H100s (4 servers) with a Llama-3 8B job over all of them (TP 8, DP 4
// filled in), on InfiniBand and RoCEv2 at 400G, rail-optimized and
// fat-tree: 2 IB switches (QM9700, QM9790) and 2 Ethernet ones (128x400G,
// 64x400G) in the catalog, so 2 x 2 + 2 x 2 = 8 designs.
const char* kRequirements =
    "name: small_plan\n"
    "cluster: {gpus: 32, gpu: H100}\n"
    "workloads:\n"
    "  - training: {model: llama3-8b, tp: 8, global_batch: 16}\n"
    "design_space:\n"
    "  fabric_kind: [ib, roce]\n"
    "  link_gbps: [400]\n"
    "  topology: [rail_optimized, fat_tree]\n"
    "costs: {years: 4, energy_usd_per_kwh: 0.1, pue: 1.25}\n"
    "packet_check: {designs: 0}\n";

// The same with the best design checked at packet level.
std::string WithPacketCheck() {
  std::string r = kRequirements;
  r.replace(r.find("designs: 0"), 10, "designs: 1");
  return r;
}

TEST(PlanCli, ContractAndSums) {
  TempDir dir;
  const std::string req = dir.Write("req.yaml", kRequirements);
  CommandResult r = RunAifabric("plan " + req + " -j 2 --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json plan = Json::parse(ReadFile(dir.path() + "/out/plan.json"));
  ASSERT_EQ(plan["designs"].size(), 8u);
  EXPECT_THAT(plan["recommendation"].get<std::string>(),
              HasSubstr("Buy " + plan["designs"][0]["name"].get<std::string>()));
  EXPECT_THAT(r.out, HasSubstr(plan["recommendation"].get<std::string>()));
  double previous = 1e300;
  for (const Json& d : plan["designs"]) {
    SCOPED_TRACE(d["name"].get<std::string>());
    for (const char* key : {"name", "fabric_kind", "link_gbps", "topology", "oversubscription", "switches", "cables",
                            "cost_usd", "power_w", "tco_usd", "useful_gpu_hours_per_usd", "error_bar", "workloads"}) {
      EXPECT_TRUE(d.contains(key)) << key;
    }
    // The bill of materials adds up: switches and cables are its counts,
    // cost and power its sums.
    int64_t switches = 0, cables = 0;
    double cost = 0, power = 0;
    for (const Json& line : d["bill_of_materials"]) {
      const int64_t n = line["count"].get<int64_t>();
      if (line["category"] == "switch") switches += n;
      if (line["category"] == "link") cables += n;
      if (line["category"] == "nic") {
        EXPECT_EQ(n, 32);  // a NIC per GPU
      }
      EXPECT_NEAR(line["price_usd"].get<double>(), n * line["unit_price_usd"].get<double>(), 1e-6);
      cost += line["price_usd"].get<double>();
      power += line["power_w"].get<double>();
    }
    EXPECT_EQ(d["switches"].get<int64_t>(), switches);
    EXPECT_EQ(d["cables"].get<int64_t>(), cables);
    EXPECT_NEAR(d["cost_usd"].get<double>(), cost, 1e-3);
    EXPECT_NEAR(d["power_w"].get<double>(), power, 1e-6);
    // TCO = capex + power x PUE x 8,766 h x 4 years x $0.10/kWh.
    // (plan.json rounds to 9 significant digits.)
    const double tco = cost + power / 1000 * 1.25 * 8766 * 4 * 0.1;
    EXPECT_NEAR(d["tco_usd"].get<double>(), tco, 1e-8 * tco);
    // 32 GPUs x 8,766 h x 4 years x utilization over the cluster's TCO.
    const double util = d["effective_gpu_utilization"].get<double>();
    const double per_usd = 32 * 8766.0 * 4 * util / d["cluster_tco_usd"].get<double>();
    EXPECT_NEAR(d["useful_gpu_hours_per_usd"].get<double>(), per_usd, 1e-8 * per_usd);
    ASSERT_EQ(d["workloads"].size(), 1u);
    const Json& w = d["workloads"][0];
    EXPECT_EQ(w["name"], "llama3-8b");
    EXPECT_EQ(w["fits"], true);
    EXPECT_EQ(w["parallelism"], "tp8 pp1 dp4");
    EXPECT_GT(w["step_time_s"].get<double>(), 0);
    EXPECT_NEAR(util, w["effective_gpu_utilization"].get<double>(), 1e-12);  // one job on every GPU
    // Best first.
    EXPECT_LE(d["useful_gpu_hours_per_usd"].get<double>(), previous);
    previous = d["useful_gpu_hours_per_usd"].get<double>();
  }
  // A design's scenario, run alone, gives the step the plan reports.
  const Json& best = plan["designs"][0];
  CommandResult alone = RunAifabric("run " + dir.path() + "/out/" + best["scenario"].get<std::string>() +
                                    " --out " + dir.path() + "/alone");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const Json summary = Json::parse(ReadFile(dir.path() + "/alone/summary.json"));
  EXPECT_NEAR(summary["training"][0]["step_time_s"].get<double>(), best["workloads"][0]["step_time_s"].get<double>(),
              1e-6 * best["workloads"][0]["step_time_s"].get<double>());
}

TEST(PlanCli, SameFilesOnOneThreadOrTwo) {
  TempDir dir;
  const std::string req = dir.Write("req.yaml", kRequirements);
  ASSERT_EQ(RunAifabric("plan " + req + " -q -j 1 --out " + dir.path() + "/one").exit_code, 0);
  ASSERT_EQ(RunAifabric("plan " + req + " -q -j 2 --out " + dir.path() + "/two").exit_code, 0);
  for (const char* f : {"plan.json", "plan.csv"}) {
    EXPECT_EQ(ReadFile(dir.path() + "/one/" + f), ReadFile(dir.path() + "/two/" + f)) << f;
  }
}

// mpirun's processes share the 8 designs (4 and 4; 3, 3 and 2) and the
// packet check, and rank 0 writes: every file is the one a single process
// writes.
TEST(PlanCli, SameFilesUnderMpirunAsOneProcess) {
  TempDir dir;
  const std::string checked = dir.Write("checked.yaml", WithPacketCheck());
  const std::string unchecked = dir.Write("req.yaml", kRequirements);
  ASSERT_EQ(RunAifabric("plan " + checked + " -q -j 1 --out " + dir.path() + "/one").exit_code, 0);
  ASSERT_EQ(RunAifabric("plan " + unchecked + " -q -j 1 --out " + dir.path() + "/one_unchecked").exit_code, 0);
  CommandResult two = RunAifabricUnderMpirun(2, "plan " + checked + " -q --out " + dir.path() + "/two");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  CommandResult three = RunAifabricUnderMpirun(3, "plan " + unchecked + " -q --out " + dir.path() + "/three");
  ASSERT_EQ(three.exit_code, 0) << three.err;
  const Json plan = Json::parse(ReadFile(dir.path() + "/one/plan.json"));
  ASSERT_EQ(plan["designs"].size(), 8u);
  const std::string best = plan["designs"][0]["name"].get<std::string>();
  std::vector<std::string> files = {"plan.json", "plan.csv", "plan.html"};
  for (const Json& d : plan["designs"]) files.push_back("designs/" + d["name"].get<std::string>() + ".yaml");
  for (const std::string& f : files) {
    const std::string one = ReadFile(dir.path() + "/one/" + f);
    ASSERT_FALSE(one.empty()) << f;
    EXPECT_EQ(one, ReadFile(dir.path() + "/two/" + f)) << f;
    EXPECT_EQ(ReadFile(dir.path() + "/one_unchecked/" + f), ReadFile(dir.path() + "/three/" + f)) << f;
  }
  const std::string copy = "packet_check/" + best + ".yaml";
  EXPECT_EQ(ReadFile(dir.path() + "/one/" + copy), ReadFile(dir.path() + "/two/" + copy));
}

// The best design's error bar is |flow - packet| / packet of its scaled
// copy's step, and the copy run alone with `aifabric run` (and with
// --model packet) gives the step times plan.json reports.
TEST(PlanCli, ErrorBarFromThePacketCheck) {
  TempDir dir;
  const std::string req = dir.Write("req.yaml", WithPacketCheck());
  CommandResult r = RunAifabric("plan " + req + " -j 2 --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json plan = Json::parse(ReadFile(dir.path() + "/out/plan.json"));
  const Json& best = plan["designs"][0];
  ASSERT_FALSE(best["error_bar"].is_null());
  for (size_t i = 1; i < plan["designs"].size(); ++i) EXPECT_TRUE(plan["designs"][i]["error_bar"].is_null()) << i;
  const Json& check = best["packet_check"];
  // Two replicas of tp 8: 2 servers, 16 GPUs.
  EXPECT_EQ(check["servers"], 2);
  EXPECT_EQ(check["gpus"], 16);
  ASSERT_EQ(check["workloads"].size(), 1u);
  const Json& w = check["workloads"][0];
  EXPECT_EQ(w["parallelism"], "tp8 pp1 dp2");
  const double flow = w["flow_step_time_s"].get<double>(), packet = w["packet_step_time_s"].get<double>();
  ASSERT_GT(packet, 0);
  EXPECT_NEAR(best["error_bar"].get<double>(), std::abs(flow - packet) / packet, 1e-8);
  EXPECT_THAT(r.out, HasSubstr("scaled copy (16 GPUs)"));
  const std::string copy = dir.path() + "/out/" + check["scenario"].get<std::string>();
  for (const char* level : {"flow", "packet"}) {
    SCOPED_TRACE(level);
    const std::string out = dir.path() + "/run_" + level;
    CommandResult run = RunAifabric("run " + copy + " -q --model " + level + " --out " + out);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Json summary = Json::parse(ReadFile(out + "/summary.json"));
    const double step = summary["training"][0]["step_time_s"].get<double>();
    EXPECT_NEAR(step, std::string(level) == "flow" ? flow : packet, 1e-8 * step);
  }
}

// Every process reads the same bad file; the error is printed once (by
// rank 0), the exit code is 2 and nothing is written.
TEST(PlanCli, BadInputUnderMpirunReportedOnce) {
  TempDir dir;
  const std::string req = dir.Write("req.yaml", "name: bad\ncluster: {gpus: 32, gpu: H100}\nworkloads: []\n");
  CommandResult r = RunAifabricUnderMpirun(2, "plan " + req + " --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 2);
  const std::string message = "req.yaml:3:12: workloads: expected a list";
  const size_t first = r.err.find(message);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(message, first + 1), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(dir.path() + "/out"));
}

TEST(PlanCli, ConfigOfTheChosenDesign) {
  TempDir dir;
  const std::string req =
      dir.Write("req.yaml", std::string(kRequirements) + "constraints: {ecosystem: roce}\n");
  CommandResult r = RunAifabric("plan " + req + " -q --out " + dir.path() + "/out --config " + dir.path() + "/cfg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json plan = Json::parse(ReadFile(dir.path() + "/out/plan.json"));
  EXPECT_EQ(plan["designs"][0]["fabric_kind"], "roce");
  EXPECT_TRUE(Exists(dir.path() + "/cfg/leaf0/config_db.json"));
  // cabling.csv: one row per cable of the bill, each of the medium the
  // bill counts for its tier.
  const std::string csv = ReadFile(dir.path() + "/cfg/cabling.csv");
  const int64_t rows = std::count(csv.begin(), csv.end(), '\n') - 1;
  EXPECT_EQ(rows, plan["designs"][0]["cables"].get<int64_t>());
  for (const Json& line : plan["designs"][0]["bill_of_materials"]) {
    if (line["category"] == "link") {
      const std::string part = line["part"].get<std::string>();
      EXPECT_NE(csv.find(part), std::string::npos) << part;
    }
  }
}

// The plan.json of a one-design plan of `requirements` without a packet
// check (null when the plan fails, with the failure reported).
Json PlanWithoutCheck(const TempDir& dir, const std::string& requirements) {
  const std::string req = dir.Write("req.yaml", requirements);
  CommandResult r = RunAifabric("plan " + req + " -q --packet-check 0 --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return nullptr;
  return Json::parse(ReadFile(dir.path() + "/out/plan.json"));
}

// A training job on half the GPUs and an inference service: the design's
// utilization is the training job's share of the cluster's GPU time (its
// utilization x 16 / 32), and the service reports goodput and latencies.
TEST(PlanCli, TrainingAndInference) {
  TempDir dir;
  const Json plan = PlanWithoutCheck(
      dir, "cluster: {gpus: 32, gpu: H100}\n"
           "workloads:\n"
           "  - training: {model: llama3-8b, tp: 8, dp: 2, global_batch: 16}\n"
           "  - name: chat\n"
           "    inference: {model: llama3-8b, tp: 8, replicas: 2, rate: 20, requests: 40,\n"
           "                input_tokens: {min: 256, max: 512}, output_tokens: {min: 16, max: 32}}\n"
           "design_space: {fabric_kind: roce, topology: fat_tree, switches: [64x400G]}\n");
  ASSERT_TRUE(plan.is_object());
  ASSERT_EQ(plan["designs"].size(), 1u);
  const Json& d = plan["designs"][0];
  ASSERT_EQ(d["workloads"].size(), 2u);
  const Json& training = d["workloads"][0];
  EXPECT_EQ(training["gpus"], 16);
  EXPECT_NEAR(d["effective_gpu_utilization"].get<double>(),
              training["effective_gpu_utilization"].get<double>() * 16 / 32, 1e-8);
  const Json& chat = d["workloads"][1];
  EXPECT_EQ(chat["name"], "chat");
  EXPECT_EQ(chat["kind"], "inference");
  EXPECT_GT(chat["goodput_per_s"].get<double>(), 0);
  EXPECT_GT(chat["ttft_p50_s"].get<double>(), 0);
  EXPECT_GT(chat["tpot_p50_s"].get<double>(), 0);
  const double attained = chat["slo_attainment"].get<double>();
  EXPECT_EQ(d["within_constraints"].get<bool>(), attained >= 0.99) << attained;
}

// A TTFT SLO of 1 us cannot be met (the prefill alone takes longer), so no
// request attains it and the one design misses constraints.min_slo_attainment.
TEST(PlanCli, InferenceSloIsAConstraint) {
  TempDir dir;
  const Json plan = PlanWithoutCheck(
      dir, "cluster: {gpus: 16, gpu: H100}\n"
           "workloads:\n"
           "  - name: chat\n"
           "    inference: {model: llama3-8b, tp: 8, replicas: 2, rate: 20, requests: 20,\n"
           "                ttft_slo: 1us, input_tokens: {min: 256, max: 512},\n"
           "                output_tokens: {min: 16, max: 32}}\n"
           "design_space: {fabric_kind: roce, topology: fat_tree, switches: [64x400G]}\n");
  ASSERT_TRUE(plan.is_object());
  ASSERT_EQ(plan["designs"].size(), 1u);
  EXPECT_EQ(plan["designs"][0]["workloads"][0]["slo_attainment"], 0);
  EXPECT_FALSE(plan["designs"][0]["within_constraints"].get<bool>());
  EXPECT_THAT(plan["recommendation"].get<std::string>(),
              HasSubstr("No design meets the constraints. The best without them is roce-400g-fat_tree-1to1-64x400G "
                        "(SLO: chat meets its TTFT and TPOT SLOs for 0.00% of its requests, below "
                        "constraints.min_slo_attainment 99.00%)"));
}

// The examples' design spaces, counted by hand from the catalog: at 400G
// two InfiniBand switches (QM9700, QM9790) and two Ethernet (128x400G,
// 64x400G); at 800G one InfiniBand (Q3400) and two Ethernet (64x800G,
// Arista-7060X6-64PE). 7 switch choices x 2 topologies x 2 ratios = 28 for
// 1,024 GPUs; x 3 ratios = 42 for 16,384. (Simulating them is the
// benchmark's job: docs/performance.md.)
TEST(PlanCli, ExamplesDesignSpaces) {
  for (const auto& [file, designs] : {std::pair{"cluster_1024gpu.yaml", 28}, std::pair{"cluster_16384gpu.yaml", 42}}) {
    CommandResult r = RunAifabric(std::string("plan ") + AIFABRIC_SOURCE_DIR + "/examples/plan/" + file + " --dry-run");
    ASSERT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr(std::to_string(designs) + " designs to evaluate, 0 rejected")) << file;
    EXPECT_THAT(r.out, HasSubstr("ib-800g-rail_optimized-1to1-Q3400"));
    EXPECT_THAT(r.out, HasSubstr("roce-400g-fat_tree-2to1-64x400G"));
  }
}

// --existing: a small cluster with one 100G NIC per 8-GPU server. A model
// that fits runs on it and reports its split; one that cannot fit (GPT-3
// 175B with no model parallelism) says so with the numbers; below the
// threshold the upgrade, when there is one, reaches it.
TEST(PlanCli, ExistingClusterAndNextModels) {
  TempDir dir;
  const std::string cluster = dir.Write("cluster.yaml",
                                        "name: small_existing\n"
                                        "cluster: {servers: 4, gpus_per_server: 8, gpu: H100,\n"
                                        "          nic: {rate: 100Gbps, per_gpu: 0.125}}\n"
                                        "fabric: {kind: roce, topology: {type: leaf_spine}, switch: 32x100G}\n"
                                        "workload:\n"
                                        "  - training: {model: llama3-8b, tp: 8, dp: 4, global_batch: 16}\n");
  const std::string models = dir.Write("models.yaml",
                                       "threshold: 0.6\n"
                                       "models:\n"
                                       "  - training: {model: llama3-8b, tp: 8, dp: 4, global_batch: 32}\n"
                                       "  - training: {model: gpt3-175b, global_batch: 32}\n"
                                       "design_space: {fabric_kind: roce, topology: rail_optimized}\n");
  CommandResult r =
      RunAifabric("plan --existing " + cluster + " --models " + models + " -q --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json plan = Json::parse(ReadFile(dir.path() + "/out/plan.json"));
  EXPECT_EQ(plan["existing"], "small_existing");
  EXPECT_EQ(plan["threshold"], 0.6);
  ASSERT_EQ(plan["models"].size(), 2u);
  const Json& small = plan["models"][0];
  EXPECT_EQ(small["fits"], true);
  EXPECT_EQ(small["parallelism"], "tp8 pp1 dp4");
  const double util = small["effective_gpu_utilization"].get<double>();
  EXPECT_GT(util, 0);
  EXPECT_LT(util, 1);
  if (util < 0.6 && !small["upgrade"].is_null()) {
    EXPECT_GE(small["upgrade_effective_gpu_utilization"].get<double>(), 0.6);
    EXPECT_THAT(plan["recommendation"].get<std::string>(),
                HasSubstr("cheapest upgrade that brings it to 60.0% is " + small["upgrade"].get<std::string>()));
  } else if (util < 0.6) {
    EXPECT_FALSE(small["upgrade_note"].is_null());
  } else {
    EXPECT_TRUE(small["upgrade"].is_null());
  }
  const Json& big = plan["models"][1];
  EXPECT_EQ(big["fits"], false);
  EXPECT_THAT(big["note"].get<std::string>(), HasSubstr("MiB per GPU"));
  EXPECT_TRUE(big["step_time_s"].is_null());
  EXPECT_THAT(plan["recommendation"].get<std::string>(), HasSubstr("gpt3-175b does not fit"));

  // The threshold is required, and named with its place.
  const std::string bad = dir.Write("bad.yaml", "models:\n  - training: {model: llama3-8b, tp: 8, global_batch: 8}\n");
  CommandResult e = RunAifabric("plan --existing " + cluster + " --models " + bad + " --out " + dir.path() + "/bad");
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_THAT(e.err, HasSubstr("threshold: required, missing"));
  EXPECT_FALSE(Exists(dir.path() + "/bad"));
}

TEST(PlanCli, RefusesAPlanThatDoesNotFit) {
  TempDir dir;
  // GPT-3 175B with no model parallelism: 175 B parameters x 16 bytes of
  // weights, gradients and Adam state per GPU, far over 80 GB.
  const std::string req = dir.Write("req.yaml",
                                    "cluster: {gpus: 32, gpu: H100}\n"
                                    "workloads:\n"
                                    "  - training: {model: gpt3-175b, global_batch: 32}\n");
  CommandResult r = RunAifabric("plan " + req + " --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("workloads.0 (gpt3-175b) does not fit in GPU memory"));
  EXPECT_THAT(r.err, HasSubstr("GiB"));
  EXPECT_FALSE(Exists(dir.path() + "/out"));
  // --dry-run checks memory too.
  CommandResult dry = RunAifabric("plan " + req + " --dry-run");
  EXPECT_EQ(dry.exit_code, 2);
  EXPECT_THAT(dry.err, HasSubstr("does not fit in GPU memory"));
}

TEST(PlanCli, BadInputNamesTheField) {
  TempDir dir;
  const std::string req = dir.Write("req.yaml", std::string(kRequirements) + "design_space2: {}\n");
  CommandResult r = RunAifabric("plan " + req + " --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("req.yaml:11:"));  // kRequirements has 10 lines
  EXPECT_THAT(r.err, HasSubstr("design_space2"));
  EXPECT_FALSE(Exists(dir.path() + "/out"));
}

}  // namespace
}  // namespace aifabric::testing
