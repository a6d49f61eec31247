#include "workload/hpcc_flow_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "workload/test_topology.h"

namespace aifabric {
namespace {

// Writes `text` to a file in the test temp dir and returns its path.
std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "aifabric_hpcc_flow_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Seconds -> picoseconds from the decimal digits: 2.000001 s
// = 2 s + 1 us = 2e12 + 1e6 ps = 2,000,001,000,000 ps. A double would
// give 2.000001 * 1e12 = 2000000999999.9998 before rounding.
TEST(ParseSecondsExactTest, ConvertsDecimalSecondsExactly) {
  EXPECT_EQ(ParseSecondsExact("2.000001")->ps(), 2000001000000);
  EXPECT_EQ(ParseSecondsExact("0")->ps(), 0);
  EXPECT_EQ(ParseSecondsExact("3")->ps(), 3000000000000);
  EXPECT_EQ(ParseSecondsExact("0.5")->ps(), 500000000000);
  EXPECT_EQ(ParseSecondsExact(".25")->ps(), 250000000000);
  EXPECT_EQ(ParseSecondsExact("2.")->ps(), 2000000000000);
  EXPECT_EQ(ParseSecondsExact("0.000000000001")->ps(), 1);
  EXPECT_EQ(ParseSecondsExact("1e-6")->ps(), 1000000);
  EXPECT_EQ(ParseSecondsExact("1.5E+3")->ps(), 1500000000000000);
  EXPECT_EQ(ParseSecondsExact("0.123456789012345")->ps(), 123456789012);
  // Rounds half up at the picosecond: 0.4 ps -> 0, 0.5 ps -> 1, 1.4999 -> 1.
  EXPECT_EQ(ParseSecondsExact("0.0000000000004")->ps(), 0);
  EXPECT_EQ(ParseSecondsExact("0.0000000000005")->ps(), 1);
  EXPECT_EQ(ParseSecondsExact("0.0000000000014999")->ps(), 1);
  EXPECT_EQ(ParseSecondsExact("0.00000000000000001")->ps(), 0);
  // 9e6 s = 9e18 ps fits in int64 (max ~9.22e18); 1e7 s does not.
  EXPECT_EQ(ParseSecondsExact("9000000")->ps(), 9000000000000000000);
  EXPECT_FALSE(ParseSecondsExact("10000000"));
  for (const char* bad : {"", ".", "-1", "+1", "1.2.3", "abc", "1e", "1e+", "0x10", "1 ", "nan"}) {
    EXPECT_FALSE(ParseSecondsExact(bad)) << bad;
  }
}

TEST(HpccFlowFileTest, ReadsFlowsWithExactStarts) {
  // Interleaved ids: hosts are nodes 1, 3, 5, 7; switches 0, 2, 4, 6, 8.
  const Topology topo = testing_topology::Interleaved(4);
  const std::string path = WriteTemp("ok.txt",
                                     "3\n"
                                     "1 3 3 100 1000 2.000001\n"
                                     "5 7 0 4791 65536 2.0\n"
                                     "7 1 7 200 1 0.000000000001\n"
                                     "\n\n");
  Result<std::vector<FlowSpec>> flows = ReadHpccFlowFile(path, topo);
  ASSERT_TRUE(flows.ok()) << flows.error().message;
  ASSERT_EQ(flows->size(), 3u);
  const FlowSpec& f = (*flows)[0];
  EXPECT_EQ(f.src, 1);
  EXPECT_EQ(f.dst, 3);
  EXPECT_EQ(f.priority, 3);
  EXPECT_EQ(f.dport, 100);
  EXPECT_EQ(f.bytes, 1000u);
  EXPECT_EQ(f.start.ps(), 2000001000000);
  EXPECT_EQ((*flows)[1].start.ps(), 2000000000000);
  EXPECT_EQ((*flows)[1].priority, 0);
  EXPECT_EQ((*flows)[1].bytes, 65536u);
  EXPECT_EQ((*flows)[2].start.ps(), 1);
  EXPECT_EQ((*flows)[2].priority, 7);
}

TEST(HpccFlowFileTest, ErrorsNameFileLineAndWhatWasExpected) {
  const Topology topo = testing_topology::Interleaved(4);  // 9 nodes
  struct Case {
    const char* name;
    const char* text;
    const char* expect;  // substring after the path
  };
  for (const Case& c : {
           Case{"fields.txt", "2\n1 3 3 100 1000 0\n1 3 3 100 1000\n",
                ":3: expected 6 fields `src dst pg dport bytes start_s`, got 5"},
           Case{"nonnum.txt", "1\n1 x 3 100 1000 0\n", ":2: dst: expected a node id, got 'x'"},
           Case{"bytes.txt", "1\n1 3 3 100 1k 0\n", ":2: bytes: expected a size in bytes > 0"},
           Case{"zero.txt", "1\n1 3 3 100 0 0\n", ":2: bytes: expected a size in bytes > 0"},
           Case{"start.txt", "1\n1 3 3 100 10 -1\n", ":2: start_s: expected a start time"},
           Case{"count.txt", "3\n1 3 3 100 10 0\n3 1 3 100 10 0\n\n",
                ":3: expected 3 flows (declared on line 1), found 2"},
           Case{"extra.txt", "1\n1 3 3 100 10 0\n3 1 3 100 10 0\n",
                ":3: more flow lines than the 1 declared on line 1"},
           Case{"header.txt", "two\n", ":1: expected the flow count"},
           Case{"range.txt", "1\n1 40 3 100 10 0\n",
                ":2: dst: node 40 is not a host (the topology has 9 nodes)"},
           Case{"switch.txt", "1\n2 3 3 100 10 0\n", ":2: src: node 2 (sw1) is a switch"},
           Case{"same.txt", "1\n3 3 3 100 10 0\n", ":2: src and dst are the same node (3)"},
           Case{"pg.txt", "1\n1 3 8 100 10 0\n", ":2: pg: expected a priority group 0..7, got '8'"},
           Case{"dport.txt", "1\n1 3 3 70000 10 0\n", ":2: dport: expected a port 0..65535"},
       }) {
    const std::string path = WriteTemp(c.name, c.text);
    Result<std::vector<FlowSpec>> flows = ReadHpccFlowFile(path, topo);
    ASSERT_FALSE(flows.ok()) << c.name;
    EXPECT_NE(flows.error().message.find(path + c.expect), std::string::npos)
        << "got: " << flows.error().message;
  }
  Result<std::vector<FlowSpec>> missing = ReadHpccFlowFile("/nonexistent/flow.txt", topo);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/flow.txt: cannot open"), std::string::npos)
      << missing.error().message;
}

}  // namespace
}  // namespace aifabric
