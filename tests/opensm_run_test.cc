// End to end with the real InfiniBand tools (Debian packages ibsim-utils,
// opensm, infiniband-diags), the way a user does it (docs/infiniband.md):
// `aifabric validate SCENARIO --ibsim fabric.net` exports a two-level
// fat-tree, ibsim simulates it, the real OpenSM routes it (minhop) and dumps
// its forwarding tables, and `aifabric run` with
// `fabric.ib.routing: {format: opensm, file: opensm-lfts.dump}` simulates the
// workload over exactly those routes. Broken tables are bad input (exit 2).
// Skips, saying why, when the tools are missing or ibsim cannot start. Every
// process has a hard timeout and is killed at the end, even on failure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "cli_harness.h"
#include "fabric/fabric_test_util.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"
#include "fabric/ib_tools_test_support.h"
#include "fabric/ibsim_netfile_writer.h"
#include "fabric/topology_builder.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;
using fabric_testing::LeafSpine4x4;

// 16 single-NIC servers, 4 per leaf, 4 spines with one link to each leaf,
// all 100G (4xEDR): hosts h0..h15, leaf0..3, spine0..3. A permutation and
// an all-to-all: 16 + 240 flows over every leaf-spine path.
const char* kScenario =
    "name: opensm_run\n"
    "seed: 3\n"
    "cluster: {servers: 16, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
    "fabric:\n"
    "  kind: ib\n"
    "  topology: {type: leaf_spine, hosts_per_leaf: 4, spines: 4}\n"
    "  switch: 32x100G\n"
    "  link: {latency: 500ns}\n"
    "workload:\n"
    "  - permutation: {size: 1MiB}\n"
    "  - all_to_all: {size: 64KiB}\n";
constexpr int kFlows = 16 + 16 * 15;


