// From Chakra traces to a JobGraph: the mapping of each node type, the
// matching of collectives and send/recv pairs across ranks, dependencies
// (through pass-through nodes), and every refusal with file and node id.
#include "chakra/chakra_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "chakra/chakra_attributes.h"
#include "chakra/chakra_nodes.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Node = ChakraProtoMsg::Node;

std::vector<ChakraRankTrace> Ranks(int n) {
  std::vector<ChakraRankTrace> ranks(n);
  for (ChakraRankTrace& r : ranks) r.metadata = MakeChakraMetadata();
  return ranks;
}

std::vector<std::string> Origins(size_t n) {
  std::vector<std::string> o;
  for (size_t r = 0; r < n; ++r) {
    std::string name = "t.";
    name += std::to_string(r);
    name += ".et";
    o.push_back(name);
  }
  return o;
}

Result<JobGraph> Build(const std::vector<ChakraRankTrace>& ranks, const ChakraOptions& options = {}) {
  return BuildChakraJobGraph(ranks, Origins(ranks.size()), options);
}

std::string ErrorOf(const std::vector<ChakraRankTrace>& ranks, const ChakraOptions& options = {}) {
  Result<JobGraph> g = Build(ranks, options);
  EXPECT_FALSE(g.ok());
  return g.ok() ? std::string() : g.error().message;
}

// The nodes of `g` of one kind, in index order.
std::vector<JobNodeIndex> OfKind(const JobGraph& g, JobNodeKind kind) {
  std::vector<JobNodeIndex> out;
  for (JobNodeIndex i = 0; i < g.size(); ++i) {
    if (g.node(i).kind == kind) out.push_back(i);
  }
  return out;
}

bool HasEdge(const JobGraph& g, JobNodeIndex from, JobNodeIndex to) {
  const auto s = g.successors(from);
  return std::find(s.begin(), s.end(), to) != s.end();
}

// 4 ranks, each: compute 100 us -> all-reduce 1 MiB over all ranks ->
// compute 50 us.
std::vector<ChakraRankTrace> ComputeAllReduceCompute() {
  std::vector<ChakraRankTrace> ranks = Ranks(4);
  for (ChakraRankTrace& r : ranks) {
    r.nodes.push_back(MakeChakraCompute(1, "fwd", 100));
    r.nodes.push_back(MakeChakraCollective(2, "grad_ar", ChakraProtoMsg::ALL_REDUCE, 1 << 20, {1}));
    r.nodes.push_back(MakeChakraCompute(3, "bwd", 50, {2}));
  }
  return ranks;
}

