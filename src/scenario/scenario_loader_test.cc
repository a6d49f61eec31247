#include "scenario/scenario_loader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// A fresh temporary folder per test, removed afterwards.
class ScenarioLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "aifabric_scenario_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    Write("topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    Write("flow.txt", "1\n0 1 3 100 1000 0\n");
    Write("cdf.txt", "0 0\n10000 50\n20000 100\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  Result<Scenario> Load(const std::string& name, const std::string& text,
                        const std::vector<std::string>& sets = {}) {
    return LoadScenarioFile(Write(name, text), sets);
  }
  // The error message of loading `text` as bad.yaml; fails the test if it loads.
  std::string LoadError(const std::string& text, const std::vector<std::string>& sets = {}) {
    Result<Scenario> r = Load("bad.yaml", text, sets);
    EXPECT_FALSE(r.ok()) << "expected an error for:\n" << text;
    return r.ok() ? "" : r.error().message;
  }

  fs::path dir_;
};

const Catalog& Cat() {
  return Catalog::BuiltIn();
}

constexpr const char* kFullYaml = R"(name: full
seed: 7
cluster:
  servers: 16
  gpus_per_server: 8
  gpu: B200
  nic: {rate: 200Gbps, per_gpu: 0.5}
fabric:
  kind: ib
  topology: {type: fat_tree, oversubscription: 2, k: 8, cores: 4}
  switch: 64x800G
  link: {latency: 1.5us}
  mtu: 8KiB
  forwarding: cut_through
  buffer: {alpha: 0.5}
  qos: {strict: [7], weights: [1, 2, 3, 4, 5, 6, 7, 8]}
  load_balancing: ecmp
  ecmp_seed: 42
workload:
  - flows:
      - {src: 0, dst: 5, size: 1MiB, start: 10us, priority: 5, dport: 100}
      - {src: 1, dst: 2, size: 4096}
  - permutation: {size: 2MiB}
  - incast: {senders: 4, receiver: 3, size: 64KiB, start: 1us}
  - all_to_all: {size: 512KiB, priority: 1}
  - poisson: {load: 0.5, cdf: cdf.txt, duration: 2ms}
  - flows: {format: hpcc, file: flow.txt}
simulation: {model: packet, until: 10ms}
)";

constexpr const char* kFullJson = R"({
  "name": "full", "seed": 7,
  "cluster": {"servers": 16, "gpus_per_server": 8, "gpu": "B200",
              "nic": {"rate": "200Gbps", "per_gpu": 0.5}},
  "fabric": {"kind": "ib",
             "topology": {"type": "fat_tree", "oversubscription": 2, "k": 8, "cores": 4},
             "switch": "64x800G", "link": {"latency": "1.5us"}, "mtu": "8KiB",
             "forwarding": "cut_through", "buffer": {"alpha": 0.5},
             "qos": {"strict": [7], "weights": [1, 2, 3, 4, 5, 6, 7, 8]},
             "load_balancing": "ecmp", "ecmp_seed": 42},
  "workload": [
    {"flows": [{"src": 0, "dst": 5, "size": "1MiB", "start": "10us", "priority": 5, "dport": 100},
               {"src": 1, "dst": 2, "size": 4096}]},
    {"permutation": {"size": "2MiB"}},
    {"incast": {"senders": 4, "receiver": 3, "size": "64KiB", "start": "1us"}},
    {"all_to_all": {"size": "512KiB", "priority": 1}},
    {"poisson": {"load": 0.5, "cdf": "cdf.txt", "duration": "2ms"}},
    {"flows": {"format": "hpcc", "file": "flow.txt"}}],
  "simulation": {"model": "packet", "until": "10ms"}
})";

