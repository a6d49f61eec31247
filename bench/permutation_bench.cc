// Scenario benchmark: a permutation of 1 MB flows on a k-ary fat-tree at
// 100 Gbps with 1 us links and a 4000-byte MTU (the setup htsim and ns-3
// papers use), at 128 hosts (k=8) and 1024 hosts (k=16), in each fabric
// mode: plain (no transport, no PFC/ECN — the foundation's model), pfc
// (RC transport + PFC), dcqcn (RC + PFC + ECN + DCQCN), hpcc (RC + PFC + INT
// + HPCC), ib (InfiniBand credits, RC, OpenSM min-hop routes), ib_ar (the
// same with adaptive routing and selective repeat). Prints wall time,
// events, events/s and peak memory for each. Usage:
//   permutation_bench [k ...]     (default: 8 16)
//   MODE=plain permutation_bench 16   runs one mode only
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/run.h"
#include "api/scenario_loader.h"

namespace {

struct Mode {
  const char* name;
  const char* kind;         // fabric.kind
  const char* fabric_keys;  // extra lines under fabric:
};
const Mode kModes[] = {
    {"plain", "roce", "  transport: {type: none}\n  roce: {pfc: false, ecn: false, cc: none}\n"},
    {"pfc", "roce", "  transport: {type: rc}\n  roce: {pfc: true, ecn: false, cc: none}\n"},
    {"dcqcn", "roce", "  transport: {type: rc}\n  roce: {pfc: true, ecn: true, cc: dcqcn}\n"},
    {"hpcc", "roce", "  transport: {type: rc}\n  roce: {pfc: true, ecn: false, cc: hpcc}\n"},
    {"ib", "ib", "  transport: {type: rc}\n"},
    {"ib_ar", "ib", "  transport: {type: rc, recovery: selective_repeat}\n  ib: {adaptive_routing: true}\n"},
};

std::string ScenarioText(int k, const Mode& mode) {
  const int hosts = k * k * k / 4;
  return "name: permutation_k" + std::to_string(k) + "\n" +
         "seed: 1\n"
         "cluster: {servers: " + std::to_string(hosts) + ", gpus_per_server: 1, nic: {rate: 100Gbps, per_gpu: 1}}\n"
         "fabric:\n"
         "  kind: " + mode.kind + "\n"
         "  topology: {type: fat_tree, k: " + std::to_string(k) + "}\n"
         "  switch: {name: bench-100G, radix: " + std::to_string(k) + ", port_rate: 100Gbps, latency: 0ns, buffer: 64MiB}\n"
         "  link: {latency: 1us}\n"
         "  mtu: 4000\n" + mode.fabric_keys +
         "workload:\n"
         "  - permutation: {size: 1MB}\n";
}

long PeakRssKib() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> ks;
  for (int i = 1; i < argc; ++i) ks.push_back(std::atoi(argv[i]));
  if (ks.empty()) ks = {8, 16};
  std::printf("%-6s %-4s %6s %10s %12s %14s %12s %10s %14s\n", "mode", "k", "hosts", "wall_s", "events",
              "events_per_s", "sim_time_us", "completed", "peak_rss_MiB");
  const char* only = std::getenv("MODE");
  for (int k : ks) {
   for (const Mode& mode : kModes) {
    if (only && std::string(only) != mode.name) continue;
    auto scenario = aifabric::LoadScenarioText(ScenarioText(k, mode), "bench", ".", {});
    if (!scenario.ok()) {
      std::fprintf(stderr, "%s\n", scenario.error().message.c_str());
      return 2;
    }
    auto run = aifabric::ScenarioRun::Prepare(*scenario);
    if (!run.ok()) {
      std::fprintf(stderr, "%s\n", run.error().message.c_str());
      return 2;
    }
    (*run)->Execute();
    size_t completed = 0;
    for (const auto& f : (*run)->flows()) completed += !(*run)->finish(f.id).IsInfinite();
    const double wall = (*run)->wall_seconds();
    const uint64_t events = (*run)->sim().events_processed();
    std::printf("%-6s %-4d %6zu %10.3f %12llu %14.0f %12.1f %10zu %14.1f\n", mode.name, k,
                (*run)->topology().hosts().size(), wall, static_cast<unsigned long long>(events),
                static_cast<double>(events) / wall, (*run)->sim_time().us_f(), completed,
                static_cast<double>(PeakRssKib()) / 1024.0);
   }
  }
  return 0;
}
