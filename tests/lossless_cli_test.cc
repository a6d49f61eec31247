// Lossless means lossless, and traps are named: a PFC switch whose buffer
// cannot hold its headroom and thresholds is refused with the sum worked
// out; from the smallest buffer accepted up, a 16-to-1 incast neither drops
// nor stalls; traps are warned on stderr and in summary.json; a mistyped
// command or option gets the nearest one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "cli_harness.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

// 6336240 -> "6,336,240", as the message writes bytes.
std::string Grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// One 17-port switch (HPCC topology file: node 17) with a 400G, 1 us cable
// to each of 17 hosts; 16 hosts each send 1 MB (10^6 B) to host 0 at t = 0
// on priority 3. PFC alone (no DCQCN), so what the run shows is PFC's.
struct Incast {
  explicit Incast(const std::string& buffer) {
    std::string topo = "18 1 17\n17\n";
    for (int i = 0; i < 17; ++i) topo += std::to_string(i) + " 17 400Gbps 0.001ms 0\n";
    dir.Write("topo17.txt", topo);
    scenario = dir.Write("incast.yaml",
                         "name: incast17\nseed: 1\nfabric:\n  kind: roce\n"
                         "  topology: {format: hpcc, file: topo17.txt}\n"
                         "  switch: {name: leaf17, radix: 17, port_rate: 400Gbps, latency: 400ns, buffer: " +
                             buffer + "}\n  mtu: 4KiB\n  roce: {cc: none}\n"
                             "workload:\n  - incast: {senders: 16, receiver: 0, size: 1MB}\n");
  }
  CommandResult Run() const {
    return RunAifabric("run " + scenario + " --no-telemetry -q --out " + dir.path() + "/out");
  }
  nlohmann::json Summary() const { return nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json")); }
  TempDir dir;
  std::string scenario;
};

// The headroom one 400G port reserves per lossless priority
// (packet/pfc_headroom.h), by hand: after PAUSE, bytes keep arriving for
// the PAUSE frame (84 B x 8 / 400 Gb/s = 1.68 ns), the cable both ways
// (2 x 1 us) and the switch pipeline (400 ns): 2401.68 ns at 50 B/ns =
// 120,084 B; the peer's response, 905 quanta x 512 bit / 8 = 57,920 B; and
// two frames of 4096 + 82 B = 8,356 B.
constexpr uint64_t kPortHeadroom = 120084 + 57920 + 2 * (4096 + 82);  // 186,360
constexpr uint64_t kHeadroom = 17 * 2 * kPortHeadroom;                // 6,336,240
// The shared pool the XOFF/XON thresholds need, alpha = 1: (1 + 1) x
// 186,360 + xon_offset 8,356.
constexpr uint64_t kPool = 2 * kPortHeadroom + 2 * (4096 + 82);  // 381,076
constexpr uint64_t kNeeded = kHeadroom + kPool;                  // 6,717,316

TEST(Lossless, AnIncastOnA4MiBSwitchIsRefusedWithTheSumWorkedOut) {
  static_assert(kPortHeadroom == 186360 && kHeadroom == 6336240 && kNeeded == 6717316);
  Incast incast("4MiB");
  const CommandResult r = incast.Run();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("incast.yaml: fabric.roce.pfc: the lossless configuration does not fit"));
  EXPECT_THAT(r.err, HasSubstr("switch sw17 (leaf17): 17 ports x 2 lossless priorities x " + Grouped(kPortHeadroom) +
                               " B headroom = " + Grouped(kHeadroom) + " B + " + Grouped(kPool) + " B of shared pool"));
  EXPECT_THAT(r.err, HasSubstr("needs " + Grouped(kNeeded) + " B of buffer; fabric.switch buffer is " +
                               Grouped(4u << 20) + " B"));
  EXPECT_FALSE(Exists(incast.dir.path() + "/out"));
  // One byte short is refused too; the sum itself is accepted.
  EXPECT_EQ(Incast(std::to_string(kNeeded - 1) + "B").Run().exit_code, 2);
}

