#include "telemetry/prometheus_text.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(RenderPrometheusText, SmallSnapshotByHand) {
  const std::vector<MetricFamily> families = {
      {"aifabric_test_bytes_total",
       "Bytes \\ sent.\nSecond line.",
       MetricKind::kCounter,
       {{{{"node", "leaf\"0\\x\ny"}, {"port", "1"}}, 12345}, {{{"node", "a"}}, 0.1}, {{}, 0}}},
      {"aifabric_test_ratio",
       "Ratio, \"quoted\" in help.",
       MetricKind::kGauge,
       {{{{"k", "inf"}}, kInf},
        {{{"k", "-inf"}}, -kInf},
        {{{"k", "nan"}}, std::nan("")},
        {{{"k", "half"}}, 1.5},
        {{{"k", "neg"}}, -2},
        {{{"k", "third"}}, 1.0 / 3.0},
        {{{"k", "2^53"}}, 9007199254740992.0},
        {{{"k", "1e20"}}, 1e20},
        {{{"k", "tiny"}}, 2.5e-7}}},
      {"aifabric_empty", "Nothing yet.", MetricKind::kGauge, {}},
  };
  // Help escapes `\` and newline but not `"`; label values escape all three.
  // Integers print bare; 1e20 is beyond 2^53, so it takes the shortest
  // round-trip form; 1/3 needs all 16 digits to read back.
  const std::string expected =
      "# HELP aifabric_test_bytes_total Bytes \\\\ sent.\\nSecond line.\n"
      "# TYPE aifabric_test_bytes_total counter\n"
      "aifabric_test_bytes_total{node=\"leaf\\\"0\\\\x\\ny\",port=\"1\"} 12345\n"
      "aifabric_test_bytes_total{node=\"a\"} 0.1\n"
      "aifabric_test_bytes_total 0\n"
      "# HELP aifabric_test_ratio Ratio, \"quoted\" in help.\n"
      "# TYPE aifabric_test_ratio gauge\n"
      "aifabric_test_ratio{k=\"inf\"} +Inf\n"
      "aifabric_test_ratio{k=\"-inf\"} -Inf\n"
      "aifabric_test_ratio{k=\"nan\"} NaN\n"
      "aifabric_test_ratio{k=\"half\"} 1.5\n"
      "aifabric_test_ratio{k=\"neg\"} -2\n"
      "aifabric_test_ratio{k=\"third\"} 0.3333333333333333\n"
      "aifabric_test_ratio{k=\"2^53\"} 9007199254740992\n"
      "aifabric_test_ratio{k=\"1e20\"} 1e+20\n"
      "aifabric_test_ratio{k=\"tiny\"} 2.5e-07\n"
      "# HELP aifabric_empty Nothing yet.\n"
      "# TYPE aifabric_empty gauge\n";
  EXPECT_EQ(RenderPrometheusText(families), expected);
  EXPECT_EQ(RenderPrometheusText({}), "");
}

// Names come from code (the catalog), so a bad one is a bug caught by an
// assert in debug builds; release builds print what they were given.
TEST(RenderPrometheusText, AssertsValidNames) {
  const std::vector<MetricFamily> bad_metric = {{"aifabric-port", "Dash.", MetricKind::kGauge, {}}};
  EXPECT_DEBUG_DEATH(RenderPrometheusText(bad_metric), "metric names come from the catalog");
  const std::vector<MetricFamily> bad_label = {{"aifabric_ok", "Ok.", MetricKind::kGauge, {{{{"0node", "a"}}, 1}}}};
  EXPECT_DEBUG_DEATH(RenderPrometheusText(bad_label), "label names come from code");
}

TEST(PrometheusSnapshotBuilder, CatalogOrderInsertionOrderAndScale) {
  PrometheusSnapshotBuilder builder;
  // Added out of catalog order: pause duration is the catalog's 14th entry, tx bytes its 1st.
  builder.Add(Metric::kPfcPauseDurationUs, {{"node", "n1"}, {"port", "2"}, {"priority", "3"}}, 2500);
  builder.Add(Metric::kTxBytes, {{"node", "n9"}, {"port", "0"}}, 300);
  builder.Add(Metric::kTxBytes, {{"node", "n1"}, {"port", "0"}}, 100);
  const std::vector<MetricFamily> families = builder.Families();
  ASSERT_EQ(families.size(), 2u);  // metrics without samples are left out
  EXPECT_EQ(families[0].name, "aifabric_port_transmit_bytes_total");
  EXPECT_EQ(families[0].help, "Bytes sent on the wire by the port, framing included.");
  EXPECT_EQ(families[0].kind, MetricKind::kCounter);
  ASSERT_EQ(families[0].samples.size(), 2u);
  EXPECT_EQ(families[0].samples[0].labels[0].second, "n9");  // insertion order, not sorted
  EXPECT_EQ(families[0].samples[0].value, 300);
  EXPECT_EQ(families[0].samples[1].value, 100);
  EXPECT_EQ(families[1].name, "aifabric_port_pfc_pause_seconds_total");
  ASSERT_EQ(families[1].samples.size(), 1u);
  EXPECT_DOUBLE_EQ(families[1].samples[0].value, 0.0025);  // 2500 µs = 0.0025 s
}

