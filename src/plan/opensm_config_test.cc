#include "plan/opensm_config.h"

#include <chrono>
#include <regex>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"
#include "fabric/ib_tools_test_support.h"
#include "plan/plan_test_scenarios.h"
#include "plan/switch_config.h"

namespace aifabric {
namespace {

using plan_testing::Build;
using plan_testing::kIbScenario;
using plan_testing::Load;

// The value of `option` in an opensm.conf text ("" if absent).
std::string Option(const std::string& conf, const std::string& option) {
  std::istringstream in(conf);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(option + " ", 0) == 0) return line.substr(option.size() + 1);
  }
  return "";
}

TEST(OpenSmConfig, OptionsAreTheScenariosRoutingAndQos) {
  Result<OpenSmFiles> files = OpenSmConfig(Load(kIbScenario));
  ASSERT_TRUE(files.ok()) << files.error().message;
  const std::string& c = files->opensm_conf;
  EXPECT_EQ(Option(c, "routing_engine"), "ftree");
  EXPECT_EQ(Option(c, "qos"), "TRUE");
  EXPECT_EQ(Option(c, "qos_max_vls"), "8");
  EXPECT_EQ(Option(c, "qos_high_limit"), "10");
  EXPECT_EQ(Option(c, "qos_vlarb_high"), "0:8,5:16");
  // VLs neither table lists keep OpenSM's default low-table weight 4 in the
  // simulation (ib_section.cc), so they are in the low table too.
  EXPECT_EQ(Option(c, "qos_vlarb_low"), "1:4,2:32,3:4,4:4,6:4,7:4");
  EXPECT_EQ(Option(c, "qos_sl2vl"), "0,1,2,3,4,5,6,1,0,1,2,3,4,5,6,1");
  EXPECT_EQ(Option(c, "partition_config_file"), "/etc/opensm/partitions.conf");
  EXPECT_NE(files->partitions_conf.find("Default=0x7fff, ipoib : ALL=full ;"), std::string::npos);
  EXPECT_NE(files->readme.find("opensm -F"), std::string::npos);
}

TEST(OpenSmConfig, DefaultsAreOpenSmsOwn) {
  // No fabric.ib: minhop, VL0 high (weight 4), VLs 1-7 low (weight 4),
  // LimitOfHighPriority 0, SL2VL the identity (ib_section.cc, REFERENCES.md 5).
  Result<OpenSmFiles> files = OpenSmConfig(Load(kIbScenario, {"fabric.ib={}"}));
  ASSERT_TRUE(files.ok()) << files.error().message;
  EXPECT_EQ(Option(files->opensm_conf, "routing_engine"), "minhop");
  EXPECT_EQ(Option(files->opensm_conf, "qos_vlarb_high"), "0:4");
  EXPECT_EQ(Option(files->opensm_conf, "qos_vlarb_low"), "1:4,2:4,3:4,4:4,5:4,6:4,7:4");
  EXPECT_EQ(Option(files->opensm_conf, "qos_high_limit"), "0");
  EXPECT_EQ(Option(files->opensm_conf, "qos_sl2vl"), "0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7");
}

// The numbers between '|' on the first line of `text` that starts with `prefix`.
std::vector<int> Row(const std::string& text, const std::string& prefix, size_t skip = 0) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    if (skip-- > 0) continue;
    std::vector<int> values;
    const std::string cells = line.substr(line.find('|'));
    std::regex number(R"(\|\s*(0x[0-9a-fA-F]+|[0-9]+)\s*)");
    for (auto it = std::sregex_iterator(cells.begin(), cells.end(), number); it != std::sregex_iterator(); ++it) {
      values.push_back(static_cast<int>(std::stoul((*it)[1].str(), nullptr, 0)));
    }
    return values;
  }
  return {};
}

