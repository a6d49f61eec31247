#include "plan/sonic_config_db.h"

#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/plan_test_scenarios.h"

namespace aifabric {
namespace {

using nlohmann::json;
using plan_testing::Build;
using plan_testing::kRoceScenario;
using plan_testing::Load;

json ConfigOf(const Scenario& scenario, const BuiltFabric& fabric, const std::string& sw) {
  Result<std::string> text = SonicConfigDb(scenario, fabric.topology, fabric.topology.FindByName(sw));
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message);
  return text.ok() ? json::parse(*text) : json::object();
}

// Headroom of one lossless priority on a 400G port with 500 ns cable, a
// 300 ns switch and MTU 4096 (RoCEv2 frame 4096 + 82 bytes on the wire),
// worked by hand from the model in packet/switch_node.h: bytes arriving
// while the PAUSE goes out (84-byte frame: 1.68 ns at 400G), crosses the
// cable both ways (1000 ns) and the switch pipeline (300 ns), at 400 Gb/s
// = 50 bytes/ns: 1301.68 ns x 50 = 65,084; the peer's response time, 905
// quanta of 512 bits (IEEE 802.3 31B.3.7 at 400G) = 57,920; two
// maximum-size frames, 8,356. Sum: 131,360.
constexpr uint64_t kXoff400G500ns = 65'084 + 57'920 + 2 * (4096 + 82);

TEST(SonicConfigDb, EveryTableIsThere) {
  const Scenario s = Load(kRoceScenario);
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "leaf0");
  for (const char* table : {"PORT", "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP",
                            "DSCP_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP", "WRED_PROFILE", "QUEUE",
                            "SCHEDULER", "PFC_WD", "CABLE_LENGTH", "MAP_PFC_PRIORITY_TO_QUEUE", "DEVICE_METADATA"}) {
    EXPECT_TRUE(db.contains(table)) << table;
  }
  EXPECT_EQ(db["DEVICE_METADATA"]["localhost"]["hostname"], "leaf0");
}

TEST(SonicConfigDb, PortsAreNamedByLaneAndCarryTheLinkSpeed) {
  const Scenario s = Load(kRoceScenario);
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "leaf0");
  // leaf0: 2 hosts + 2 spines = 4 links -> Ethernet0, 8, 16, 24.
  std::set<std::string> names, peers;
  for (const auto& [name, port] : db["PORT"].items()) {
    names.insert(name);
    peers.insert(port["description"].get<std::string>());
    EXPECT_EQ(port["speed"], "400000");  // Mb/s
    EXPECT_EQ(port["mtu"], "9100");      // SONiC's default carries 4096 + 60 header bytes
    EXPECT_EQ(port["admin_status"], "up");
  }
  EXPECT_EQ(names, (std::set<std::string>{"Ethernet0", "Ethernet8", "Ethernet16", "Ethernet24"}));
  EXPECT_EQ(peers, (std::set<std::string>{"h0", "h1", "spine0", "spine1"}));
  // 500 ns x 1.98e8 m/s = 99 m.
  for (const auto& [name, length] : db["CABLE_LENGTH"]["AZURE"].items()) EXPECT_EQ(length, "99m") << name;
}