// promtool's verdict on `text`: its exit status (0 = accepted, 1 = parse
// error, 3 = lint problems, 127 = not installed) and everything it printed.
struct PromtoolVerdict {
  int exit_status = -1;
  std::string output;
};

PromtoolVerdict RunPromtoolCheckMetrics(const std::string& text) {
  std::string path = ::testing::TempDir() + "/prometheus_text_test_XXXXXX";
  const int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0) << path;
  if (fd < 0) return {};
  close(fd);
  std::ofstream(path, std::ios::binary) << text;
  PromtoolVerdict verdict;
  const std::string command = "promtool check metrics < '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (pipe == nullptr) return {};
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) verdict.output.append(buffer, n);
  const int status = pclose(pipe);
  verdict.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::remove(path.c_str());
  return verdict;
}

// The promtool tests fail (not skip) without it: the check is part of the issue.
bool PromtoolInstalled() {
  const int status = std::system("promtool --version > /dev/null 2>&1");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
constexpr const char* kInstallPromtool =
    "promtool is not installed: run scripts/setup.sh (it installs Debian's prometheus package)";

// A snapshot of every catalog metric, as a run on two switches would give it.
std::string RealisticSnapshot() {
  PrometheusSnapshotBuilder builder;
  double value = 0;
  for (const MetricInfo& info : AllMetrics()) {
    for (const char* node : {"leaf0", "spine1"}) {
      for (const char* port : {"0", "1"}) {
        if (info.scope == MetricScope::kPort) {
          builder.Add(info.metric, {{"node", node}, {"port", port}}, value += 1000.5);
          continue;
        }
        for (const char* priority : {"0", "3"}) {
          builder.Add(info.metric, {{"node", node}, {"port", port}, {"priority", priority}}, value += 7);
        }
      }
    }
  }
  std::vector<MetricFamily> families = builder.Families();
  EXPECT_EQ(families.size(), AllMetrics().size());
  families.push_back({"aifabric_sim_time_seconds", "Simulated time reached by the run.", MetricKind::kGauge,
                      {{{}, 0.000125}}});
  return RenderPrometheusText(families);
}

TEST(RenderPrometheusText, PromtoolAcceptsEveryCatalogMetricWithoutLintProblems) {
  ASSERT_TRUE(PromtoolInstalled()) << kInstallPromtool;
  const PromtoolVerdict verdict = RunPromtoolCheckMetrics(RealisticSnapshot());
  EXPECT_EQ(verdict.exit_status, 0) << verdict.output;
  EXPECT_EQ(verdict.output, "");
}

TEST(RenderPrometheusText, PromtoolRejectsBrokenExpositions) {
  ASSERT_TRUE(PromtoolInstalled()) << kInstallPromtool;
  // An unterminated label value: a parse error.
  const PromtoolVerdict broken = RunPromtoolCheckMetrics(
      "# HELP aifabric_x_total X.\n# TYPE aifabric_x_total counter\naifabric_x_total{node=\"a} 1\n");
  EXPECT_EQ(broken.exit_status, 1) << broken.output;
  EXPECT_NE(broken.output.find("parsing error"), std::string::npos) << broken.output;
  // Well formed, but a counter without _total in milliseconds: lint problems.
  const PromtoolVerdict lint = RunPromtoolCheckMetrics(
      "# HELP aifabric_pause_milliseconds X.\n# TYPE aifabric_pause_milliseconds counter\n"
      "aifabric_pause_milliseconds 1\n");
  EXPECT_EQ(lint.exit_status, 3) << lint.output;
  EXPECT_NE(lint.output.find("_total"), std::string::npos) << lint.output;
  EXPECT_NE(lint.output.find("base unit"), std::string::npos) << lint.output;
}

}  // namespace
}  // namespace aifabric