// Checks every field kFullYaml sets; `dir` is the scenario's folder.
void ExpectFullScenario(const Scenario& s, const fs::path& dir) {
  EXPECT_EQ(s.name, "full");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.topology.servers, 16);
  EXPECT_EQ(s.server.gpus_per_server, 8);
  EXPECT_EQ(s.gpu.name, "B200");
  EXPECT_EQ(s.topology.nic_rate.bps(), 200'000'000'000u);  // 200Gbps
  EXPECT_EQ(s.topology.nics_per_server, 4);                // 8 GPUs * 0.5 NIC/GPU
  EXPECT_EQ(s.packet.kind, FabricKind::kIb);
  EXPECT_EQ(s.packet.wire_overhead_bytes, kIbWireOverheadBytes);
  EXPECT_EQ(s.topology.type, TopologyType::kFatTree);
  EXPECT_EQ(s.topology.oversubscription, 2.0);
  EXPECT_EQ(s.topology.k, 8);
  EXPECT_EQ(s.topology.cores, 4);
  EXPECT_EQ(s.topology.spines, 0);  // absent: derive
  const SwitchSpec* sw = Cat().FindSwitch("64x800G");
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(s.topology.switch_spec.name, "64x800G");
  EXPECT_EQ(s.topology.switch_spec.radix, sw->radix);
  EXPECT_EQ(s.topology.switch_spec.buffer_bytes, sw->buffer_bytes);
  EXPECT_EQ(s.topology.link_latency.ps(), 1'500'000);  // 1.5us
  EXPECT_EQ(s.packet.mtu_bytes, 8192u);                // 8KiB
  EXPECT_EQ(s.packet.forwarding, Forwarding::kCutThrough);
  EXPECT_EQ(s.packet.buffer_alpha, 0.5);
  for (int p = 0; p < kNumPriorities; ++p) {
    EXPECT_EQ(s.packet.queues[p].strict, p == 7);
    EXPECT_EQ(s.packet.queues[p].dwrr_weight, static_cast<uint32_t>(p + 1));
  }
  EXPECT_EQ(s.packet.ecmp_seed, 42u);
  EXPECT_EQ(s.packet.load_balancing, LoadBalancing::kEcmp);
  EXPECT_EQ(s.model, ModelKind::kPacket);
  EXPECT_EQ(s.until, Time::FromMs(10));

  ASSERT_EQ(s.workload.size(), 6u);
  const auto& list = std::get<FlowListSpec>(s.workload[0]);
  ASSERT_EQ(list.flows.size(), 2u);
  EXPECT_EQ(list.flows[0].src, 0);
  EXPECT_EQ(list.flows[0].dst, 5);
  EXPECT_EQ(list.flows[0].bytes, 1u << 20);  // 1MiB
  EXPECT_EQ(list.flows[0].start, Time::FromUs(10));
  EXPECT_EQ(list.flows[0].priority, 5);
  EXPECT_EQ(list.flows[0].dport, 100);
  EXPECT_EQ(list.flows[1].bytes, 4096u);         // plain integer: bytes
  EXPECT_EQ(list.flows[1].start, Time::Zero());  // default
  EXPECT_EQ(list.flows[1].priority, 3);          // default
  EXPECT_EQ(list.flows[1].dport, 4791);          // default
  EXPECT_EQ(std::get<PermutationSpec>(s.workload[1]).bytes, 2u << 20);
  const auto& incast = std::get<IncastSpec>(s.workload[2]);
  EXPECT_EQ(incast.senders, 4);
  EXPECT_EQ(incast.receiver, 3);
  EXPECT_EQ(incast.bytes, 64u * 1024);
  EXPECT_EQ(incast.start, Time::FromUs(1));
  const auto& a2a = std::get<AllToAllSpec>(s.workload[3]);
  EXPECT_EQ(a2a.bytes, 512u * 1024);
  EXPECT_EQ(a2a.priority, 1);
  const auto& poisson = std::get<PoissonSpec>(s.workload[4]);
  EXPECT_EQ(poisson.load, 0.5);
  EXPECT_EQ(poisson.duration, Time::FromMs(2));
  EXPECT_EQ(fs::path(poisson.cdf_file), (dir / "cdf.txt").lexically_normal());
  EXPECT_EQ(fs::path(std::get<HpccFlowFileSpec>(s.workload[5]).file), (dir / "flow.txt").lexically_normal());
}

TEST_F(ScenarioLoaderTest, FullYamlLoads) {
  Result<Scenario> s = Load("full.yaml", kFullYaml);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ExpectFullScenario(*s, dir_);
  EXPECT_EQ(s->source_file, (dir_ / "full.yaml").string());
}

TEST_F(ScenarioLoaderTest, JsonLoadsTheSameAsYaml) {
  Result<Scenario> s = Load("full.json", kFullJson);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ExpectFullScenario(*s, dir_);
}

