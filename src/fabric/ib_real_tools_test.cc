// End-to-end check against the real InfiniBand tools (Debian packages
// ibsim-utils, opensm, infiniband-diags): an aifabric fabric is written as an
// ibsim net file, the simulated fabric is swept by OpenSM, and what OpenSM
// programmed and what ibnetdiscover / ibroute report is read back and
// compared with aifabric's own engines. Each test starts its own ibsim on
// its own abstract unix socket (IBSIM_SOCKNAME) and temp dir, so parallel
// runs do not collide; every process has a hard timeout and is killed at the
// end, even on failure. Skips (saying what is missing) when the tools are not
// installed or ibsim cannot start here.
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "core/text_file.h"
#include "fabric/fabric_test_util.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ibnetdiscover_reader.h"
#include "fabric/ibsim_netfile_writer.h"
#include "fabric/topology_builder.h"

extern char** environ;

namespace aifabric {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// A child process with a hard deadline; killed and reaped when destroyed.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& cwd,
        const std::string& out_path) {
    std::vector<char*> args, envp;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ == 0) {
      // Die with the test, whatever happens to it.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(126);
      const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = open("/dev/null", O_RDONLY);
      if (out < 0 || in < 0 || chdir(cwd.c_str()) != 0) _exit(125);
      dup2(in, 0);
      dup2(out, 1);
      dup2(out, 2);
      execve(args[0], args.data(), envp.data());
      _exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() { Kill(); }

  bool started() const { return pid_ > 0; }
  // Exit status if the child has ended (waiting up to `timeout`), else
  // kills it and returns -1.
  int Wait(milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0) {
      if (Poll()) return status_;
      if (std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(milliseconds(10));
    }
    if (pid_ <= 0) return status_;
    Kill();
    return -1;
  }
  // True once the child has ended.
  bool Poll() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    pid_ = 0;
    return true;
  }
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
  }

 private:
  pid_t pid_ = -1;
  int status_ = -1;
};

std::string Slurp(const std::string& path) {
  Result<std::string> text = ReadTextFile(path);
  return text.ok() ? *text : std::string();
}