// `aifabric <args>` with a one-minute hard timeout; stdout and stderr
// together in `out`.
ib_testing::ToolRun Aifabric(const TempDir& dir, const std::vector<std::string>& args) {
  static int runs = 0;
  std::vector<std::string> argv = {AIFABRIC_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return ib_testing::RunWithTimeout(argv, dir.path(), dir.path() + "/aifabric-" + std::to_string(runs++) + ".out",
                                    std::chrono::seconds(60));
}

// The dump with the output port of switch `sw`'s entry for host `host`
// replaced by `port` ("" deletes the entry). Lines read
//   Unicast lids [0-24] of switch Lid 2 guid 0xa1fa000000001000 ('leaf0'):
//   0x0001 001 # Channel Adapter portguid 0xa1fa000000000001: 'h0'
std::string EditDump(const std::string& dump, const std::string& sw, const std::string& host, const std::string& port) {
  const size_t table = dump.find("('" + sw + "'):");
  EXPECT_NE(table, std::string::npos) << sw;
  if (table == std::string::npos) return dump;
  const size_t next_table = dump.find("Unicast lids", table);
  const size_t entry = dump.find(": '" + host + "'\n", table);
  EXPECT_LT(entry, next_table) << sw << " has no entry for " << host;
  if (entry >= next_table) return dump;
  const size_t begin = dump.rfind('\n', entry) + 1;
  const size_t end = dump.find('\n', entry) + 1;
  std::string line = dump.substr(begin, end - begin);
  if (port.empty()) {
    line.clear();
  } else {
    const size_t from = line.find(' ') + 1;  // "0x0001 001 # ...": the second field
    line.replace(from, line.find(' ', from) - from, port);
  }
  return dump.substr(0, begin) + line + dump.substr(end);
}

nlohmann::json Summary(const std::string& out_dir) {
  nlohmann::json j = nlohmann::json::parse(ReadFile(out_dir + "/summary.json"));
  // The only figures that measure the machine rather than the simulation.
  j.erase("wall_s");
  j.erase("events_per_s");
  return j;
}

TEST(OpenSmRun, OpenSmRoutesFromTheExportedFabricDriveARun) {
  TempDir dir;
  const std::string scenario = dir.Write("scenario.yaml", kScenario);
  const std::string net = dir.path() + "/fabric.net";

  // 1. Export: validate writes the scenario's fabric as an ibsim net file,
  // the same text the library writes for the same fabric.
  ib_testing::ToolRun validate = Aifabric(dir, {"validate", scenario, "--ibsim", net});
  ASSERT_EQ(validate.status, 0) << validate.out;
  EXPECT_THAT(validate.out, HasSubstr("16 hosts, 8 switches, 32 links"));
  const Topology topology = LeafSpine4x4();
  ASSERT_EQ(ReadFile(net), WriteIbsimNetFile(topology));

  // 2. The real OpenSM routes it (minhop, its default engine).
  ib_testing::SimulatedFabric fabric;
  if (const std::string why = fabric.StartNetFile(net, ""); !why.empty()) GTEST_SKIP() << "real IB tools: " << why;
  Result<std::string> dump_text = fabric.RunOpenSm("minhop");
  ASSERT_TRUE(dump_text.ok()) << dump_text.error().message;
  const std::string dump = dir.Write("opensm-lfts.dump", *dump_text);

  // Independently of any run: OpenSM's tables equal aifabric's min-hop
  // entry by entry, so a run on either must take the same paths.
  Result<ForwardingTables> osm = ReadOpensmLftDump(*dump_text, dump, IbLidMap::ForTopology(topology), topology);
  ASSERT_TRUE(osm.ok()) << osm.error().message;
  const ForwardingTables minhop = ComputeMinHop(topology);
  for (NodeId sw : topology.switches()) {
    for (NodeId h : topology.hosts()) {
      ASSERT_NE(osm->Get(sw, h), kNoPort) << topology.node(sw).name << " -> " << topology.node(h).name;
      EXPECT_EQ(osm->Get(sw, h), minhop.Get(sw, h)) << topology.node(sw).name << " -> " << topology.node(h).name;
    }
  }

  // 3. Import: the run on OpenSM's tables completes every flow ...
  const std::string with_osm = dir.path() + "/osm";
  ib_testing::ToolRun run = Aifabric(dir, {"run", scenario, "--quiet", "--out", with_osm, "--set",
                                           "fabric.ib.routing={format: opensm, file: " + dump + "}"});
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json s = Summary(with_osm);
  EXPECT_EQ(s["flows"]["count"], kFlows);
  EXPECT_EQ(s["flows"]["completed"], kFlows);
  EXPECT_EQ(s["bytes"]["delivered"], s["bytes"]["sent"]);

  // ... and is the run on aifabric's own min-hop routes, byte for byte.
  const std::string with_minhop = dir.path() + "/minhop";
  run = Aifabric(dir, {"run", scenario, "--quiet", "--out", with_minhop, "--set", "fabric.ib.routing=minhop"});
  ASSERT_EQ(run.status, 0) << run.out;
  for (const char* f : {"flows.csv", "links.csv", "fct.txt"}) {
    EXPECT_EQ(ReadFile(with_osm + "/" + f), ReadFile(with_minhop + "/" + f)) << f;
  }
  EXPECT_EQ(Summary(with_osm), Summary(with_minhop));

  // The run follows the file: one entry moved to another up-port (still a
  // shortest path) moves leaf0's traffic to h4 onto another spine. (OpenSM's
  // ftree and aifabric's ftree give this fabric the same routes as minhop.)
  const PortId up = osm->Get(topology.FindByName("leaf0"), topology.FindByName("h4"));
  const std::string other_up = IbLidMap::ForTopology(topology).IbPort(up) == 5 ? "006" : "005";
  const std::string moved = dir.Write("moved.dump", EditDump(*dump_text, "leaf0", "h4", other_up));
  const std::string with_moved = dir.path() + "/moved";
  run = Aifabric(dir, {"run", scenario, "--quiet", "--out", with_moved, "--set",
                       "fabric.ib.routing={format: opensm, file: " + moved + "}"});
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(Summary(with_moved)["flows"]["completed"], kFlows);
  EXPECT_TRUE(ReadFile(with_osm + "/links.csv") != ReadFile(with_moved + "/links.csv"))
      << "moving a route did not change any link's load";

  // 4. Broken tables are bad input: exit 2, a message naming
  // fabric.ib.routing, no outputs. leaf0 sends h0 (its port 1) up to spine0
  // (port 5), which sends it back: a loop. leaf1 forgets h0: a hole.
  struct Broken {
    std::string file;
    std::string dump;
    std::string why;  // in the message
  };
  for (const Broken& broken : {Broken{"loop.dump", EditDump(*dump_text, "leaf0", "h0", "005"), "loops: "},
                               Broken{"hole.dump", EditDump(*dump_text, "leaf1", "h0", ""), "no entry"}}) {
    SCOPED_TRACE(broken.file);
    ASSERT_NE(broken.dump, *dump_text);
    const std::string file = dir.Write(broken.file, broken.dump);
    const std::string out = dir.path() + "/broken";
    run = Aifabric(dir, {"run", scenario, "--quiet", "--out", out, "--set",
                         "fabric.ib.routing={format: opensm, file: " + file + "}"});
    EXPECT_EQ(run.status, 2) << run.out;
    EXPECT_THAT(run.out, HasSubstr("fabric.ib.routing"));
    EXPECT_THAT(run.out, HasSubstr(broken.why));
    EXPECT_FALSE(Exists(out));
  }
}

}  // namespace
}  // namespace aifabric::testing