// The real OpenSM on the simulated fabric (ibsim), started from the
// written opensm.conf: it must accept it, route with the engine it names
// and program the SL-to-VL and VL arbitration tables it gives, read back
// from a switch port with smpquery.
TEST(OpenSmConfig, RealOpenSmLoadsItAndProgramsTheTables) {
  const Scenario s = Load(kIbScenario);
  const BuiltFabric f = Build(s);
  ib_testing::SimulatedFabric fabric;
  if (std::string why = fabric.Start(f.topology); !why.empty()) GTEST_SKIP() << why;
  if (ib_testing::FindTool("smpquery").empty()) GTEST_SKIP() << "smpquery is not installed (Debian: infiniband-diags)";
  const std::string dir = fabric.dir() + "/config";
  ASSERT_TRUE(WriteSwitchConfig(s, f, dir).ok());
  const std::string osm = dir + "/opensm";
  const std::string log = fabric.dir() + "/opensm-config.log";
  // One sweep (-o) from the written files, the LFT dump into dump/ as the
  // existing tests take it (-D 0x43 = ERROR | INFO | ROUTING).
  const ib_testing::ToolRun run =
      fabric.Tool("opensm", {"-o", "-F", osm + "/opensm.conf", "-P", osm + "/partitions.conf", "-D", "0x43", "-f", log,
                             "--dump_files_dir", fabric.dir() + "/dump"},
                  std::chrono::seconds(60));
  ASSERT_EQ(run.status, 0) << run.out << ib_testing::Slurp(log);
  const std::string opensm_log = ib_testing::Slurp(log);
  EXPECT_NE(opensm_log.find("ftree tables configured on all switches"), std::string::npos) << opensm_log;
  EXPECT_NE(opensm_log.find("SUBNET UP"), std::string::npos) << opensm_log;

  // leaf0 by direct route from h0 (its port 1); read its port 3 (to spine0).
  const ib_testing::ToolRun sl2vl = fabric.Tool("smpquery", {"-D", "sl2vl", "0,1", "3"}, std::chrono::seconds(20));
  ASSERT_EQ(sl2vl.status, 0) << sl2vl.out;
  // fabric.ib.sl2vl for SL 0..7, repeated for SL 8..15.
  const std::vector<int> expected_sl2vl = {0, 1, 2, 3, 4, 5, 6, 1, 0, 1, 2, 3, 4, 5, 6, 1};
  EXPECT_EQ(Row(sl2vl.out, "ports: in  1, out  3"), expected_sl2vl) << sl2vl.out;

  const ib_testing::ToolRun vlarb = fabric.Tool("smpquery", {"-D", "vlarb", "0,1", "3"}, std::chrono::seconds(20));
  ASSERT_EQ(vlarb.status, 0) << vlarb.out;
  // Low table first, then high; unused entries are VL 0 weight 0.
  const std::vector<int> low_vl = Row(vlarb.out, "VL    :", 0), low_w = Row(vlarb.out, "WEIGHT:", 0);
  const std::vector<int> high_vl = Row(vlarb.out, "VL    :", 1), high_w = Row(vlarb.out, "WEIGHT:", 1);
  ASSERT_GE(low_vl.size(), 6u) << vlarb.out;
  ASSERT_GE(high_vl.size(), 2u) << vlarb.out;
  // The low table: VLs 1 and 2 as given, the unlisted 3, 4, 6, 7 at 4.
  std::vector<int> low;
  for (size_t i = 0; i < 6; ++i) low.insert(low.end(), {low_vl[i], low_w[i]});
  EXPECT_EQ(low, (std::vector<int>{1, 4, 2, 32, 3, 4, 4, 4, 6, 4, 7, 4})) << vlarb.out;
  EXPECT_EQ((std::vector<int>{high_vl[0], high_w[0], high_vl[1], high_w[1]}), (std::vector<int>{0, 8, 5, 16}))
      << vlarb.out;
}

// With routing: minhop, what OpenSM programmed is the min-hop engine's
// tables entry by entry (ComputeMinHop equals OpenSM 3.3.23's, docs/infiniband.md).
TEST(OpenSmConfig, RealOpenSmRoutesWithTheEngineTheConfigNames) {
  const Scenario s = Load(kIbScenario, {"fabric.ib.routing=minhop"});
  const BuiltFabric f = Build(s);
  ib_testing::SimulatedFabric fabric;
  if (std::string why = fabric.Start(f.topology); !why.empty()) GTEST_SKIP() << why;
  const std::string dir = fabric.dir() + "/config";
  ASSERT_TRUE(WriteSwitchConfig(s, f, dir).ok());
  const std::string osm = dir + "/opensm";
  const std::string dump = fabric.dir() + "/dump-minhop-config";
  std::filesystem::create_directories(dump);
  const ib_testing::ToolRun run =
      fabric.Tool("opensm", {"-o", "-F", osm + "/opensm.conf", "-P", osm + "/partitions.conf", "-D", "0x43", "-f",
                             fabric.dir() + "/opensm-minhop.log", "--dump_files_dir", dump},
                  std::chrono::seconds(60));
  ASSERT_EQ(run.status, 0) << run.out;
  const std::string text = ib_testing::Slurp(dump + "/opensm-lfts.dump");
  const IbLidMap map = IbLidMap::ForTopology(f.topology);
  Result<ForwardingTables> programmed = ReadOpensmLftDump(text, "opensm-lfts.dump", map, f.topology);
  ASSERT_TRUE(programmed.ok()) << programmed.error().message;
  ASSERT_NE(text.find("Unicast lids"), std::string::npos) << text;
  const ForwardingTables engine = ComputeMinHop(f.topology);
  for (NodeId sw : f.topology.switches()) {
    for (NodeId h : f.topology.hosts()) {
      EXPECT_EQ(programmed->Get(sw, h), engine.Get(sw, h)) << f.topology.node(sw).name << " -> " << f.topology.node(h).name;
    }
  }
}

}  // namespace
}  // namespace aifabric