TEST(ChakraReader, ComputeAllReduceComputeOnFourRanks) {
  const fs::path dir = fs::path(::testing::TempDir()) / "aifabric_chakra_reader_spec";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(WriteChakraTraces((dir / "step").string(), ComputeAllReduceCompute()).ok());
  Result<JobGraph> g = ReadChakraTracePrefix((dir / "step").string());
  fs::remove_all(dir);
  ASSERT_TRUE(g.ok()) << g.error().message;

  // 4 + 4 compute nodes and one collective.
  const std::vector<JobNodeIndex> compute = OfKind(*g, JobNodeKind::kCompute);
  const std::vector<JobNodeIndex> collective = OfKind(*g, JobNodeKind::kCollective);
  ASSERT_EQ(compute.size(), 8u);
  ASSERT_EQ(collective.size(), 1u);
  EXPECT_EQ(g->size(), 9u);
  EXPECT_EQ(OfKind(*g, JobNodeKind::kTransfer).size(), 0u);
  const JobNode& ar = g->node(collective[0]);
  EXPECT_EQ(ar.op, CollectiveOp::kAllReduce);
  EXPECT_EQ(ar.bytes, 1u << 20);
  EXPECT_EQ(g->group(ar.group), (std::vector<GpuId>{0, 1, 2, 3}));
  EXPECT_EQ(g->label(ar.label), "grad_ar");
  EXPECT_EQ(g->gpu_count(), 4);

  // Every fwd (100 us) -> the all-reduce -> every bwd (50 us), one per GPU.
  std::vector<int> fwd_per_gpu(4, 0), bwd_per_gpu(4, 0);
  for (JobNodeIndex c : compute) {
    const JobNode& n = g->node(c);
    if (n.duration == Time::FromUs(100)) {
      ++fwd_per_gpu[n.gpu];
      EXPECT_EQ(g->label(n.label), "fwd");
      EXPECT_TRUE(HasEdge(*g, c, collective[0]));
      EXPECT_EQ(g->in_degree(c), 0u);
    } else {
      ASSERT_EQ(n.duration, Time::FromUs(50));
      ++bwd_per_gpu[n.gpu];
      EXPECT_TRUE(HasEdge(*g, collective[0], c));
      EXPECT_EQ(g->in_degree(c), 1u);
      EXPECT_TRUE(g->successors(c).empty());
    }
  }
  EXPECT_EQ(fwd_per_gpu, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(bwd_per_gpu, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(g->in_degree(collective[0]), 4u);
  EXPECT_EQ(g->successors(collective[0]).size(), 4u);
}

TEST(ChakraReader, RanksRunOnTheGpusGiven) {
  ChakraOptions options;
  options.rank_gpus = {8, 9, 10, 11};
  Result<JobGraph> g = Build(ComputeAllReduceCompute(), options);
  ASSERT_TRUE(g.ok()) << g.error().message;
  const JobNode& ar = g->node(OfKind(*g, JobNodeKind::kCollective)[0]);
  EXPECT_EQ(g->group(ar.group), (std::vector<GpuId>{8, 9, 10, 11}));
  EXPECT_EQ(g->node(0).gpu, 8);
  options.rank_gpus = {0, 1};
  EXPECT_THAT(ErrorOf(ComputeAllReduceCompute(), options), HasSubstr("rank_gpus has 2 GPUs for 4 trace files"));
}

TEST(ChakraReader, SendsPairWithRecvsBySourceDestinationAndTagInOrder) {
  // Rank 0 sends 1 KiB then 2 KiB to rank 1 (tag 0) and 3 KiB with tag 5;
  // rank 1 posts the tag-5 recv first. Rank 1's compute needs the second
  // tag-0 message.
  std::vector<ChakraRankTrace> ranks = Ranks(2);
  ranks[0].nodes.push_back(MakeChakraSend(10, "s1", 0, 1, 1024, 0));
  ranks[0].nodes.push_back(MakeChakraSend(11, "s2", 0, 1, 2048, 0, {10}));
  ranks[0].nodes.push_back(MakeChakraSend(12, "s5", 0, 1, 3072, 5));
  ranks[1].nodes.push_back(MakeChakraRecv(20, "r5", 0, 1, 3072, 5));
  ranks[1].nodes.push_back(MakeChakraRecv(21, "r1", 0, 1, 1024, 0));
  ranks[1].nodes.push_back(MakeChakraRecv(22, "r2", 0, 1, 2048, 0));
  ranks[1].nodes.push_back(MakeChakraCompute(23, "use", 7, {22}));
  Result<JobGraph> g = Build(ranks);
  ASSERT_TRUE(g.ok()) << g.error().message;
  const std::vector<JobNodeIndex> t = OfKind(*g, JobNodeKind::kTransfer);
  ASSERT_EQ(t.size(), 3u);
  std::map<std::string, JobNodeIndex> by_label;
  for (JobNodeIndex i : t) {
    const JobNode& n = g->node(i);
    EXPECT_EQ(n.gpu, 0);
    EXPECT_EQ(n.peer, 1);
    by_label[g->label(n.label)] = i;
  }
  EXPECT_EQ(g->node(by_label["s1"]).bytes, 1024u);
  EXPECT_EQ(g->node(by_label["s2"]).bytes, 2048u);
  EXPECT_EQ(g->node(by_label["s5"]).bytes, 3072u);
  // s1 -> s2 from rank 0's dependency; s2 -> use from rank 1's.
  EXPECT_TRUE(HasEdge(*g, by_label["s1"], by_label["s2"]));
  const JobNodeIndex use = OfKind(*g, JobNodeKind::kCompute)[0];
  EXPECT_TRUE(HasEdge(*g, by_label["s2"], use));
  EXPECT_EQ(g->in_degree(use), 1u);
}

TEST(ChakraReader, PassThroughNodesKeepDependenciesAndCtrlDepsCount) {
  // compute 1 -> MEM_LOAD 2 -> METADATA 3 -> all-reduce 4 (data dep);
  // compute 5 after the all-reduce through a control dependency only.
  std::vector<ChakraRankTrace> ranks = Ranks(2);
  for (ChakraRankTrace& r : ranks) {
    r.nodes.push_back(MakeChakraCompute(1, "c", 10));
    Node load;
    load.set_id(2);
    load.set_type(ChakraProtoMsg::MEM_LOAD_NODE);
    load.add_data_deps(1);
    r.nodes.push_back(load);
    Node meta;
    meta.set_id(3);
    meta.set_type(ChakraProtoMsg::METADATA_NODE);
    meta.add_ctrl_deps(2);
    r.nodes.push_back(meta);
    r.nodes.push_back(MakeChakraCollective(4, "ar", ChakraProtoMsg::ALL_GATHER, 4096, {3}));
    Node after = MakeChakraCompute(5, "after", 20);
    after.add_ctrl_deps(4);
    r.nodes.push_back(after);
  }
  Result<JobGraph> g = Build(ranks);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->size(), 5u);  // 2 + 2 compute, 1 collective
  const JobNodeIndex ag = OfKind(*g, JobNodeKind::kCollective)[0];
  EXPECT_EQ(g->node(ag).op, CollectiveOp::kAllGather);
  EXPECT_EQ(g->in_degree(ag), 2u);  // both "c", through the load and the metadata
  EXPECT_EQ(g->successors(ag).size(), 2u);
}

TEST(ChakraReader, CommunicatorGroupsFromPgNameOrTheGivenGroups) {
  // Ranks 0,1 all-reduce in pg "1", ranks 2,3 in pg "2"; then an all-to-all
  // over everyone (pg "0" is all ranks) whose sizes differ per rank.
  std::vector<ChakraRankTrace> ranks = Ranks(4);
  for (int r = 0; r < 4; ++r) {
    ranks[r].nodes.push_back(
        MakeChakraCollective(1, "tp_ar", ChakraProtoMsg::ALL_REDUCE, 8192, {}, r < 2 ? "1" : "2"));
    ranks[r].nodes.push_back(MakeChakraCollective(2, "a2a", ChakraProtoMsg::ALL_TO_ALL, 1000 * (r + 1), {1}, "0"));
  }
  Result<JobGraph> g = Build(ranks);
  ASSERT_TRUE(g.ok()) << g.error().message;
  const std::vector<JobNodeIndex> c = OfKind(*g, JobNodeKind::kCollective);
  ASSERT_EQ(c.size(), 3u);
  std::vector<std::vector<GpuId>> groups;
  for (JobNodeIndex i : c) groups.push_back(g->group(g->node(i).group));
  EXPECT_THAT(groups, ::testing::UnorderedElementsAre(std::vector<GpuId>{0, 1}, std::vector<GpuId>{2, 3},
                                                      std::vector<GpuId>{0, 1, 2, 3}));
  for (JobNodeIndex i : c) {
    if (g->node(i).op == CollectiveOp::kAllToAll) {
      EXPECT_EQ(g->node(i).bytes, 4000u);  // the largest copy
      EXPECT_EQ(g->in_degree(i), 2u);      // both tp all-reduces
    }
  }

  // Given groups: pg "1" is ranks {0, 1, 2}, so rank 2's pg "2" copy
  // alone makes a group of one... and rank 2 lacks a pg "1" collective.
  ChakraOptions options;
  options.comm_groups["1"] = {0, 1, 2};
  EXPECT_EQ(ErrorOf(ranks, options),
            "t.0.et: node 1 (tp_ar): collective #1 of communicator '1' has no match in t.2.et, which has 0 "
            "(collective counts disagree across ranks)");
  options.comm_groups["0"] = {0, 1};
  EXPECT_EQ(ErrorOf(ranks, options), "chakra: comm group '0': is the group of all ranks and cannot be given");
  options.comm_groups.erase("0");
  options.comm_groups["1"] = {0};
  EXPECT_EQ(ErrorOf(ranks, options),
            "t.1.et: node 1 (tp_ar): a collective of communicator '1', whose group (comm_groups) does not include "
            "rank 1");
}

TEST(ChakraReader, ComputeFromNumOpsNeedsPeakFlops) {
  std::vector<ChakraRankTrace> ranks = Ranks(1);
  Node n = MakeChakraCompute(1, "gemm", 0);
  *n.add_attr() = ChakraInt64Attr("num_ops", 2'000'000'000'000);
  ranks[0].nodes.push_back(n);
  EXPECT_EQ(ErrorOf(ranks),
            "t.0.et: node 1 (gemm): compute node with num_ops but no duration_micros; set peak_flops_per_s to derive "
            "its time");
  ChakraOptions options;
  options.peak_flops_per_s = 1e15;
  options.compute_efficiency = 0.5;
  Result<JobGraph> g = Build(ranks, options);
  ASSERT_TRUE(g.ok()) << g.error().message;
  // 2e12 FLOPs at 1e15 x 0.5 FLOP/s: 4 ms.
  EXPECT_EQ(g->node(0).duration, Time::FromMs(4));
  EXPECT_DOUBLE_EQ(g->node(0).flops, 2e12);
}

TEST(ChakraReader, CpuOpsCountUnlessSkipped) {
  std::vector<ChakraRankTrace> ranks = Ranks(1);
  Node cpu = MakeChakraCompute(1, "launch", 5);
  cpu.mutable_attr(0)->set_bool_val(true);  // is_cpu_op
  ranks[0].nodes.push_back(cpu);
  ranks[0].nodes.push_back(MakeChakraCompute(2, "k", 9, {1}));
  Result<JobGraph> g = Build(ranks);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->size(), 2u);
  ChakraOptions options;
  options.skip_cpu_ops = true;
  g = Build(ranks, options);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->size(), 1u);
  EXPECT_EQ(g->node(0).duration, Time::FromUs(9));
}

