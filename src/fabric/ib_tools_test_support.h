// Test support (header-only, included only by tests; not part of any
// library): drives the real InfiniBand tools (Debian packages ibsim-utils,
// opensm, infiniband-diags) against a simulated fabric, with no IB hardware.
//
//   ib_testing::SimulatedFabric fabric;
//   if (std::string why = fabric.Start(topology); !why.empty()) GTEST_SKIP() << why;
//   Result<std::string> dump = fabric.RunOpenSm("minhop");   // opensm-lfts.dump text
//   ib_testing::ToolRun r = fabric.Tool("ibroute", {"2"}, std::chrono::seconds(30));
//
// Each SimulatedFabric runs its own `ibsim -s -n` in its own temp dir on its
// own abstract unix socket (IBSIM_SOCKNAME), so parallel tests do not
// collide. Every child process has a hard timeout, is killed and reaped when
// its owner dies, and dies with the test process (PR_SET_PDEATHSIG). Set
// AIFABRIC_KEEP_IB_TMP=1 to keep the temp dir with every tool's output.
// Not thread-safe; POSIX (Linux) only.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "core/text_file.h"
#include "fabric/ibsim_netfile_writer.h"
#include "fabric/topology.h"

extern char** environ;

namespace aifabric::ib_testing {

// A child process with a hard deadline; killed and reaped when destroyed.
// Its stdin is /dev/null; stdout and stderr both go to `out_path`.
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
  // kills it and returns -1. A child killed by a signal gives 128 + signal.
  int Wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0) {
      if (Poll()) return status_;
      if (std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
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

// The text of `path`, or "" if it cannot be read.
inline std::string Slurp(const std::string& path) {
  Result<std::string> text = ReadTextFile(path);
  return text.ok() ? *text : std::string();
}

// `name` on PATH or in the usual sbin/bin dirs; empty if absent.
inline std::string FindTool(const std::string& name) {
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

// Result of one process run.
struct ToolRun {
  int status = -1;  // exit status; -1: timed out (and killed)
  std::string out;  // stdout and stderr
};

// Runs `argv` (argv[0] a path) in `cwd` with this process's environment and
// a hard timeout; its output goes through `out_path`.
inline ToolRun RunWithTimeout(const std::vector<std::string>& argv, const std::string& cwd,
                              const std::string& out_path, std::chrono::milliseconds timeout) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.push_back(*e);
  Child child(argv, env, cwd, out_path);
  ToolRun r;
  r.status = child.Wait(timeout);
  r.out = Slurp(out_path);
  return r;
}

// One simulated fabric: its temp dir, socket name and running ibsim.
class SimulatedFabric {
 public:
  SimulatedFabric() = default;
  SimulatedFabric(const SimulatedFabric&) = delete;
  SimulatedFabric& operator=(const SimulatedFabric&) = delete;

  // Writes `topology` as an ibsim net file and starts ibsim on it, with
  // OpenSM and the tools attached to its first host. Empty string when
  // ready; otherwise why it cannot run (a skip reason).
  std::string Start(const Topology& topology) {
    return StartText(WriteIbsimNetFile(topology), topology.node(topology.hosts().at(0)).name);
  }

  // Starts ibsim on an existing net file (copied into the temp dir); the
  // tools attach to node `sim_host` (ibsim's node id; "" = the file's first
  // node).
  std::string StartNetFile(const std::string& net_file, const std::string& sim_host) {
    Result<std::string> text = ReadTextFile(net_file);
    if (!text.ok()) return "cannot read the net file: " + text.error().message;
    return StartText(*text, sim_host);
  }

  ~SimulatedFabric() {
    ibsim_.reset();  // kills ibsim
    if (!dir_.empty() && !getenv("AIFABRIC_KEEP_IB_TMP")) {
      std::error_code ignored;
      std::filesystem::remove_all(dir_, ignored);
    }
  }

  // Runs `tool args...` under ibsim-run with a hard timeout.
  // A tool Start did not look for (smpquery, ...) is found on first use.
  ToolRun Tool(const std::string& tool, const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
    if (tools_[tool].empty()) tools_[tool] = FindTool(tool);
    std::vector<std::string> argv = {tools_["ibsim-run"], tools_[tool]};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string out = dir_ + "/" + tool + "-" + std::to_string(runs_++) + ".out";
    Child child(argv, env_, dir_, out);
    ToolRun r;
    r.status = child.Wait(timeout);
    r.out = Slurp(out);
    return r;
  }

  // One OpenSM sweep with routing engine `engine` (minhop, ftree, ...); the
  // text of the opensm-lfts.dump it wrote, or an error message. The dump
  // file itself is dump_path(engine).
  Result<std::string> RunOpenSm(const std::string& engine) {
    const std::string dump = dir_ + "/dump-" + engine;
    std::filesystem::create_directories(dump);
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
    return Slurp(dump_path(engine));
  }

  // Where RunOpenSm(engine) leaves OpenSM's LFT dump.
  std::string dump_path(const std::string& engine) const { return dir_ + "/dump-" + engine + "/opensm-lfts.dump"; }
  const std::string& dir() const { return dir_; }

 private:
  std::string StartText(const std::string& net_text, const std::string& sim_host) {
    for (const char* tool : {"ibsim", "ibsim-run", "opensm", "ibnetdiscover", "ibroute"}) {
      tools_[tool] = FindTool(tool);
      if (tools_[tool].empty()) {
        return std::string(tool) + " is not installed (Debian: ibsim-utils, opensm, infiniband-diags)";
      }
    }
    // ibsim-run preloads this library; it names it in its first lines.
    const std::string script = Slurp(tools_["ibsim-run"]);
    const size_t at = script.find("sim_so=");
    const std::string so = at == std::string::npos ? "" : script.substr(at + 7, script.find('\n', at) - at - 7);
    if (so.empty() || access(so.c_str(), R_OK) != 0) {
      return "libumad2sim.so (named by ibsim-run) is missing: '" + so + "'";
    }

    char dir_template[] = "/tmp/aifabric-ib-XXXXXX";
    if (!mkdtemp(dir_template)) return std::string("cannot make a temp dir: ") + std::strerror(errno);
    dir_ = dir_template;
    std::filesystem::create_directories(dir_ + "/cache");
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
    if (!sim_host.empty()) env_.push_back("SIM_HOST=" + sim_host);
    env_.push_back("OSM_CACHE_DIR=" + dir_ + "/cache");
    env_.push_back("OSM_TMP_DIR=" + dir_);

    net_ = dir_ + "/fabric.net";
    std::ofstream(net_) << net_text;
    ibsim_ = std::make_unique<Child>(std::vector<std::string>{tools_["ibsim"], "-s", "-n", net_}, env_, dir_,
                                     dir_ + "/ibsim.out");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (Slurp(dir_ + "/ibsim.out").find("Network simulator ready.") != std::string::npos) return "";
      if (ibsim_->Poll()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ibsim_->Kill();
    return "ibsim did not start (ibsim -s -n " + net_ + "): " + Slurp(dir_ + "/ibsim.out");
  }

  std::map<std::string, std::string> tools_;
  std::string dir_, socket_, net_;
  std::vector<std::string> env_;
  std::unique_ptr<Child> ibsim_;
  int runs_ = 0;
};

}  // namespace aifabric::ib_testing
