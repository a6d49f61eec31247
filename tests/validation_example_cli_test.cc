// examples/validation: fit the collective model to one server's nccl-tests
// log, predict two servers, and hold the prediction to the error its
// README states, computed here from the measured log's own numbers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

// size -> out-of-place time (us) of an nccl-tests table: its 13-column rows
// (size count type redop root time algbw busbw #wrong, twice over).
std::map<long long, double> OutOfPlaceTimes(const std::string& text) {
  std::map<long long, double> times;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    std::string field[13];
    int n = 0;
    while (n < 13 && row >> field[n]) ++n;
    std::string extra;
    if (n != 13 || (row >> extra) || field[0].find_first_not_of("0123456789") != std::string::npos) continue;
    times[std::stoll(field[0])] = std::stod(field[5]);
  }
  return times;
}

TEST(ValidationExample, OneServerFitPredictsTwoServersWithTheStatedError) {
  const std::string root = AIFABRIC_SOURCE_DIR;
  TempDir dir;
  // The fit the README shows writes the committed calibration file.
  CommandResult fit = RunAifabric("calibrate data/nccl_tests_logs/all_reduce_perf_a100x8_ocitutorials.log"
                                  " --cluster examples/validation/a100_1node.yaml --no-cv --out " +
                                  dir.path() + "/fit.yaml");
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  EXPECT_EQ(ReadFile(dir.path() + "/fit.yaml"), ReadFile(root + "/examples/validation/a100_1node_fit.yaml"));

  CommandResult predicted = RunAifabric("collective " + root +
                                        "/examples/validation/a100_2node_predicted.yaml -b 32M -e 8G -f 2 --model flow");
  ASSERT_EQ(predicted.exit_code, 0) << predicted.err;
  const auto model = OutOfPlaceTimes(predicted.out);
  const auto measured = OutOfPlaceTimes(
      ReadFile(root + "/data/nccl_tests_logs/all_reduce_perf_a100x16_2node_untuned_ocitutorials.log"));
  ASSERT_EQ(model.size(), 9u);  // 32 MiB .. 8 GiB
  double sum = 0;
  for (const auto& [bytes, us] : model) {
    ASSERT_EQ(measured.count(bytes), 1u) << bytes;
    sum += std::abs(us - measured.at(bytes)) / measured.at(bytes);
  }
  // The README's figure, 49.4% (49.40 before rounding).
  EXPECT_NEAR(100.0 * sum / 9.0, 49.40, 0.01);
  // And its 1 GiB row: 16757.8 us against 28656 us measured, -41.5%.
  EXPECT_NEAR(100.0 * (model.at(1073741824) - measured.at(1073741824)) / measured.at(1073741824), -41.5, 0.05);
}

TEST(ValidationExample, CalibrateReadsAPublishedTableAndRejectsABadRowByFileAndLine) {
  // The tuned A100 pair's one published size, as data/validation/ keeps it.
  CommandResult table = RunAifabric(
      "calibrate data/validation/nccl_tests_a100_2node_allreduce_ocitutorials_tuned.csv"
      " --cluster examples/validation/a100_2node_roce_tuned.yaml");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, ::testing::HasSubstr("(all_reduce from the table, 16 ranks on 2 host(s))"));
  EXPECT_THAT(table.out, ::testing::HasSubstr("  10737418240   90330.00"));
  TempDir dir;
  const std::string bad = dir.Write("bad.csv",
                                    "# system: 1 node x 8 GPUs\nop,size_bytes,time_us,algbw_gbps,busbw_gbps\n"
                                    "all_reduce,1048576,76.71,13.67,23.92\nall_reduce,2M,112.4,18.66,32.66\n");
  CommandResult rejected = RunAifabric("calibrate " + bad + " --cluster examples/validation/a100_1node.yaml");
  EXPECT_EQ(rejected.exit_code, 2);
  EXPECT_THAT(rejected.err,
              ::testing::HasSubstr(bad + ":4: size_bytes: expected a whole number of bytes > 0, got '2M'"));
}

}  // namespace
}  // namespace aifabric::testing
