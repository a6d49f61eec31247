#include "telemetry/prometheus_text.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "telemetry/telemetry_test_util.h"

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

// The families of SmallSnapshotByHand, written through the streaming writer.
TEST(PrometheusTextWriter, WritesWhatRenderPrometheusTextReturns) {
  const std::vector<MetricFamily> families = {
      {"aifabric_test_bytes_total", "Bytes \\ sent.\nSecond line.", MetricKind::kCounter,
       {{{{"node", "leaf\"0\\x\ny"}, {"port", "1"}}, 12345}, {{{"node", "a"}}, 0.1}, {{}, 0}}},
      {"aifabric_empty", "Nothing yet.", MetricKind::kGauge, {}},
      {"aifabric_test_ratio", "Ratio.", MetricKind::kGauge, {{{{"k", "nan"}}, std::nan("")}, {{{"k", "i"}}, -kInf}}},
  };
  const auto write = [](TextSink& out) {
    PrometheusTextWriter writer(out);
    writer.Family("aifabric_test_bytes_total", "Bytes \\ sent.\nSecond line.", MetricKind::kCounter);
    const PrometheusLabel first[] = {{"node", "leaf\"0\\x\ny"}, {"port", "1"}};
    writer.Sample(first, 12345);
    const PrometheusLabel second[] = {{"node", "a"}};
    writer.Sample(second, 0.1);
    writer.Sample({}, 0);
    writer.Family("aifabric_empty", "Nothing yet.", MetricKind::kGauge);
    writer.Family("aifabric_test_ratio", "Ratio.", MetricKind::kGauge);
    const PrometheusLabel nan[] = {{"k", "nan"}};
    writer.Sample(nan, std::nan(""));
    const PrometheusLabel inf[] = {{"k", "i"}};
    writer.Sample(inf, -kInf);
  };
  const std::string expected = RenderPrometheusText(families);
  StringSink in_memory;
  write(in_memory);
  EXPECT_EQ(in_memory.Take(), expected);
  // A 16-byte buffer drains many times within a line.
  EXPECT_EQ(telemetry_testing::ThroughFile(write, 16), expected);
}

// A catalog metric's first sample begins its family; one without samples
// prints nothing; values are scaled as the catalog says.
TEST(PrometheusTextWriter, CatalogSamplesBeginTheirFamily) {
  StringSink out;
  PrometheusTextWriter writer(out);
  const PrometheusLabel a[] = {{"node", "n1"}, {"port", "h2"}};
  const PrometheusLabel b[] = {{"node", "n1"}, {"port", "h3"}, {"priority", "3"}};
  writer.Sample(Metric::kTxBytes, a, 300);
  writer.Sample(Metric::kTxBytes, a, 100);
  writer.Sample(Metric::kPfcPauseDurationUs, b, 2500);  // 2500 µs = 0.0025 s
  writer.Family("aifabric_sim_time_seconds", "Simulated time.", MetricKind::kGauge);
  writer.Sample({}, 0.5);
  EXPECT_EQ(out.Take(),
            "# HELP aifabric_port_transmit_bytes_total Bytes sent on the wire by the port, framing included.\n"
            "# TYPE aifabric_port_transmit_bytes_total counter\n"
            "aifabric_port_transmit_bytes_total{node=\"n1\",port=\"h2\"} 300\n"
            "aifabric_port_transmit_bytes_total{node=\"n1\",port=\"h2\"} 100\n"
            "# HELP aifabric_port_pfc_pause_seconds_total " + std::string(Info(Metric::kPfcPauseDurationUs).help) + "\n"
            "# TYPE aifabric_port_pfc_pause_seconds_total counter\n"
            "aifabric_port_pfc_pause_seconds_total{node=\"n1\",port=\"h3\",priority=\"3\"} 0.0025\n"
            "# HELP aifabric_sim_time_seconds Simulated time.\n"
            "# TYPE aifabric_sim_time_seconds gauge\n"
            "aifabric_sim_time_seconds 0.5\n");
}

TEST(PrometheusTextWriter, AssertsAMetricsSamplesComeTogether) {
  const auto split = [] {
    StringSink out;
    PrometheusTextWriter writer(out);
    writer.Sample(Metric::kTxBytes, {}, 1);
    writer.Sample(Metric::kRxBytes, {}, 1);
    writer.Sample(Metric::kTxBytes, {}, 2);  // its family again
  };
  EXPECT_DEBUG_DEATH(split(), "a metric's samples come one after another");
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

// The same snapshot written sample by sample, in catalog order: the
// builder's families, byte for byte.
TEST(PrometheusTextWriter, CatalogOrderGivesTheBuildersBytes) {
  StringSink out;
  PrometheusTextWriter writer(out);
  double value = 0;
  for (const MetricInfo& info : AllMetrics()) {
    for (const char* node : {"leaf0", "spine1"}) {
      for (const char* port : {"0", "1"}) {
        if (info.scope == MetricScope::kPort) {
          const PrometheusLabel labels[] = {{"node", node}, {"port", port}};
          writer.Sample(info.metric, labels, value += 1000.5);
          continue;
        }
        for (const char* priority : {"0", "3"}) {
          const PrometheusLabel labels[] = {{"node", node}, {"port", port}, {"priority", priority}};
          writer.Sample(info.metric, labels, value += 7);
        }
      }
    }
  }
  writer.Family("aifabric_sim_time_seconds", "Simulated time reached by the run.", MetricKind::kGauge);
  writer.Sample({}, 0.000125);
  EXPECT_EQ(out.Take(), RealisticSnapshot());
}

// `prefix` then `n` ("leaf12"); appended, not "leaf" + string (GCC 12 -Wrestrict).
std::string Numbered(const char* prefix, int n) {
  std::string name = prefix;
  name += std::to_string(n);
  return name;
}

// 60,000 samples (about 5 MB): the file crosses the 1 MiB buffer four
// times and holds what the data form renders.
TEST(PrometheusTextWriter, ALargeExpositionThroughAFileEqualsTheString) {
  constexpr int kPorts = 30000;
  PrometheusSnapshotBuilder builder;
  for (int p = 0; p < kPorts; ++p) {
    builder.Add(Metric::kTxBytes, {{"node", Numbered("leaf", p / 64)}, {"port", Numbered("h", p)}}, 1e6 * p + 0.25);
  }
  for (int p = 0; p < kPorts; ++p) {
    builder.Add(Metric::kPfcPauseDurationUs,
                {{"node", Numbered("leaf", p / 64)}, {"port", Numbered("h", p)}, {"priority", "3"}}, p);
  }
  const std::string expected = RenderPrometheusText(builder.Families());
  const std::string streamed = telemetry_testing::ThroughFile([](TextSink& out) {
    PrometheusTextWriter writer(out);
    for (Metric metric : {Metric::kTxBytes, Metric::kPfcPauseDurationUs}) {
      for (int p = 0; p < kPorts; ++p) {
        const std::string node = Numbered("leaf", p / 64);
        const std::string port = Numbered("h", p);
        const PrometheusLabel labels[] = {{"node", node}, {"port", port}, {"priority", "3"}};
        const bool per_queue = metric == Metric::kPfcPauseDurationUs;
        writer.Sample(metric, std::span(labels, per_queue ? 3 : 2), per_queue ? p : 1e6 * p + 0.25);
      }
    }
  });
  EXPECT_GT(expected.size(), 4u * FileSink::kDefaultBufferBytes);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'), 2 * 2 + 2 * kPorts);
  EXPECT_TRUE(streamed == expected) << streamed.size() << " bytes streamed, " << expected.size() << " rendered";
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
