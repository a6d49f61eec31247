#include "observe/observe_outputs.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "diagnosis/diagnosis.h"
#include "observe/observe_test_fabric.h"

namespace aifabric {
namespace {

using observe_testing::SwitchDown;

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// sw -> h1 at 9.5e9 B x 8 / (1e11 x 0.8 s) = 0.95: saturated (>= 0.9),
// the only finding, severity 0.5 x 0.95 = 0.475.
TEST(ObserveOutputs, APassWritesARunsDiagnosisAndWhatWasRead) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FabricReading reading;
  reading.windows.resize(t.ports().size());
  reading.windows[SwitchDown(1)] = PortWindow{.seen = true, .tx_bytes = 9.5e9, .seconds = 0.8};
  reading.observation = ObservationFromWindows(t, reading.windows);
  reading.series = 1;
  reading.queries = {"m[30s]"};
  reading.unread = {"transfers"};
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "aifabric_observe_outputs_test";
  std::filesystem::remove_all(dir);
  const ObservePass pass{2, "http://p:9090", &InfinibandExporter(), Time::FromSeconds(30)};
  Result<std::vector<Finding>> findings = WriteObservePass(dir.string(), t, reading, pass);
  ASSERT_TRUE(findings.ok()) << findings.error().message;
  ASSERT_EQ(findings->size(), 1u);
  EXPECT_EQ((*findings)[0].kind, kSaturatedLink);
  EXPECT_NEAR((*findings)[0].severity, 0.475, 1e-12);

  const auto diagnosis = nlohmann::ordered_json::parse(Read(dir / "diagnosis.json"));
  EXPECT_EQ(diagnosis, FindingsJson(t, *findings));  // the schema of a run's
  const auto observation = nlohmann::json::parse(Read(dir / "observation.json"));
  EXPECT_EQ(observation["pass"], 2);
  EXPECT_EQ(observation["exporter"], "infiniband_exporter");
  EXPECT_EQ(observation["clock"], "wall");
  EXPECT_EQ(observation["window_s"], 30);
  ASSERT_EQ(observation["ports"].size(), 1u);  // only the port a series named
  EXPECT_EQ(observation["ports"][0]["node"], "sw");
  EXPECT_EQ(observation["ports"][0]["port_peer"], "h1");
  EXPECT_EQ(observation["ports"][0]["utilization"], 0.95);
  EXPECT_EQ(observation["top_finding"]["kind"], "saturated_link");
  EXPECT_FALSE(std::filesystem::exists(dir / "diagnosis.json.tmp"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace aifabric