// `name` on PATH or in the usual sbin/bin dirs; empty if absent.
std::string FindTool(const std::string& name) {
  std::vector<std::string> dirs = {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"};
  if (const char* path = getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) dirs.insert(dirs.begin(), dir);
  }
  for (const std::string& dir : dirs) {
    const std::string p = dir + "/" + name;
    if (!dir.empty() && access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

// Result of one tool run.
struct ToolRun {
  int status = -1;  // -1: timed out (and killed)
  std::string out;  // stdout and stderr
};

// One simulated fabric: its temp dir, socket name and running ibsim.
class SimulatedFabric {
 public:
  // Empty string when ready; otherwise why it cannot run (a skip reason).
  std::string Start(const Topology& topology) {
    for (const char* tool : {"ibsim", "ibsim-run", "opensm", "ibnetdiscover", "ibroute"}) {
      tools_[tool] = FindTool(tool);
      if (tools_[tool].empty()) return std::string(tool) + " is not installed (Debian: ibsim-utils, opensm, infiniband-diags)";
    }
    // ibsim-run preloads this library; it names it in its first lines.
    const std::string script = Slurp(tools_["ibsim-run"]);
    const size_t at = script.find("sim_so=");
    const std::string so = at == std::string::npos ? "" : script.substr(at + 7, script.find('\n', at) - at - 7);
    if (so.empty() || access(so.c_str(), R_OK) != 0) return "libumad2sim.so (named by ibsim-run) is missing: '" + so + "'";

    char dir_template[] = "/tmp/aifabric-ib-XXXXXX";
    if (!mkdtemp(dir_template)) return std::string("cannot make a temp dir: ") + std::strerror(errno);
    dir_ = dir_template;
    fs::create_directories(dir_ + "/cache");
    fs::create_directories(dir_ + "/dump");
    static int counter = 0;
    socket_ = "aifabric-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    for (char** e = environ; *e; ++e) {
      const std::string var = *e;
      if (var.rfind("LD_PRELOAD=", 0) == 0 || var.rfind("IBSIM_", 0) == 0 || var.rfind("SIM_HOST=", 0) == 0 ||
          var.rfind("OSM_", 0) == 0) {
        continue;  // ibsim-run mangles an existing LD_PRELOAD; the rest is ours to set
      }
      env_.push_back(var);
    }
    env_.push_back("IBSIM_SOCKNAME=" + socket_);
    env_.push_back("SIM_HOST=" + topology.node(topology.hosts().at(0)).name);  // OpenSM on h0
    env_.push_back("OSM_CACHE_DIR=" + dir_ + "/cache");
    env_.push_back("OSM_TMP_DIR=" + dir_);

    net_ = dir_ + "/fabric.net";
    std::ofstream(net_) << WriteIbsimNetFile(topology);
    ibsim_ = std::make_unique<Child>(std::vector<std::string>{tools_["ibsim"], "-s", "-n", net_}, env_, dir_,
                                     dir_ + "/ibsim.out");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (Slurp(dir_ + "/ibsim.out").find("Network simulator ready.") != std::string::npos) return "";
      if (ibsim_->Poll()) break;
      std::this_thread::sleep_for(milliseconds(20));
    }
    ibsim_->Kill();
    return "ibsim did not start (ibsim -s -n " + net_ + "): " + Slurp(dir_ + "/ibsim.out");
  }

  ~SimulatedFabric() {
    ibsim_.reset();  // kills ibsim
    if (!dir_.empty() && !getenv("AIFABRIC_KEEP_IB_TMP")) {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
    }
  }

  // Runs `tool args...` under ibsim-run with a hard timeout.
  ToolRun Tool(const std::string& tool, const std::vector<std::string>& args, milliseconds timeout) {
    std::vector<std::string> argv = {tools_["ibsim-run"], tools_[tool]};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string out = dir_ + "/" + tool + "-" + std::to_string(runs_++) + ".out";
    Child child(argv, env_, dir_, out);
    ToolRun r;
    r.status = child.Wait(timeout);
    r.out = Slurp(out);
    return r;
  }

  // One OpenSM sweep with routing engine `engine`; its LFT dump text, or an
  // error message.
  Result<std::string> RunOpenSm(const std::string& engine) {
    const std::string dump = dir_ + "/dump-" + engine;
    fs::create_directories(dump);
    const std::string log = dir_ + "/opensm-" + engine + ".log";
    // -o: one sweep then exit; -F /dev/null: default options only;
    // -D 0x43: ERROR | INFO | ROUTING, and ROUTING makes OpenSM write
    // opensm-lfts.dump into --dump_files_dir.
    const ToolRun r = Tool("opensm", {"-o", "-R", engine, "-D", "0x43", "-f", log, "--dump_files_dir", dump, "-F", "/dev/null"},
                       std::chrono::seconds(60));
    if (r.status != 0) {
      return Error{"opensm exited with " + std::to_string(r.status) + ": " + r.out + "\nlog: " + Slurp(log)};
    }
    const std::string engine_log = Slurp(log);
    if (engine_log.find(engine + " tables configured on all switches") == std::string::npos) {
      return Error{"OpenSM did not route with " + engine + ": " + engine_log};
    }
    return Slurp(dump + "/opensm-lfts.dump");
  }

  const std::string& dir() const { return dir_; }

 private:
  std::map<std::string, std::string> tools_;
  std::string dir_, socket_, net_;
  std::vector<std::string> env_;
  std::unique_ptr<Child> ibsim_;
  int runs_ = 0;
};

// 4 leaves x 4 hosts, 4 spines (one link each) at 100G = 4xEDR: hosts
// h0..h15, leaf0..3, spine0..3.
Topology LeafSpine4x4() {
  TopologySpec spec = fabric_testing::MakeSpec(TopologyType::kLeafSpine, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.hosts_per_leaf = 4;
  spec.spines = 4;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// An irregular 2-tier fabric where OpenSM's destination order matters (see
// ib_forwarding_tables_test.cc, IbMinHop.IrregularFabricFollowsOpenSmDestinationOrder).
Topology Irregular() {
  Topology t;
  auto name = [](const char* prefix, int i) {
    std::string n = prefix;  // appended, not "literal" + string (GCC 12 -Wrestrict)
    n += std::to_string(i);
    return n;
  };
  for (int h = 0; h < 9; ++h) t.AddHost(name("h", h), h, 0);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  for (int l = 0; l < 3; ++l) t.AddSwitch(name("leaf", l), 1, spec);
  for (int s = 0; s < 3; ++s) t.AddSwitch(name("spine", s), 2, spec);
  const DataRate r = DataRate::Gbps(100);
  const int leaf_of[9] = {9, 9, 10, 10, 10, 10, 11, 11, 11};
  for (int h = 0; h < 9; ++h) t.AddLink(h, leaf_of[h], r, Time::Zero());
  for (auto [leaf, spine] : std::vector<std::pair<int, int>>{{9, 12}, {9, 13}, {9, 14}, {10, 12}, {10, 13},
                                                              {11, 12}, {11, 12}, {11, 14}}) {
    t.AddLink(leaf, spine, r, Time::Zero());
  }
  return t;
}

std::multiset<int> Loads(const Topology& t, const ForwardingTables& f, NodeId sw) {
  std::multiset<int> loads;
  for (int n : RoutesPerPort(t, f, sw)) loads.insert(n);
  return loads;
}

#define START_OR_SKIP(fabric, topology)                         \
  do {                                                          \
    const std::string why = (fabric).Start(topology);           \
    if (!why.empty()) GTEST_SKIP() << "real IB tools: " << why; \
  } while (0)

// OpenSM's minhop tables route every pair along a shortest path, and give
// each switch port the same number of destinations as ComputeMinHop (as a
// multiset per switch). ComputeMinHop follows OpenSM's destination order and
// tie-breaks, so the tables are also expected to be equal entry by entry.
void ExpectOpenSmMinHopMatches(const Topology& t) {
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("minhop");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  Result<ForwardingTables> osm = ReadOpensmLftDump(*dump, "opensm-lfts.dump", IbLidMap::ForTopology(t), t);
  ASSERT_TRUE(osm.ok()) << osm.error().message << "\n" << *dump;
  const Status check = CheckForwardingTables(t, *osm, PathRule::kShortest);
  EXPECT_TRUE(check.ok()) << check.error().message;
  const ForwardingTables ours = ComputeMinHop(t);
  for (NodeId sw : t.switches()) EXPECT_EQ(Loads(t, *osm, sw), Loads(t, ours, sw)) << t.node(sw).name;
  for (NodeId sw : t.switches()) {
    for (NodeId h : t.hosts()) {
      EXPECT_EQ(osm->Get(sw, h), ours.Get(sw, h)) << t.node(sw).name << " -> " << t.node(h).name;
    }
  }
}

// Leaf-spine 4x4: at a leaf 4 local ports x 1 and 4 up-ports x 12/4 = 3; at
// a spine 4 ports x 4.
TEST(IbRealTools, OpenSmMinHopMatchesComputeMinHopOnLeafSpine) {
  const Topology t = LeafSpine4x4();
  ExpectOpenSmMinHopMatches(t);
  if (HasFatalFailure() || IsSkipped()) return;
  const ForwardingTables ours = ComputeMinHop(t);
  EXPECT_EQ(Loads(t, ours, 16), (std::multiset<int>{1, 1, 1, 1, 3, 3, 3, 3}));
  EXPECT_EQ(Loads(t, ours, 20), (std::multiset<int>{4, 4, 4, 4}));
}

// Uneven leaves, a missing leaf-spine link and a double link: the order and
// tie rules decide which port each destination gets.
TEST(IbRealTools, OpenSmMinHopMatchesComputeMinHopOnIrregularFabric) { ExpectOpenSmMinHopMatches(Irregular()); }

// OpenSM's ftree engine accepts the leaf-spine as a 2-level fat-tree; its
// per-port totals match ComputeFtree (3 per up-port, 4 per spine port).
TEST(IbRealTools, OpenSmFtreeMatchesComputeFtreeTotals) {
  const Topology t = LeafSpine4x4();
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("ftree");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  Result<ForwardingTables> osm = ReadOpensmLftDump(*dump, "opensm-lfts.dump", IbLidMap::ForTopology(t), t);
  ASSERT_TRUE(osm.ok()) << osm.error().message;
  const Status check = CheckForwardingTables(t, *osm, PathRule::kShortest);
  EXPECT_TRUE(check.ok()) << check.error().message;
  const ForwardingTables ours = ComputeFtree(t);
  for (NodeId sw : t.switches()) EXPECT_EQ(Loads(t, *osm, sw), Loads(t, ours, sw)) << t.node(sw).name;
}

// ibnetdiscover sees the fabric that was written (same hosts, switches,
// links, GUIDs, neighbours by name, 4xEDR = 100G links) plus the LIDs OpenSM
// gave; `ibroute <leaf0 lid>` shows the same table as OpenSM's dump.
TEST(IbRealTools, IbnetdiscoverAndIbrouteReadBack) {
  const Topology t = LeafSpine4x4();
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("minhop");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  const ToolRun disc = fabric.Tool("ibnetdiscover", {}, std::chrono::seconds(30));
  ASSERT_EQ(disc.status, 0) << disc.out;
  Result<IbFabric> read = ReadIbnetdiscover(disc.out, "ibnetdiscover");
  ASSERT_TRUE(read.ok()) << read.error().message << "\n" << disc.out;
  const Topology& d = read->topology;
  ASSERT_EQ(d.hosts().size(), t.hosts().size());
  ASSERT_EQ(d.num_nodes(), t.num_nodes());
  ASSERT_EQ(d.num_links(), t.num_links());
  const IbLidMap ours = IbLidMap::ForTopology(t);
  auto neighbours = [](const Topology& topo, NodeId n) {
    std::multiset<std::string> names;
    for (PortId p : topo.node(n).ports) names.insert(topo.node(topo.port(p).peer).name);
    return names;
  };
  for (const Node& n : t.nodes()) {
    // GUID order reproduces aifabric's node ids.
    EXPECT_EQ(d.node(n.id).name, n.name);
    EXPECT_EQ(d.node(n.id).kind, n.kind);
    EXPECT_EQ(read->lids.node_guid(n.id), ours.node_guid(n.id)) << n.name;
    EXPECT_EQ(neighbours(d, n.id), neighbours(t, n.id)) << n.name;
    for (PortId p : d.node(n.id).ports) EXPECT_EQ(d.port(p).rate, DataRate::Gbps(100));
    if (n.kind == NodeKind::kHost) {
      EXPECT_NE(read->lids.LidOf({n.id, 1}), 0) << n.name;
    }
  }
  const NodeId leaf0 = d.FindByName("leaf0");
  const uint16_t lid = read->lids.LidOf({leaf0, 0});
  ASSERT_NE(lid, 0);
  const ToolRun route = fabric.Tool("ibroute", {std::to_string(lid)}, std::chrono::seconds(30));
  ASSERT_EQ(route.status, 0) << route.out;
  Result<ForwardingTables> from_ibroute = ReadIbroute(route.out, "ibroute", read->lids, d);
  ASSERT_TRUE(from_ibroute.ok()) << from_ibroute.error().message << "\n" << route.out;
  Result<ForwardingTables> from_dump = ReadOpensmLftDump(*dump, "opensm-lfts.dump", read->lids, d);
  ASSERT_TRUE(from_dump.ok()) << from_dump.error().message;
  for (NodeId h : d.hosts()) {
    ASSERT_NE(from_ibroute->Get(leaf0, h), kNoPort) << d.node(h).name;
    EXPECT_EQ(from_ibroute->Get(leaf0, h), from_dump->Get(leaf0, h)) << d.node(h).name;
  }
}

}  // namespace
}  // namespace aifabric
