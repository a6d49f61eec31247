// Scenario benchmark: a permutation of 1 MB flows on a k-ary fat-tree at
// 100 Gbps with 1 us links and a 4000-byte MTU (the setup htsim and ns-3
// papers use), at 128 hosts (k=8) and 1024 hosts (k=16), in each fabric
// mode: plain (no transport, no PFC/ECN — the foundation's model), pfc
// (RC transport + PFC), dcqcn (RC + PFC + ECN + DCQCN), hpcc (RC + PFC + INT
// + HPCC), ib (InfiniBand credits, RC, OpenSM min-hop routes), ib_ar (the
// same with adaptive routing and selective repeat), and flow (the plain
// scenario on the flow-level model, FlowNetwork), and plain_tel and
// dcqcn_tel: plain and dcqcn with telemetry sampling every counter every
// 10 us (docs/observability.md; the other modes sample nothing). Prints wall time (the
// run: starting the flows, simulating, ideal FCTs), its CPU time, setup time
// (topology, routes, flows, network), events, events/s and peak memory for
// each. Usage:
//   permutation_bench [k ...]     (default: 8 16)
//   MODE=plain permutation_bench 16        runs one mode only
//   MODE=plain,flow permutation_bench 16   runs the modes listed
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"
#include "fabric/topology_builder.h"
#include "flow/flow_network.h"
#include "workload/flow_generator.h"
#include "workload/traffic_injector.h"

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
    {"flow", "roce", "  transport: {type: none}\n  roce: {pfc: false, ecn: false, cc: none}\n"},
    // plain and dcqcn with telemetry sampling every counter every 10 us
    // (the other modes run without it).
    {"plain_tel", "roce", "  transport: {type: none}\n  roce: {pfc: false, ecn: false, cc: none}\n"},
    {"dcqcn_tel", "roce", "  transport: {type: rc}\n  roce: {pfc: true, ecn: true, cc: dcqcn}\n"},
};

// What one run measured.
struct Measured {
  double wall_s = 0;   // the run: start flows, simulate, ideal FCTs
  double cpu_s = 0;    // the same run in process CPU time (steadier on a busy machine)
  double setup_s = 0;  // topology, routes, flows, network model
  uint64_t events = 0;
  double sim_time_us = 0;
  size_t hosts = 0;
  size_t completed = 0;
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The packet model, through the facade the CLI uses.
bool RunPacket(const aifabric::Scenario& scenario, Measured& m) {
  const auto setup_start = std::chrono::steady_clock::now();
  auto run = aifabric::ScenarioRun::Prepare(scenario);
  if (!run.ok()) {
    std::fprintf(stderr, "%s\n", run.error().message.c_str());
    return false;
  }
  m.setup_s = SecondsSince(setup_start);
  const std::clock_t cpu_start = std::clock();
  (*run)->Execute();
  m.cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  for (const auto& f : (*run)->flows()) m.completed += !(*run)->finish(f.id).IsInfinite();
  m.wall_s = (*run)->wall_seconds();
  m.events = (*run)->sim().events_processed();
  m.sim_time_us = (*run)->sim_time().us_f();
  m.hosts = (*run)->topology().hosts().size();
  return true;
}

// The flow model, wired by hand (not through ScenarioRun, so the run's
// wall time is the model's alone): same topology, routes, flows.
struct FlowCounter final : aifabric::TransferObserver {
  size_t done = 0;
  size_t total = 0;
  aifabric::Simulator* sim = nullptr;
  void OnTransferDone(aifabric::FlowId, aifabric::Time) override {
    if (++done == total) sim->Stop();
  }
};

bool RunFlow(const aifabric::Scenario& scenario, Measured& m) {
  using namespace aifabric;
  const auto setup_start = std::chrono::steady_clock::now();
  Result<Topology> topology = BuildTopology(scenario.topology);
  if (!topology.ok()) {
    std::fprintf(stderr, "%s\n", topology.error().message.c_str());
    return false;
  }
  const RoutingTable routes = RoutingTable::BuildShortestPaths(*topology);
  Rng rng(scenario.seed);
  Rng entry_rng = rng.Fork(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(scenario.workload.at(0), *topology, entry_rng, 0);
  if (!flows.ok()) {
    std::fprintf(stderr, "%s\n", flows.error().message.c_str());
    return false;
  }
  Simulator sim(scenario.seed);
  FlowConfig config;
  config.mtu_bytes = scenario.packet.mtu_bytes;
  config.wire_overhead_bytes = scenario.packet.wire_overhead_bytes;
  config.ecmp_seed = scenario.packet.ecmp_seed;
  config.qps_per_transfer = scenario.packet.qps_per_transfer;
  FlowNetwork network(sim, *topology, routes, config);
  FlowCounter counter;
  counter.total = flows->size();
  counter.sim = &sim;
  network.SetObserver(&counter);
  TrafficInjector injector(sim, network, *flows);
  m.setup_s = SecondsSince(setup_start);

  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  injector.Start();
  sim.Run(scenario.until);
  std::vector<Time> ideal;
  ideal.reserve(flows->size());
  for (const FlowSpec& f : *flows) ideal.push_back(network.IdealFct(TrafficInjector::RequestFor(f)));
  m.wall_s = SecondsSince(wall_start);
  m.cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  m.completed = counter.done;
  m.events = sim.events_processed();
  m.sim_time_us = sim.Now().us_f();
  m.hosts = topology->hosts().size();
  return true;
}

// Whether `name` is in the comma-separated list `only` (all when null).
bool Selected(const char* only, const std::string& name) {
  if (only == nullptr) return true;
  std::string list = ",";  // appended, not "literal" + string (GCC 12 -Wrestrict)
  list += only;
  list += ",";
  std::string item = ",";
  item += name;
  item += ",";
  return list.find(item) != std::string::npos;
}

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
         "  - permutation: {size: 1MB}\n"
         "simulation: {telemetry: {enabled: " + (std::string(mode.name).ends_with("_tel") ? "true" : "false") +
         ", interval: 10us}}\n";
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
  std::printf("%-6s %-4s %6s %10s %10s %10s %12s %14s %12s %10s %14s\n", "mode", "k", "hosts", "wall_s", "cpu_s",
              "setup_s", "events", "events_per_s", "sim_time_us", "completed", "peak_rss_MiB");
  const char* only = std::getenv("MODE");
  for (int k : ks) {
   for (const Mode& mode : kModes) {
    if (!Selected(only, mode.name)) continue;
    auto scenario = aifabric::LoadScenarioText(ScenarioText(k, mode), "bench", ".", {});
    if (!scenario.ok()) {
      std::fprintf(stderr, "%s\n", scenario.error().message.c_str());
      return 2;
    }
    Measured m;
    const bool flow = std::string(mode.name) == "flow";
    if (!(flow ? RunFlow(*scenario, m) : RunPacket(*scenario, m))) return 2;
    std::printf("%-6s %-4d %6zu %10.4f %10.4f %10.4f %12llu %14.0f %12.1f %10zu %14.1f\n", mode.name, k, m.hosts,
                m.wall_s, m.cpu_s, m.setup_s, static_cast<unsigned long long>(m.events),
                static_cast<double>(m.events) / m.wall_s, m.sim_time_us, m.completed,
                static_cast<double>(PeakRssKib()) / 1024.0);
   }
  }
  return 0;
}