TEST_F(ScenarioLoaderTest, DefaultsWhenKeysAreAbsent) {
  Result<Scenario> s = Load("quiet.yaml", "workload: [{permutation: {}}, {incast: {}}]\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->name, "quiet");  // the file name without extension
  EXPECT_EQ(s->seed, 1u);
  EXPECT_EQ(s->topology.servers, 1);
  EXPECT_EQ(s->server.gpus_per_server, 8);
  EXPECT_EQ(s->gpu.name, "H100");
  // NVLink from the catalog: what NCCL achieves on H100, 18 links x
  // 20.6 GB/s = 370.8 GB/s per direction = 2966.4 Gb/s.
  EXPECT_EQ(s->server.nvlink_per_dir, DataRate::Mbps(2'966'400));
  EXPECT_EQ(s->server.nvlink_latency, Time::FromNs(25));
  EXPECT_EQ(s->topology.nic_rate, DataRate::Gbps(400));
  EXPECT_EQ(s->topology.nics_per_server, 8);  // 8 GPUs * 1 NIC/GPU
  EXPECT_EQ(s->packet.kind, FabricKind::kRoce);
  EXPECT_EQ(s->packet.wire_overhead_bytes, kRoceWireOverheadBytes);
  EXPECT_EQ(s->topology.type, TopologyType::kLeafSpine);
  EXPECT_EQ(s->topology.oversubscription, 1.0);
  EXPECT_EQ(s->topology.switch_spec.name, "128x400G");
  EXPECT_EQ(s->topology.switch_spec.radix, Cat().FindSwitch("128x400G")->radix);
  EXPECT_EQ(s->topology.link_latency, Time::FromNs(500));
  EXPECT_EQ(s->packet.mtu_bytes, 4096u);
  EXPECT_EQ(s->packet.forwarding, Forwarding::kStoreAndForward);
  EXPECT_EQ(s->packet.buffer_alpha, 1.0);
  for (const auto& q : s->packet.queues) {
    EXPECT_FALSE(q.strict);
    EXPECT_EQ(q.dwrr_weight, 1u);
  }
  EXPECT_EQ(s->packet.ecmp_seed, 0x9E3779B97F4A7C15ull * 1 + 1);  // derived from seed 1
  EXPECT_EQ(s->model, ModelKind::kPacket);
  EXPECT_TRUE(s->until.IsInfinite());
  ASSERT_EQ(s->workload.size(), 2u);
  const auto& perm = std::get<PermutationSpec>(s->workload[0]);
  EXPECT_EQ(perm.bytes, 1u << 20);  // 1MiB
  EXPECT_EQ(perm.start, Time::Zero());
  EXPECT_EQ(perm.priority, 3);
  const auto& incast = std::get<IncastSpec>(s->workload[1]);
  EXPECT_EQ(incast.senders, 8);
  EXPECT_EQ(incast.receiver, kNoNode);
}

TEST_F(ScenarioLoaderTest, EmptyTextIsAllDefaults) {
  Result<Scenario> s = LoadScenarioText("", "inline", dir_.string(), {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->name, "inline");
  EXPECT_TRUE(s->workload.empty());
  EXPECT_EQ(s->source_file, "");
}

// The default output folder is out/<name>: a name that would climb out of
// out/ (or split into folders) is refused, naming the field and line.
TEST_F(ScenarioLoaderTest, ANameThatWouldLeaveTheOutputFolderIsRefused) {
  for (const std::string name : {"../../x", "a/b", "..", ".", "''"}) {
    Result<Scenario> s = LoadScenarioText("seed: 1\nname: " + name + "\n", "n.yaml", dir_.string(), {});
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_NE(s.error().message.find("n.yaml:2"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("name"), std::string::npos) << s.error().message;
  }
  Result<Scenario> plain = LoadScenarioText("name: llama3-8b_v1.2\n", "n.yaml", dir_.string(), {});
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->name, "llama3-8b_v1.2");
}

TEST_F(ScenarioLoaderTest, NicModelSetsRate) {
  Result<Scenario> s = Load("nic.yaml", "cluster: {nic: {model: CX8-800G}}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->topology.nic_rate, Cat().FindNic("CX8-800G")->rate);
  EXPECT_EQ(s->nic_model, "CX8-800G");
}

TEST_F(ScenarioLoaderTest, InlineSwitch) {
  Result<Scenario> s =
      Load("sw.yaml", "fabric:\n  switch: {radix: 48, port_rate: 100Gbps, latency: 300ns, buffer: 32MB}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  const SwitchSpec& sw = s->topology.switch_spec;
  EXPECT_EQ(sw.radix, 48);
  EXPECT_EQ(sw.port_rate, DataRate::Gbps(100));
  EXPECT_EQ(sw.latency, Time::FromNs(300));
  EXPECT_EQ(sw.buffer_bytes, 32'000'000u);
  EXPECT_DOUBLE_EQ(sw.capacity_tbps, 9.6);  // 48 ports * 100Gbps * 2 directions
}

TEST_F(ScenarioLoaderTest, SetOverridesScalarNestedListIndexAndFlowCollection) {
  Result<Scenario> s = Load("s.yaml", "seed: 3\nworkload:\n  - permutation: {size: 1MiB}\n",
                            {"fabric.mtu=9KiB", "cluster.servers=32", "fabric.topology.type=fat_tree",
                             "workload.0.permutation.size=2MiB", "fabric.qos.strict=[6,7]", "seed=5",
                             "cluster.nic={model: CX7-400G, per_gpu: 0.5}"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->packet.mtu_bytes, 9216u);  // 9KiB
  EXPECT_EQ(s->topology.servers, 32);
  EXPECT_EQ(s->topology.type, TopologyType::kFatTree);  // fabric and fabric.topology created
  EXPECT_EQ(std::get<PermutationSpec>(s->workload[0]).bytes, 2u << 20);
  EXPECT_TRUE(s->packet.queues[6].strict);
  EXPECT_TRUE(s->packet.queues[7].strict);
  EXPECT_FALSE(s->packet.queues[5].strict);
  EXPECT_EQ(s->seed, 5u);  // the later assignment wins over the file
  EXPECT_EQ(s->packet.ecmp_seed, DefaultEcmpSeed(5));
  EXPECT_EQ(s->topology.nics_per_server, 4);  // 8 GPUs * 0.5
}

TEST_F(ScenarioLoaderTest, RelativePathsResolveAgainstTheScenarioFolder) {
  Write("sub/topo2.txt", "x\n");
  Write("sub/traffic/w.cdf", "0 0\n1 100\n");
  Result<Scenario> s =
      Load("sub/r.yaml",
           "fabric: {topology: {format: lingjun, file: topo2.txt}}\n"
           "workload: [{poisson: {cdf: traffic/w.cdf}}, {flows: {format: hpcc, file: ../flow.txt}}]\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->topology.type, TopologyType::kLingjunFile);
  EXPECT_EQ(fs::path(s->topology.file), (dir_ / "sub/topo2.txt").lexically_normal());
  EXPECT_EQ(fs::path(std::get<PoissonSpec>(s->workload[0]).cdf_file),
            (dir_ / "sub/traffic/w.cdf").lexically_normal());
  EXPECT_EQ(fs::path(std::get<HpccFlowFileSpec>(s->workload[1]).file),
            (dir_ / "flow.txt").lexically_normal());
}

TEST_F(ScenarioLoaderTest, TopologyFormatIbnetdiscoverNamesAFile) {
  Write("fabric.ibnet", "x\n");
  Result<Scenario> s = Load("ib.yaml", "fabric: {kind: ib, topology: {format: ibnetdiscover, file: fabric.ibnet}}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->topology.type, TopologyType::kIbnetdiscoverFile);
  EXPECT_EQ(fs::path(s->topology.file), (dir_ / "fabric.ibnet").lexically_normal());
  Result<Scenario> bad =
      Load("ib2.yaml", "fabric: {topology: {format: ibnetdiscover, file: fabric.ibnet, oversubscription: 2}}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("fabric.topology.oversubscription: only used with format lingjun"),
            std::string::npos)
      << bad.error().message;
}

// ---- bad inputs: each message names the file and line (or --set) and the field.

void ExpectHas(const std::string& message, std::initializer_list<const char*> parts) {
  for (const char* part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

TEST_F(ScenarioLoaderTest, NvlinkComesFromTheGpuUnlessGiven) {
  Result<Scenario> a100 = Load("a.yaml", "cluster: {gpu: A100, gpus_per_server: 4}\n");
  ASSERT_TRUE(a100.ok()) << a100.error().message;
  EXPECT_EQ(a100->server.nvlink_per_dir, DataRate::Gbps(1920));  // 12 links x 20 GB/s = 240 GB/s
  EXPECT_EQ(a100->server.gpus_per_server, 4);
  Result<Scenario> given = Load("g.yaml", "cluster: {nvlink: {bandwidth: 400GB/s, latency: 100ns}}\n");
  ASSERT_TRUE(given.ok()) << given.error().message;
  EXPECT_EQ(given->server.nvlink_per_dir, DataRate::Gbps(3200));
  EXPECT_EQ(given->server.nvlink_latency, Time::FromNs(100));
  ExpectHas(LoadError("cluster: {nvlink: {bandwidth: fast}}\n"), {"cluster.nvlink.bandwidth", "450GB/s"});
}

TEST_F(ScenarioLoaderTest, TrainingAndChakraWorkloads) {
  Result<Scenario> t = Load("t.yaml",
                            "workload:\n  - training: {model: llama3-8b, tp: 8, dp: 2, global_batch: 16, bucket: 8MiB,"
                            " overlap: false}\n");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->trainings.size(), 1u);
  EXPECT_EQ(t->trainings[0].model.layers, 32);
  EXPECT_EQ(t->trainings[0].parallelism.tp, 8);
  EXPECT_EQ(t->trainings[0].parallelism.bucket_bytes, 8u << 20);
  EXPECT_FALSE(t->trainings[0].parallelism.overlap_grad_reduce);
  EXPECT_DOUBLE_EQ(t->trainings[0].training.gpu_peak_tflops, 989.4);  // the cluster's H100
  EXPECT_TRUE(t->workload.empty());
  ExpectHas(LoadError("workload:\n  - training: {model: gpt5, global_batch: 8}\n"),
            {"bad.yaml:2:", "workload.0.training.model", "gpt5"});
  ExpectHas(LoadError("workload:\n  - training: {model: llama3-8b}\n"), {"workload.0.training.global_batch", "required"});
  ExpectHas(LoadError("workload:\n  - chakra: {traces: no/such/prefix}\n"),
            {"workload.0.chakra.traces", "no trace file"});
  // Serving: the catalog model mapped to the serving description, the GPU
  // from the cluster.
  Result<Scenario> i = Load("i.yaml",
                            "cluster: {gpu: H200}\nworkload:\n  - inference: {model: llama3-70b, tp: 4, replicas: 2, rate: 5,"
                            " input_tokens: {min: 100, max: 200}, ttft_slo: 1s}\n");
  ASSERT_TRUE(i.ok()) << i.error().message;
  ASSERT_EQ(i->inferences.size(), 1u);
  const InferenceSpec& spec = i->inferences[0].spec;
  EXPECT_EQ(spec.model.layers, 80);
  EXPECT_EQ(spec.model.kv_heads, 8);
  EXPECT_EQ(spec.model.mlp_matrices, 3);  // SwiGLU
  EXPECT_EQ(spec.tp, 4);
  EXPECT_EQ(spec.replicas, 2);
  EXPECT_DOUBLE_EQ(spec.rate_per_s, 5);
  EXPECT_EQ(spec.input_tokens_min, 100u);
  EXPECT_EQ(spec.input_tokens_max, 200u);
  EXPECT_DOUBLE_EQ(spec.ttft_slo_ms, 1000);
  EXPECT_DOUBLE_EQ(spec.gpu.hbm_bytes_per_s, 4.8e12);  // H200
  ExpectHas(LoadError("workload:\n  - inference: {model: llama3-70b, router: random}\n"),
            {"workload.0.inference.router", "round_robin, least_loaded"});
}

TEST_F(ScenarioLoaderTest, WrongTypeNotAnInteger) {
  // "abc" sits on line 2, column 12.
  ExpectHas(LoadError("cluster:\n  servers: abc\n"),
            {"bad.yaml:2:12:", "cluster.servers:", "expected an integer >= 1", "'abc'"});
}

TEST_F(ScenarioLoaderTest, WrongTypeFloatForInt) {
  ExpectHas(LoadError("cluster:\n  gpus_per_server: 2.5\n"),
            {"bad.yaml:2:", "cluster.gpus_per_server:", "'2.5'"});
}

TEST_F(ScenarioLoaderTest, WrongTypeMapWhereSizeBelongs) {
  ExpectHas(LoadError("fabric:\n  mtu: {a: 1}\n"),
            {"bad.yaml:2:", "fabric.mtu:", "expected a size", "a map"});
}

TEST_F(ScenarioLoaderTest, UnknownTopLevelKey) {
  ExpectHas(LoadError("name: x\nclustr: {}\n"),
            {"bad.yaml:2:1:",
             "clustr: unknown key; expected one of name, seed, cluster, fabric, workload, simulation"});
}

TEST_F(ScenarioLoaderTest, UnknownNestedKey) {
  ExpectHas(
      LoadError("fabric:\n  topolgy: {}\n"),
      {"bad.yaml:2:3:", "fabric.topolgy: unknown key; expected one of kind, topology, switch, link, mtu"});
}

TEST_F(ScenarioLoaderTest, NegativeRate) {
  ExpectHas(LoadError("cluster:\n  nic:\n    rate: -400Gbps\n"),
            {"bad.yaml:3:", "cluster.nic.rate:", "-400Gbps"});
}

TEST_F(ScenarioLoaderTest, ZeroRate) {
  ExpectHas(LoadError("cluster:\n  nic: {rate: 0Gbps}\n"),
            {"bad.yaml:2:", "cluster.nic.rate:", "expected a positive rate"});
}

TEST_F(ScenarioLoaderTest, ZeroServers) {
  ExpectHas(LoadError("cluster:\n  servers: 0\n"),
            {"bad.yaml:2:", "cluster.servers:", "expected an integer >= 1, got '0'"});
}

TEST_F(ScenarioLoaderTest, UnknownCatalogSwitch) {
  ExpectHas(LoadError("fabric:\n  switch: 999x1T\n"),
            {"bad.yaml:2:", "fabric.switch:", "unknown switch '999x1T'", "128x400G", "64x800G"});
}

TEST_F(ScenarioLoaderTest, UnknownGpu) {
  ExpectHas(LoadError("cluster:\n  gpu: V100\n"),
            {"bad.yaml:2:", "cluster.gpu:", "unknown GPU 'V100'", "H100", "B200"});
}

TEST_F(ScenarioLoaderTest, UnknownNic) {
  ExpectHas(LoadError("cluster:\n  nic: {model: CX9}\n"), {"bad.yaml:2:", "cluster.nic.model:", "CX7-400G"});
}

TEST_F(ScenarioLoaderTest, MissingTopologyFile) {
  const std::string resolved = (dir_ / "nope.txt").string();
  ExpectHas(LoadError("fabric:\n  topology: {format: hpcc, file: nope.txt}\n"),
            {"bad.yaml:2:", "fabric.topology.file:", "file not found", resolved.c_str()});
}

TEST_F(ScenarioLoaderTest, LingjunTakesCableRatiosButHpccDoesNot) {
  // A Lingjun CSV does not list cables, so its ratios size them; an HPCC
  // topology.txt lists every link, so the same keys are an error there.
  Write("lj.csv", "ip,DSW,PSW,ASW\na,G1,P1,S1\n");
  Result<Scenario> lj = Load("lj.yaml", "fabric:\n  topology: {format: lingjun, file: lj.csv, oversubscription: 2}\n");
  ASSERT_TRUE(lj.ok()) << lj.error().message;
  EXPECT_EQ(lj->topology.type, TopologyType::kLingjunFile);
  EXPECT_EQ(lj->topology.oversubscription, 2.0);
  const std::string e = LoadError("fabric:\n  topology: {format: hpcc, file: topo.txt, oversubscription: 2}\n");
  EXPECT_NE(e.find("bad.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("fabric.topology.oversubscription: only used with format lingjun"), std::string::npos) << e;
}

TEST_F(ScenarioLoaderTest, MissingFlowFile) {
  const std::string resolved = (dir_ / "flows/none.txt").string();
  ExpectHas(LoadError("workload:\n  - flows: {format: hpcc, file: flows/none.txt}\n"),
            {"bad.yaml:2:", "workload.0.flows.file:", resolved.c_str()});
}

TEST_F(ScenarioLoaderTest, BadUnit) {
  ExpectHas(LoadError("fabric:\n  link:\n    latency: 500 parsecs\n"),
            {"bad.yaml:3:14:", "fabric.link.latency:", "500 parsecs"});
}

TEST_F(ScenarioLoaderTest, BadEnum) {
  ExpectHas(LoadError("fabric:\n  kind: ethernet\n"),
            {"bad.yaml:2:9:", "fabric.kind:", "expected one of roce, ib, got 'ethernet'"});
}

TEST_F(ScenarioLoaderTest, FractionalNicsPerServer) {
  // 8 GPUs * 0.3 NIC/GPU = 2.4 NICs: not whole.
  ExpectHas(LoadError("cluster:\n  gpus_per_server: 8\n  nic:\n    per_gpu: 0.3\n"),
            {"bad.yaml:4:", "cluster.nic.per_gpu:", "2.4 NICs per server", "whole number"});
}

TEST_F(ScenarioLoaderTest, PriorityOutOfRange) {
  ExpectHas(LoadError("workload:\n  - permutation:\n      priority: 9\n"),
            {"bad.yaml:3:", "workload.0.permutation.priority:", "in 0..7, got '9'"});
}

TEST_F(ScenarioLoaderTest, LoadAboveOne) {
  ExpectHas(LoadError("workload:\n  - poisson: {cdf: cdf.txt,\n      load: 1.5}\n"),
            {"bad.yaml:3:", "workload.0.poisson.load:", "(0, 1]", "'1.5'"});
}

TEST_F(ScenarioLoaderTest, MtuOutOfRange) {
  ExpectHas(LoadError("fabric: {mtu: 128}\n"), {"bad.yaml:1:", "fabric.mtu:", "256B", "64KiB"});
}

TEST_F(ScenarioLoaderTest, OversubscriptionBelowOne) {
  ExpectHas(LoadError("fabric:\n  topology:\n    oversubscription: 0.5\n"),
            {"bad.yaml:3:", "fabric.topology.oversubscription:", ">= 1"});
}

TEST_F(ScenarioLoaderTest, UnknownLoadBalancingAndUnavailableModel) {
  ExpectHas(LoadError("fabric:\n  load_balancing: random_walk\n"),
            {"bad.yaml:2:", "fabric.load_balancing:", "ecmp, flowlet, spray, adaptive"});
  ExpectHas(LoadError("simulation:\n  model: emulation\n"), {"bad.yaml:2:", "simulation.model:", "packet, flow, analytic"});
  Result<Scenario> flow = Load("f.yaml", "simulation: {model: flow}\n");
  ASSERT_TRUE(flow.ok()) << flow.error().message;
  EXPECT_EQ(flow->model, ModelKind::kFlow);
}

TEST_F(ScenarioLoaderTest, CollectivesRunAsCoflowsOnlyOnTheFluidModels) {
  Result<Scenario> auto_packet = Load("a.yaml", "name: a\n");
  ASSERT_TRUE(auto_packet.ok());
  EXPECT_EQ(auto_packet->collectives, Scenario::Collectives::kAuto);
  EXPECT_FALSE(auto_packet->coflow_collectives());
  Result<Scenario> auto_flow = Load("b.yaml", "simulation: {model: flow}\n");
  ASSERT_TRUE(auto_flow.ok());
  EXPECT_TRUE(auto_flow->coflow_collectives());
  Result<Scenario> steps = Load("c.yaml", "simulation: {model: analytic, collectives: steps}\n");
  ASSERT_TRUE(steps.ok());
  EXPECT_FALSE(steps->coflow_collectives());
  ExpectHas(LoadError("simulation:\n  collectives: coflow\n"),
            {"bad.yaml:2:", "simulation.collectives:", "needs the flow or analytic model"});
  ExpectHas(LoadError("simulation:\n  collectives: fluid\n"), {"bad.yaml:2:", "simulation.collectives:", "auto, steps, coflow"});
}

TEST_F(ScenarioLoaderTest, RoceDefaultsAreACommonDeployment) {
  // No fabric.roce: PFC on priorities 3 and 4, ECN, DCQCN, RC go-back-N.
  Result<Scenario> s = Load("s.yaml", "name: s\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->packet.pfc.enabled);
  EXPECT_EQ(s->packet.pfc.lossless_mask, (1u << 3) | (1u << 4));
  EXPECT_TRUE(s->packet.ecn.enabled);
  EXPECT_EQ(s->transport.cc, CongestionControl::kDcqcn);
  EXPECT_EQ(s->transport.kind, TransportKind::kRc);
  EXPECT_EQ(s->transport.recovery, LossRecovery::kGoBackN);
  EXPECT_EQ(s->packet.pfc.watchdog_action, PfcWatchdogAction::kDrop);  // SONiC pfcwd's default
}

TEST_F(ScenarioLoaderTest, RoceAndTransportKeys) {
  Result<Scenario> s = Load("s.yaml",
                            "fabric:\n"
                            "  roce: {pfc: {lossless: [2], alpha: 0.125, watchdog: {action: forward}}, ecn: {kmin: 100KB, kmax: 400KB, pmax: 0.1},"
                            " cc: none, cnp_priority: 7}\n"
                            "  transport: {type: rc, recovery: selective_repeat, ack_interval: 4, rto: 200us}\n"
                            "  load_balancing: {mode: flowlet, flowlet_gap: 5us}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->packet.pfc.lossless_mask, 1u << 2);
  EXPECT_DOUBLE_EQ(s->packet.pfc.alpha, 0.125);
  EXPECT_EQ(s->packet.pfc.watchdog_action, PfcWatchdogAction::kForward);
  EXPECT_EQ(s->packet.ecn.kmin_bytes, 100000u);
  EXPECT_EQ(s->packet.ecn.kmax_bytes, 400000u);
  EXPECT_EQ(s->transport.cc, CongestionControl::kNone);
  EXPECT_EQ(s->transport.cnp_priority, 7);
  EXPECT_EQ(s->transport.recovery, LossRecovery::kSelectiveRepeat);
  EXPECT_EQ(s->transport.ack_interval, 4u);
  EXPECT_EQ(s->transport.rto, Time::FromUs(200));
  EXPECT_EQ(s->packet.load_balancing, LoadBalancing::kFlowlet);
  EXPECT_EQ(s->packet.flowlet_gap, Time::FromUs(5));
}

TEST_F(ScenarioLoaderTest, RoceAndIbKeysBelongToTheirKind) {
  ExpectHas(LoadError("fabric:\n  kind: ib\n  roce: {pfc: true}\n"), {"bad.yaml:3:", "fabric.roce", "kind: roce"});
  ExpectHas(LoadError("fabric:\n  ib: {adaptive_routing: true}\n"), {"bad.yaml:2:", "fabric.ib", "kind: ib"});
  ExpectHas(LoadError("fabric:\n  roce: {ecn: false}\n"), {"fabric.roce.cc", "needs ECN"});
  ExpectHas(LoadError("fabric:\n  transport: {type: none}\n"), {"fabric.transport.type", "congestion control"});
  ExpectHas(LoadError("fabric:\n  roce: {pfc: maybe}\n"), {"bad.yaml:2:", "fabric.roce.pfc", "true or false"});
}

TEST_F(ScenarioLoaderTest, IbKeys) {
  Result<Scenario> s = Load("s.yaml", "fabric:\n  kind: ib\n  ib: {adaptive_routing: true, routing: ftree, vl_buffer: 128KiB}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->packet.kind, FabricKind::kIb);
  EXPECT_FALSE(s->packet.pfc.enabled);
  EXPECT_EQ(s->transport.cc, CongestionControl::kNone);
  EXPECT_EQ(s->packet.load_balancing, LoadBalancing::kAdaptive);
  EXPECT_EQ(s->ib_routing.engine, IbRouting::kFtree);
  EXPECT_EQ(s->packet.ib.vl_buffer_bytes, 128u * 1024);
  ExpectHas(LoadError("fabric:\n  kind: ib\n  load_balancing: spray\n  ib: {adaptive_routing: true}\n"),
            {"fabric.ib.adaptive_routing", "conflicts"});
}

TEST_F(ScenarioLoaderTest, IbVlArbitrationAndSl2Vl) {
  // OpenSM's defaults: VL0 alone in the high table, every VL weight 4,
  // LimitOfHighPriority 0 (zero bytes: one high packet at a time).
  Result<Scenario> d = Load("d.yaml", "fabric:\n  kind: ib\n");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->packet.weighted_high);
  EXPECT_TRUE(d->packet.queues[0].strict);
  EXPECT_FALSE(d->packet.queues[3].strict);
  EXPECT_EQ(d->packet.queues[5].dwrr_weight, 4u);
  EXPECT_EQ(d->packet.high_limit_bytes, 0u);
  EXPECT_EQ(d->packet.ib.sl2vl[6], 6);
  // Explicit tables: limit 2 means 2 x 4096 bytes; 255 is unbounded.
  Result<Scenario> s = Load("s.yaml",
                            "fabric:\n  kind: ib\n  ib:\n    sl2vl: [0, 0, 1, 1, 2, 2, 3, 3]\n"
                            "    vlarb: {high: [{vl: 2, weight: 8}], low: [{vl: 0, weight: 1}, {vl: 1, weight: 2}],"
                            " high_limit: 2}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->packet.ib.sl2vl[5], 2);
  EXPECT_TRUE(s->packet.queues[2].strict);
  EXPECT_FALSE(s->packet.queues[0].strict);
  EXPECT_EQ(s->packet.queues[2].dwrr_weight, 8u);
  EXPECT_EQ(s->packet.queues[1].dwrr_weight, 2u);
  EXPECT_EQ(s->packet.high_limit_bytes, 8192u);
  Result<Scenario> u = Load("u.yaml", "fabric:\n  kind: ib\n  ib: {vlarb: {high_limit: 255}}\n");
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_EQ(u->packet.high_limit_bytes, kUnboundedHighPriority);
  ExpectHas(LoadError("fabric:\n  kind: ib\n  qos: {strict: [1]}\n  ib: {vlarb: {high_limit: 1}}\n"),
            {"fabric.ib.vlarb", "conflicts with fabric.qos"});
  ExpectHas(LoadError("fabric:\n  kind: ib\n  ib: {sl2vl: [0, 1]}\n"), {"fabric.ib.sl2vl", "8 VLs"});
}

TEST_F(ScenarioLoaderTest, IbCongestionControl) {
  // Off by default (OpenSM's congestion_control FALSE); `true` takes the
  // Congestion Control Manager's defaults.
  Result<Scenario> d = Load("d.yaml", "fabric:\n  kind: ib\n");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_FALSE(d->packet.ib.congestion_control.enabled);
  EXPECT_EQ(d->transport.cc, CongestionControl::kNone);
  Result<Scenario> on = Load("on.yaml", "fabric:\n  kind: ib\n  ib: {congestion_control: true}\n");
  ASSERT_TRUE(on.ok()) << on.error().message;
  EXPECT_TRUE(on->packet.ib.congestion_control.enabled);
  EXPECT_EQ(on->packet.ib.congestion_control.threshold, 15);
  EXPECT_EQ(on->packet.ib.congestion_control.marking_rate, 10u);
  EXPECT_EQ(on->packet.ib.congestion_control.packet_size_bytes, 512u);
  EXPECT_EQ(on->transport.cc, CongestionControl::kIb);
  EXPECT_EQ(on->transport.ib_cc.ccti_increase, 1);
  // Every knob, and a table of three delays (the limit follows the table).
  Result<Scenario> s = Load("s.yaml",
                            "fabric:\n  kind: ib\n  ib:\n    congestion_control: {threshold: 8, marking_rate: 0,"
                            " packet_size: 1KiB, mark_victims: true, ccti_increase: 2, ccti_timer: 50,"
                            " cct: [0ns, 50ns, 1us], ccti_min: 1}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->packet.ib.congestion_control.threshold, 8);
  EXPECT_EQ(s->packet.ib.congestion_control.marking_rate, 0u);
  EXPECT_EQ(s->packet.ib.congestion_control.packet_size_bytes, 1024u);
  EXPECT_TRUE(s->packet.ib.congestion_control.mark_victims);
  EXPECT_EQ(s->transport.ib_cc.ccti_increase, 2);
  EXPECT_EQ(s->transport.ib_cc.ccti_timer, 50u);
  ASSERT_EQ(s->transport.ib_cc.cct.size(), 3u);
  EXPECT_EQ(s->transport.ib_cc.cct[2], Time::FromUs(1));
  EXPECT_EQ(s->transport.ib_cc.ccti_limit, 2);
  EXPECT_EQ(s->transport.ib_cc.ccti_min, 1);
  ExpectHas(LoadError("fabric:\n  kind: ib\n  ib: {congestion_control: {cct: [0ns, fast]}}\n"),
            {"fabric.ib.congestion_control.cct.1", "delay"});
  ExpectHas(LoadError("fabric:\n  kind: ib\n  ib: {congestion_control: {threshold: 16}}\n"),
            {"fabric.ib.congestion_control.threshold"});
  ExpectHas(LoadError("fabric:\n  kind: ib\n  ib: {congestion_control: {cct: [0ns, 1us], ccti_limit: 5}}\n"),
            {"fabric.ib.congestion_control.ccti_limit"});
  ExpectHas(LoadError("fabric:\n  kind: ib\n  transport: {type: none}\n  ib: {congestion_control: true}\n"),
            {"fabric.transport.type", "needs a transport"});
}

TEST_F(ScenarioLoaderTest, QosClassesNameThePriorities) {
  // Two classes: "latency" strict on priority 5 (lossy), "bulk" weighted on
  // priority 3 (lossless); workload items pick them by name.
  Result<Scenario> s = Load("s.yaml",
                            "fabric:\n  qos:\n    classes:\n"
                            "      - {name: bulk, priority: 3, dscp: 26, weight: 4, lossless: true}\n"
                            "      - {name: latency, priority: 5, dscp: 46, scheduler: strict, lossless: false}\n"
                            "workload:\n  - permutation: {size: 1MiB, class: latency}\n"
                            "  - all_to_all: {size: 1KiB, class: bulk}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->qos_classes.size(), 2u);
  EXPECT_EQ(s->qos_classes[1].dscp, 46);
  EXPECT_TRUE(s->packet.queues[5].strict);
  EXPECT_EQ(s->packet.queues[3].dwrr_weight, 4u);
  EXPECT_EQ(s->packet.pfc.lossless_mask, 1u << 3);
  EXPECT_EQ(std::get<PermutationSpec>(s->workload[0]).priority, 5);
  EXPECT_EQ(std::get<AllToAllSpec>(s->workload[1]).priority, 3);
  ExpectHas(LoadError("workload:\n  - permutation: {class: gold}\n"),
            {"bad.yaml:2:", "workload.0.permutation.class", "unknown class 'gold'"});
}

TEST_F(ScenarioLoaderTest, QosWeightsNeedEight) {
  ExpectHas(LoadError("fabric:\n  qos: {weights: [1, 2, 3]}\n"),
            {"bad.yaml:2:", "fabric.qos.weights:", "exactly 8", "3 items"});
}

TEST_F(ScenarioLoaderTest, YamlSyntaxError) {
  // The unclosed flow sequence opened on line 2 is reported at line 3.
  ExpectHas(LoadError("name: x\ncluster: [1, 2\nfabric: {}\n"), {"bad.yaml:3:", "invalid YAML"});
}

TEST_F(ScenarioLoaderTest, WorkloadItemWithTwoKeys) {
  ExpectHas(LoadError("workload:\n  - permutation: {}\n    incast: {}\n"),
            {"bad.yaml:2:", "workload.0:", "exactly one of flows, permutation", "(permutation, incast)"});
}

TEST_F(ScenarioLoaderTest, UnknownWorkloadKind) {
  ExpectHas(
      LoadError("workload:\n  - shuffle: {}\n"),
      {"bad.yaml:2:",
       "workload.0.shuffle: unknown key; expected one of flows, permutation, incast, all_to_all, poisson"});
}

TEST_F(ScenarioLoaderTest, MissingRequiredFlowField) {
  ExpectHas(LoadError("workload:\n  - flows:\n    - {src: 0, size: 1KiB}\n"),
            {"bad.yaml:3:", "workload.0.flows.0.dst: required"});
}

TEST_F(ScenarioLoaderTest, DuplicateKey) {
  ExpectHas(LoadError("seed: 1\nseed: 2\n"), {"bad.yaml:2:", "seed: key given twice"});
}

TEST_F(ScenarioLoaderTest, JsonErrorsHaveLines) {
  Result<Scenario> r = Load("bad.json", "{\n  \"cluster\": {\n    \"servers\": -2\n  }\n}\n");
  ASSERT_FALSE(r.ok());
  ExpectHas(r.error().message, {"bad.json:3:", "cluster.servers:"});
}

TEST_F(ScenarioLoaderTest, MalformedSet) {
  ExpectHas(LoadError("", {"fabric.mtu"}), {"--set fabric.mtu:", "KEY=VALUE", "no '='"});
  ExpectHas(LoadError("", {"=5"}), {"--set =5:", "key is empty"});
  ExpectHas(LoadError("", {"fabric..mtu=5"}), {"--set fabric..mtu=5:", "empty part"});
}

TEST_F(ScenarioLoaderTest, SetIndexOutOfRangeAndIntoScalar) {
  ExpectHas(LoadError("workload: [{permutation: {}}]\n", {"workload.3.permutation.size=1KiB"}),
            {"--set workload.3.permutation.size=1KiB:", "out of range", "1 item"});
  ExpectHas(LoadError("fabric: {mtu: 4KiB}\n", {"fabric.mtu.bytes=1"}),
            {"--set fabric.mtu.bytes=1:", "fabric.mtu is a value"});
}

TEST_F(ScenarioLoaderTest, SetValuesAreValidatedAndNamed) {
  ExpectHas(LoadError("cluster: {servers: 4}\n", {"cluster.servers=0"}),
            {"--set cluster.servers:", "expected an integer >= 1, got '0'"});
  ExpectHas(LoadError("", {"fabric.foo=1"}),
            {"--set fabric.foo:", "unknown key; expected one of kind, topology"});
  ExpectHas(LoadError("", {"fabric.topology={type: torus}"}),
            {"--set fabric.topology.type:", "leaf_spine, fat_tree"});
}

TEST_F(ScenarioLoaderTest, MissingScenarioFile) {
  const std::string path = (dir_ / "absent.yaml").string();
  Result<Scenario> r = LoadScenarioFile(path, {});
  ASSERT_FALSE(r.ok());
  ExpectHas(r.error().message, {path.c_str(), "cannot read"});
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

TEST_F(ScenarioLoaderTest, TelemetryDefaultsAndBadValues) {
  Result<Scenario> s = Load("t.yaml", "simulation: {telemetry: {interval: 1us, max_points: 64}}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->telemetry.enabled);
  EXPECT_EQ(s->telemetry.interval, Time::FromUs(1));
  EXPECT_EQ(s->telemetry.max_points, 64u);
  s = Load("t.yaml", "", {"simulation.telemetry.enabled=false"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_FALSE(s->telemetry.enabled);
  ExpectHas(LoadError("simulation: {telemetry: {interval: 10ns}}\n"),
            {"bad.yaml", "simulation.telemetry.interval", "at least 100ns"});
  ExpectHas(LoadError("simulation: {telemetry: {max_points: 7}}\n"),
            {"simulation.telemetry.max_points", "even number of points from 4 to 65536, got 7"});
  ExpectHas(LoadError("simulation: {telemetry: {every: 1us}}\n"), {"simulation.telemetry", "every"});
}

}  // namespace
}  // namespace aifabric
