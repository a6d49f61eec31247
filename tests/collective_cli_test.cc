// `aifabric collective` end to end: its table parses with a parser written
// from nccl-tests' documented layout (checked first on a hand-written
// nccl-tests fixture), agrees with its -J JSON and with the busbw formula,
// and bad flags are exit code 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

// One data row of an nccl-tests table: `size count type redop root` then,
// out of place and in place, `time algbw busbw #wrong` (nccl-tests
// doc/PERFORMANCE.md and its printed header).
struct Row {
  uint64_t size = 0, count = 0;
  std::string type, redop;
  int root = 0;
  double time_us[2] = {0, 0}, algbw[2] = {0, 0}, busbw[2] = {0, 0};
  std::string wrong[2];
};

// Rows of every non-comment line with the 13 fields; the "# Avg bus
// bandwidth" value into `average`.
std::vector<Row> ParseNcclTests(const std::string& text, double* average) {
  std::vector<Row> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# Avg bus bandwidth", 0) == 0) *average = std::stod(line.substr(line.find(':') + 1));
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    Row r;
    f >> r.size >> r.count >> r.type >> r.redop >> r.root;
    for (int h = 0; h < 2; ++h) f >> r.time_us[h] >> r.algbw[h] >> r.busbw[h] >> r.wrong[h];
    EXPECT_FALSE(f.fail()) << "not an nccl-tests row: " << line;
    rows.push_back(r);
  }
  return rows;
}

TEST(CollectiveCli, TheParserReadsAnNcclTestsFixture) {
  // Written from nccl-tests' layout: all_reduce_perf, 8 GPUs, two sizes.
  const std::string fixture =
      "#                                                              out-of-place                       in-place\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
      "#wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
      "     1048576        262144     float     sum      -1    24.84   42.21   73.87      0    24.50   42.80   74.90      0\n"
      "   134217728      33554432     float     sum      -1   561.10  239.21  418.61      0   560.20  239.59  419.28      0\n"
      "# Out of bounds values : 0 OK\n"
      "# Avg bus bandwidth    : 246.665 \n";
  double average = 0;
  const std::vector<Row> rows = ParseNcclTests(fixture, &average);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].size, 134217728u);
  EXPECT_EQ(rows[1].count, 33554432u);
  EXPECT_EQ(rows[1].redop, "sum");
  EXPECT_DOUBLE_EQ(rows[1].time_us[1], 560.20);
  EXPECT_DOUBLE_EQ(rows[0].busbw[0], 73.87);
  EXPECT_DOUBLE_EQ(average, 246.665);
}

TEST(CollectiveCli, TheTableParsesAndAgreesWithItsJsonAndTheBusbwFormula) {
  TempDir dir;
  const std::string json_path = dir.path() + "/ar.json";
  CommandResult r = RunAifabric("collective --gpus 8 -b 1M -e 4M -f 2 -J " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  double average = -1;
  const std::vector<Row> rows = ParseNcclTests(r.out, &average);
  ASSERT_EQ(rows.size(), 3u);  // 1M, 2M, 4M
  const auto json = nlohmann::json::parse(ReadFile(json_path));
  ASSERT_EQ(json["results"].size(), 3u);
  double sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const auto& j = json["results"][i];
    EXPECT_EQ(row.size, (1u << 20) << i);
    EXPECT_EQ(row.size, j["size"].get<uint64_t>());
    EXPECT_EQ(row.count, row.size / 4);  // float
    EXPECT_EQ(row.wrong[0], "N/A");      // nothing is checked
    const double time = j["out_of_place"]["time"].get<double>();
    EXPECT_NEAR(row.time_us[0], time, 0.005 + 1e-9);
    // algbw = S / t (GB/s = bytes per ns); busbw = algbw x 2(n-1)/n.
    const double algbw = static_cast<double>(row.size) / (time * 1e3);
    EXPECT_NEAR(row.algbw[0], algbw, 0.005 + 1e-9);
    EXPECT_NEAR(row.busbw[0], algbw * 2 * 7 / 8, 0.005 + 1e-9);
    sum += j["out_of_place"]["bus_bw"].get<double>() + j["in_place"]["bus_bw"].get<double>();
  }
  EXPECT_NEAR(average, sum / 6, 1e-3 * average);
  EXPECT_EQ(json["config"]["ngpus"], 8);
}

TEST(CollectiveCli, BadFlagsAreBadInputAndWriteNothing) {
  TempDir dir;
  const std::string json_path = dir.path() + "/x.json";
  CommandResult op = RunAifabric("collective --op all_reduse -J " + json_path);
  EXPECT_EQ(op.exit_code, 2);
  EXPECT_THAT(op.err, HasSubstr("--op"));
  CommandResult size = RunAifabric("collective -b 8x");
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_THAT(size.err, HasSubstr("-b"));
  CommandResult gpus = RunAifabric("collective --gpus 12");
  EXPECT_EQ(gpus.exit_code, 2);
  EXPECT_THAT(gpus.err, HasSubstr("--gpus"));
  EXPECT_FALSE(Exists(json_path));
}

}  // namespace
}  // namespace aifabric::testing
