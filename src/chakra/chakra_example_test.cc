// examples/chakra/: a 4-rank trace set (compute, all-reduce, compute, a
// ring of send/recv, compute) stored as .et files. This test is how they
// were made — AIFABRIC_UPDATE_EXAMPLES=1 rewrites them — and checks that
// the stored files are exactly what the writer makes and read back into
// the expected JobGraph.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "chakra/chakra_nodes.h"
#include "chakra/chakra_reader.h"
#include "chakra/chakra_trace_file.h"
#include "test_paths.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

constexpr int kRanks = 4;

// Rank r: fwd (100 us) -> all-reduce of 1 MiB -> bwd (50 us) -> send 256
// KiB to rank r+1 and receive from rank r-1 (a ring shift) -> opt (10 us),
// after the recv (data) and the send (control).
std::vector<ChakraRankTrace> ExampleTraces() {
  std::vector<ChakraRankTrace> ranks(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    ChakraRankTrace& t = ranks[r];
    t.metadata = MakeChakraMetadata();
    t.nodes.push_back(MakeChakraCompute(1, "fwd", 100));
    t.nodes.push_back(MakeChakraCollective(2, "grad_allreduce", ChakraProtoMsg::ALL_REDUCE, 1 << 20, {1}));
    t.nodes.push_back(MakeChakraCompute(3, "bwd", 50, {2}));
    t.nodes.push_back(MakeChakraSend(4, "send_next", r, (r + 1) % kRanks, 256 << 10, 0, {3}));
    t.nodes.push_back(MakeChakraRecv(5, "recv_prev", (r + kRanks - 1) % kRanks, r, 256 << 10, 0, {3}));
    ChakraProtoMsg::Node opt = MakeChakraCompute(6, "opt", 10, {5});
    opt.add_ctrl_deps(4);
    t.nodes.push_back(opt);
  }
  return ranks;
}

std::string Bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(ChakraExample, StoredFilesAreWhatTheWriterMakes) {
  const std::string prefix = std::string(AIFABRIC_SOURCE_DIR) + "/examples/chakra/allreduce_ring";
  const char* update = std::getenv("AIFABRIC_UPDATE_EXAMPLES");
  if (update != nullptr && std::string(update) == "1") {
    ASSERT_TRUE(WriteChakraTraces(prefix, ExampleTraces()).ok());
  }
  const fs::path dir = fs::path(::testing::TempDir()) / "aifabric_chakra_example";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fresh = (dir / "allreduce_ring").string();
  ASSERT_TRUE(WriteChakraTraces(fresh, ExampleTraces()).ok());
  size_t total_bytes = 0;
  for (int r = 0; r < kRanks; ++r) {
    const std::string stored = Bytes(ChakraTracePath(prefix, r));
    EXPECT_EQ(stored, Bytes(ChakraTracePath(fresh, r))) << ChakraTracePath(prefix, r);
    total_bytes += stored.size();
  }
  fs::remove_all(dir);
  EXPECT_LT(total_bytes, 10u << 10);
}

TEST(ChakraExample, ReadsIntoTheExpectedJobGraph) {
  Result<JobGraph> g = ReadChakraTracePrefix(std::string(AIFABRIC_SOURCE_DIR) + "/examples/chakra/allreduce_ring");
  ASSERT_TRUE(g.ok()) << g.error().message;
  // 3 compute nodes per rank, one all-reduce, 4 transfers.
  int compute = 0, collectives = 0, transfers = 0;
  for (JobNodeIndex i = 0; i < g->size(); ++i) {
    const JobNode& n = g->node(i);
    switch (n.kind) {
      case JobNodeKind::kCompute: ++compute; break;
      case JobNodeKind::kCollective:
        ++collectives;
        EXPECT_EQ(n.bytes, 1u << 20);
        EXPECT_EQ(g->group(n.group).size(), 4u);
        break;
      case JobNodeKind::kTransfer:
        ++transfers;
        EXPECT_EQ(n.peer, (n.gpu + 1) % kRanks);
        EXPECT_EQ(n.bytes, 256u << 10);
        // After the bwd of both the sender and the receiver.
        EXPECT_EQ(g->in_degree(i), 2u);
        EXPECT_EQ(g->successors(i).size(), 2u);  // the sender's opt, the receiver's opt
        break;
    }
  }
  EXPECT_EQ(compute, 12);
  EXPECT_EQ(collectives, 1);
  EXPECT_EQ(transfers, 4);
}

}  // namespace
}  // namespace aifabric