TEST(ChakraReader, ErrorsNameTheFileAndNode) {
  {  // a dependency that is not in the file
    std::vector<ChakraRankTrace> ranks = Ranks(1);
    ranks[0].nodes.push_back(MakeChakraCompute(1, "a", 1, {9}));
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 1 (a): depends on node 9, which is not in the file");
  }
  {  // collective counts that disagree
    std::vector<ChakraRankTrace> ranks = ComputeAllReduceCompute();
    ranks[3].nodes.erase(ranks[3].nodes.begin() + 1);
    ranks[3].nodes[1].clear_data_deps();
    EXPECT_EQ(ErrorOf(ranks),
              "t.0.et: node 2 (grad_ar): collective #1 of communicator \"\" (all ranks) has no match in t.3.et, "
              "which has 0 (collective counts disagree across ranks)");
  }
  {  // the same position, another operation
    std::vector<ChakraRankTrace> ranks = ComputeAllReduceCompute();
    ranks[2].nodes[1] = MakeChakraCollective(2, "grad_ar", ChakraProtoMsg::REDUCE_SCATTER, 1 << 20, {1});
    EXPECT_EQ(ErrorOf(ranks),
              "t.2.et: node 2 (grad_ar): collective #1 of communicator \"\" (all ranks) is reduce_scatter of 1048576 "
              "bytes, but all_reduce of 1048576 bytes in t.0.et: node 2 (grad_ar)");
  }
  {  // a recv without its send
    std::vector<ChakraRankTrace> ranks = Ranks(2);
    ranks[1].nodes.push_back(MakeChakraRecv(4, "r", 0, 1, 64, 3));
    EXPECT_EQ(ErrorOf(ranks), "t.1.et: node 4 (r): recv from rank 0 (tag 3) has no matching send in t.0.et");
  }
  {  // a send without its recv
    std::vector<ChakraRankTrace> ranks = Ranks(2);
    ranks[0].nodes.push_back(MakeChakraSend(4, "s", 0, 1, 64, 0));
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 4 (s): send to rank 1 (tag 0) has no matching recv in t.1.et");
  }
  {  // a peer that is not a rank; a send from another rank's trace
    std::vector<ChakraRankTrace> ranks = Ranks(2);
    ranks[0].nodes.push_back(MakeChakraSend(4, "s", 0, 5, 64, 0));
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 4 (s): comm_dst 5 is not a rank of this trace set (2 files)");
    ranks[0].nodes[0] = MakeChakraSend(4, "s", 1, 0, 64, 0);
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 4 (s): a send from rank 1 in the trace of rank 0");
  }
  {  // two nodes with one id; a cycle within a file
    std::vector<ChakraRankTrace> ranks = Ranks(1);
    ranks[0].nodes.push_back(MakeChakraCompute(1, "a", 1));
    ranks[0].nodes.push_back(MakeChakraCompute(1, "b", 1));
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 1 (b): a second node with this id");
    ranks[0].nodes[0] = MakeChakraCompute(1, "a", 1, {2});
    ranks[0].nodes[1] = MakeChakraCompute(2, "b", 1, {1});
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 1 (a): on a dependency cycle (or after one)");
  }
  {  // collectives matched in an order that deadlocks
    std::vector<ChakraRankTrace> ranks = Ranks(2);
    ranks[0].nodes.push_back(MakeChakraCollective(1, "A", ChakraProtoMsg::ALL_REDUCE, 64, {}, "1"));
    ranks[0].nodes.push_back(MakeChakraCollective(2, "B", ChakraProtoMsg::ALL_REDUCE, 64, {1}, "2"));
    ranks[1].nodes.push_back(MakeChakraCollective(1, "B", ChakraProtoMsg::ALL_REDUCE, 64, {}, "2"));
    ranks[1].nodes.push_back(MakeChakraCollective(2, "A", ChakraProtoMsg::ALL_REDUCE, 64, {1}, "1"));
    EXPECT_THAT(ErrorOf(ranks), HasSubstr("on a dependency cycle across ranks"));
  }
  {  // unsupported and malformed attributes
    std::vector<ChakraRankTrace> ranks = Ranks(1);
    ranks[0].nodes.push_back(MakeChakraCollective(1, "g", ChakraProtoMsg::GATHER, 64));
    EXPECT_THAT(ErrorOf(ranks), HasSubstr("t.0.et: node 1 (g): comm_type GATHER is not supported"));
    Node no_size = MakeChakraCollective(1, "x", ChakraProtoMsg::ALL_REDUCE, 64);
    no_size.mutable_attr()->RemoveLast();  // comm_size
    ranks[0].nodes[0] = no_size;
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 1 (x): no comm_size attribute");
    ranks[0].nodes[0].mutable_attr(1)->set_string_val("big");  // comm_type
    EXPECT_EQ(ErrorOf(ranks), "t.0.et: node 1 (x): attribute comm_type is not an integer");
  }
}