TEST(SonicConfigDb, LosslessProfileIsTheSimulatedHeadroom) {
  const Scenario s = Load(kRoceScenario);
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "leaf0");
  ASSERT_TRUE(db["BUFFER_PROFILE"].contains("pg_lossless_400000_99m_profile"));
  const json& pg = db["BUFFER_PROFILE"]["pg_lossless_400000_99m_profile"];
  EXPECT_EQ(pg["xoff"], std::to_string(kXoff400G500ns));
  EXPECT_EQ(pg["xon"], "0");
  EXPECT_EQ(pg["size"], std::to_string(kXoff400G500ns));  // size = xon + xoff
  EXPECT_EQ(pg["xon_offset"], std::to_string(2 * 4178));   // fabric.roce.pfc.xon_offset default
  EXPECT_EQ(pg["dynamic_th"], "0");                        // alpha 1 = 2^0
  EXPECT_EQ(pg["pool"], "ingress_lossless_pool");
  // Pools: 64 MB less 4 ports x 2 lossless priorities x the headroom.
  const uint64_t shared = 64'000'000 - 4 * 2 * kXoff400G500ns;
  EXPECT_EQ(db["BUFFER_POOL"]["ingress_lossless_pool"]["size"], std::to_string(shared));
  EXPECT_EQ(db["BUFFER_POOL"]["egress_lossy_pool"]["size"], std::to_string(shared));
  EXPECT_EQ(db["BUFFER_POOL"]["egress_lossless_pool"]["size"], "64000000");
  EXPECT_EQ(db["BUFFER_PROFILE"]["egress_lossy_profile"]["dynamic_th"], "0");  // fabric.buffer.alpha 1
  // PGs and queues: 3-4 lossless, the rest lossy, on every port.
  for (const std::string port : {"Ethernet0", "Ethernet24"}) {
    EXPECT_EQ(db["BUFFER_PG"][port + "|3-4"]["profile"], "pg_lossless_400000_99m_profile");
    EXPECT_EQ(db["BUFFER_PG"][port + "|0-2"]["profile"], "ingress_lossy_profile");
    EXPECT_EQ(db["BUFFER_PG"][port + "|5-7"]["profile"], "ingress_lossy_profile");
    EXPECT_EQ(db["BUFFER_QUEUE"][port + "|3-4"]["profile"], "egress_lossless_profile");
    EXPECT_EQ(db["BUFFER_QUEUE"][port + "|5-7"]["profile"], "egress_lossy_profile");
    EXPECT_EQ(db["PORT_QOS_MAP"][port]["pfc_enable"], "3,4");
  }
}

TEST(SonicConfigDb, QosMapsWredSchedulersAndWatchdogFollowTheScenario) {
  const Scenario s = Load(kRoceScenario);
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "spine1");
  const json& dscp = db["DSCP_TO_TC_MAP"]["AZURE"];
  EXPECT_EQ(dscp.size(), 64u);
  EXPECT_EQ(dscp["26"], "3");  // bulk
  EXPECT_EQ(dscp["10"], "4");  // storage
  EXPECT_EQ(dscp["46"], "5");  // latency
  EXPECT_EQ(dscp["48"], "6");  // CNPs (fabric.roce.cnp_priority default 6)
  EXPECT_EQ(dscp["0"], "0");   // priorities without a class keep DSCP = priority
  EXPECT_EQ(dscp["7"], "7");
  EXPECT_EQ(dscp["3"], "0");   // priority 3's DSCP is 26, so DSCP 3 is unclassified
  for (int tc = 0; tc < 8; ++tc) {
    EXPECT_EQ(db["TC_TO_QUEUE_MAP"]["AZURE"][std::to_string(tc)], std::to_string(tc));
    EXPECT_EQ(db["TC_TO_PRIORITY_GROUP_MAP"]["AZURE"][std::to_string(tc)], std::to_string(tc));
  }
  // WRED = the scenario's ECN thresholds, drop probability 0.2 = 20 %.
  const json& wred = db["WRED_PROFILE"]["AZURE_ECN"];
  EXPECT_EQ(wred["ecn"], "ecn_all");
  for (const char* color : {"green", "yellow", "red"}) {
    EXPECT_EQ(wred[std::string(color) + "_min_threshold"], "102400");
    EXPECT_EQ(wred[std::string(color) + "_max_threshold"], "409600");
    EXPECT_EQ(wred[std::string(color) + "_drop_probability"], "20");
  }
  EXPECT_EQ(db["SCHEDULER"]["scheduler.3"], (json{{"type", "DWRR"}, {"weight", "4"}}));
  EXPECT_EQ(db["SCHEDULER"]["scheduler.4"], (json{{"type", "DWRR"}, {"weight", "2"}}));
  EXPECT_EQ(db["SCHEDULER"]["scheduler.5"], (json{{"type", "STRICT"}}));
  EXPECT_EQ(db["SCHEDULER"]["scheduler.0"], (json{{"type", "DWRR"}, {"weight", "1"}}));
  EXPECT_EQ(db["QUEUE"]["Ethernet8|5"], (json{{"scheduler", "scheduler.5"}, {"wred_profile", "AZURE_ECN"}}));
  EXPECT_EQ(db["PFC_WD"]["Ethernet8"],
            (json{{"action", "forward"}, {"detection_time", "400"}, {"restoration_time", "800"}}));
  EXPECT_EQ(db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"], "200");
}