TEST(Lossless, FromTheSmallestBufferAcceptedUpTheIncastNeitherDropsNorStalls) {
  // Ideal: host 0's link carries 16 x 1 MB as 244 frames of 4,096 B + one
  // of 576 B each, 16 x (244 x 4,178 + 658) = 16,321,440 B on the wire at
  // 50 B/ns = 326,428.8 ns, after the first frame's 83.56 ns at its
  // sender, 1 us of cable and 400 ns of switch, and + 1 us of cable to
  // host 0: 328,912.36 ns. (A stalled PFC waits for the 200 ms watchdog.)
  const double ideal_ns = 83.56 + 1000 + 400 + 16.0 * (244 * 4178 + 658) / 50 + 1000;
  for (uint64_t buffer : {kNeeded, kNeeded + 100'000, uint64_t{7'059'034}, uint64_t{8} << 20, uint64_t{16} << 20}) {
    SCOPED_TRACE(buffer);
    Incast incast(std::to_string(buffer) + "B");
    const CommandResult r = incast.Run();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json s = incast.Summary();
    EXPECT_EQ(s["flows"]["completed"], 16);
    EXPECT_EQ(s["drops"], 0);
    EXPECT_EQ(s["pfc_storms"], 0);
    EXPECT_GE(s["sim_time_ns"].get<double>(), ideal_ns - 0.01);
    EXPECT_LE(s["sim_time_ns"].get<double>(), ideal_ns * 1.01);
  }
}

TEST(Traps, AWarningOnStderrAndInSummaryJson) {
  // Spraying with go-back-N (the default recovery) on a small RoCE fabric.
  TempDir dir;
  const std::string scenario = dir.Write(
      "spray.yaml",
      "name: spray\ncluster: {servers: 4, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
      "fabric:\n  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}\n  switch: 32x100G\n"
      "  load_balancing: spray\nworkload:\n  - permutation: {size: 64KiB}\n");
  const CommandResult r = RunAifabric("run " + scenario + " --no-telemetry -q --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("aifabric: warning: fabric.transport.recovery: go-back-N with load_balancing spray"));
  const nlohmann::json s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["warnings"].size(), 1u);
  EXPECT_EQ(s["warnings"][0]["trap"], "reordering_with_go_back_n");
  EXPECT_EQ(s["warnings"][0]["field"], "fabric.transport.recovery");
  // simulation.until before the ideal end: each host sends 64 KiB at 100G,
  // 65,536 x 8 / 100e9 s = 5.2 us at least; a run cut at 2 us is warned
  // about.
  const CommandResult cut = RunAifabric("run " + scenario + " --no-telemetry -q --out " + dir.path() +
                                        "/cut --set fabric.load_balancing=ecmp --set simulation.until=2us");
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_THAT(cut.err, HasSubstr("aifabric: warning: simulation.until: 2.0 us ends before the workload can"));
  const nlohmann::json c = nlohmann::json::parse(ReadFile(dir.path() + "/cut/summary.json"));
  ASSERT_EQ(c["warnings"].size(), 1u);
  EXPECT_EQ(c["warnings"][0]["trap"], "until_before_ideal");
  // None: an empty list.
  const CommandResult plain =
      RunAifabric("run " + scenario + " --no-telemetry -q --out " + dir.path() + "/plain --set fabric.load_balancing=ecmp");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  EXPECT_EQ(nlohmann::json::parse(ReadFile(dir.path() + "/plain/summary.json"))["warnings"], nlohmann::json::array());
}

TEST(Cli, AMistypedCommandOrOptionGetsTheNearestOne) {
  const CommandResult command = RunAifabric("rnu x.yaml");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_THAT(command.err, HasSubstr("unknown command 'rnu'; did you mean 'run'?"));
  const CommandResult validate = RunAifabric("valdiate x.yaml");
  EXPECT_EQ(validate.exit_code, 2);
  EXPECT_THAT(validate.err, HasSubstr("did you mean 'validate'?"));
  const CommandResult far = RunAifabric("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("unknown command 'frobnicate' (see aifabric --help)"));
  const CommandResult option = RunAifabric("run examples/quickstart.yaml --modle packet");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_THAT(option.err, HasSubstr("unknown option '--modle'; did you mean '--model'?"));
  const CommandResult with_value = RunAifabric("collective --minbyte=1M");
  EXPECT_EQ(with_value.exit_code, 2);
  EXPECT_THAT(with_value.err, HasSubstr("unknown option '--minbyte'; did you mean '--minbytes'?"));
}

}  // namespace
}  // namespace aifabric::testing