TEST(ChakraReader, ATruncatedFileInASetIsNamed) {
  const fs::path dir = fs::path(::testing::TempDir()) / "aifabric_chakra_reader_truncated";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string prefix = (dir / "step").string();
  ASSERT_TRUE(WriteChakraTraces(prefix, ComputeAllReduceCompute()).ok());
  fs::resize_file(ChakraTracePath(prefix, 2), fs::file_size(ChakraTracePath(prefix, 2)) - 3);
  Result<JobGraph> g = ReadChakraTracePrefix(prefix);
  fs::remove_all(dir);
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error().message, HasSubstr(ChakraTracePath(prefix, 2) + ": byte "));
  EXPECT_THAT(g.error().message, HasSubstr("truncated message"));
}

TEST(ChakraReader, DamagedFilesGiveAnErrorNeverACrash) {
  // Every truncation and every single-byte change of rank 1's file: the
  // set reads into a graph or an error that names a file.
  const fs::path dir = fs::path(::testing::TempDir()) / "aifabric_chakra_reader_damaged";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string prefix = (dir / "step").string();
  std::vector<ChakraRankTrace> ranks = ComputeAllReduceCompute();
  ranks[1].nodes.push_back(MakeChakraSend(4, "s", 1, 2, 64, 0, {3}));
  ranks[2].nodes.push_back(MakeChakraRecv(4, "r", 1, 2, 64, 0, {3}));
  ASSERT_TRUE(WriteChakraTraces(prefix, ranks).ok());
  const std::string file = ChakraTracePath(prefix, 1);
  std::vector<std::string> files;
  for (int r = 0; r < 4; ++r) files.push_back(ChakraTracePath(prefix, r));
  std::string good;
  {
    std::ifstream f(file, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(f), {});
  }
  int errors = 0;
  int variant = 0;
  auto check = [&](const std::string& bytes) {
    // A new file each time: rewriting one in place makes ext4 flush it.
    std::string name = "damaged_";
    name += std::to_string(variant++);
    name += ".et";
    files[1] = (dir / name).string();
    std::ofstream(files[1], std::ios::binary) << bytes;
    Result<JobGraph> g = ReadChakraTraces(files);
    if (!g.ok()) {
      ++errors;
      EXPECT_THAT(g.error().message, HasSubstr(".et")) << g.error().message;
    }
  };
  for (size_t n = 0; n < good.size(); ++n) check(good.substr(0, n));
  for (size_t i = 0; i < good.size(); ++i) {
    for (unsigned char x : {0x01, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ x);
      check(bad);
    }
  }
  fs::remove_all(dir);
  EXPECT_GT(errors, static_cast<int>(good.size()));
}

TEST(ChakraReader, ReadsAstraSimCommGroupFiles) {
  const fs::path path = fs::path(::testing::TempDir()) / "aifabric_chakra_groups.json";
  std::ofstream(path) << R"({"1": [0, 1], "2": [2, 3]})";
  Result<std::map<std::string, std::vector<int32_t>>> groups = ReadChakraCommGroups(path.string());
  ASSERT_TRUE(groups.ok()) << groups.error().message;
  EXPECT_EQ(groups->at("2"), (std::vector<int32_t>{2, 3}));
  std::ofstream(path) << R"({"1": [0, "x"]})";
  EXPECT_THAT(ReadChakraCommGroups(path.string()).error().message,
              HasSubstr("group '1': expected ranks as non-negative integers, got \"x\""));
  fs::remove(path);
}

}  // namespace
}  // namespace aifabric