TEST(SonicConfigDb, KeysFollowSonicFormats) {
  const Scenario s = Load(kRoceScenario);
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "leaf1");
  const std::regex port(R"(Ethernet(0|[1-9][0-9]*))");
  const std::regex port_range(R"(Ethernet(0|[1-9][0-9]*)\|[0-7](-[0-7])?)");
  const std::regex port_queue(R"(Ethernet(0|[1-9][0-9]*)\|[0-7])");
  for (const char* t : {"PORT", "PORT_QOS_MAP"}) {
    for (const auto& [k, v] : db[t].items()) EXPECT_TRUE(std::regex_match(k, port)) << t << " " << k;
  }
  for (const char* t : {"BUFFER_PG", "BUFFER_QUEUE"}) {
    for (const auto& [k, v] : db[t].items()) EXPECT_TRUE(std::regex_match(k, port_range)) << t << " " << k;
  }
  for (const auto& [k, v] : db["QUEUE"].items()) EXPECT_TRUE(std::regex_match(k, port_queue)) << k;
  for (const auto& [k, v] : db["PFC_WD"].items()) EXPECT_TRUE(k == "GLOBAL" || std::regex_match(k, port)) << k;
  // SONiC writes every value as a string.
  for (const auto& [table, rows] : db.items()) {
    for (const auto& [key, fields] : rows.items()) {
      for (const auto& [field, value] : fields.items()) EXPECT_TRUE(value.is_string()) << table << " " << key << " " << field;
    }
  }
  // Profiles and maps the tables name exist.
  for (const auto& [k, v] : db["BUFFER_PG"].items()) EXPECT_TRUE(db["BUFFER_PROFILE"].contains(v["profile"])) << k;
  for (const auto& [k, v] : db["QUEUE"].items()) {
    EXPECT_TRUE(db["SCHEDULER"].contains(v["scheduler"])) << k;
    if (v.contains("wred_profile")) {
      EXPECT_TRUE(db["WRED_PROFILE"].contains(v["wred_profile"])) << k;
    }
  }
}

TEST(SonicConfigDb, RateScaledEcnAndNoPfc) {
  // ECN thresholds left out scale with the rate (2,000 / 8,000 bytes per
  // Gbps: 800,000 / 3,200,000 at 400G); without PFC nothing is lossless.
  const Scenario s = Load(kRoceScenario, {"fabric.roce.ecn={pmax: 0.05}", "fabric.roce.pfc=false"});
  const BuiltFabric f = Build(s);
  const json db = ConfigOf(s, f, "leaf0");
  const json& wred = db["WRED_PROFILE"]["AZURE_ECN_400000"];
  EXPECT_EQ(wred["green_min_threshold"], "800000");
  EXPECT_EQ(wred["green_max_threshold"], "3200000");
  EXPECT_EQ(wred["green_drop_probability"], "5");
  EXPECT_EQ(db["BUFFER_PG"]["Ethernet0|0-7"]["profile"], "ingress_lossy_profile");
  EXPECT_FALSE(db["PORT_QOS_MAP"]["Ethernet0"].contains("pfc_enable"));
  EXPECT_FALSE(db.contains("PFC_WD"));
  EXPECT_EQ(db["BUFFER_POOL"]["ingress_lossless_pool"]["size"], "64000000");  // no headroom reserved
}

TEST(SonicConfigDb, ValuesSonicCannotExpressAreErrorsNamingTheField) {
  struct Case {
    const char* set;
    const char* field;
  };
  for (const Case& c : {Case{"fabric.roce.ecn.pmax=0.005", "fabric.roce.ecn.pmax"},
                        Case{"fabric.roce.pfc.watchdog.detection=50ms", "fabric.roce.pfc.watchdog.detection"},
                        Case{"fabric.buffer.alpha=0.3", "fabric.buffer.alpha"},
                        Case{"fabric.qos.classes.0.weight=200", "fabric.qos"}}) {
    const Scenario s = Load(kRoceScenario, {c.set});
    const BuiltFabric f = Build(s);
    Result<std::string> db = SonicConfigDb(s, f.topology, f.topology.FindByName("leaf0"));
    ASSERT_FALSE(db.ok()) << c.set;
    EXPECT_NE(db.error().message.find(c.field), std::string::npos) << db.error().message;
  }
}

}  // namespace
}  // namespace aifabric
