#include "run/run_cost.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "fabric/host_distance.h"
#include "run/chakra_run.h"
#include "run/collective_job.h"
#include "run/fabric_setup.h"
#include "run/training_run.h"
#include "workload/collective_sweep.h"
#include "workload/flow_size_cdf.h"
#include "workload/hpcc_flow_file.h"
#include "workload/poisson_flows.h"

namespace aifabric {
namespace {

// Memory, set against the peak resident memory of the examples (GNU
// time; docs/reliability.md, "Cost", has the table): 0.6x-1x of it for
// flows runs. A collective's DAG in steps is not counted.
constexpr double kBaseBytes = 20.0 * (1 << 20);     // the process, the catalog, output buffers
constexpr double kNodeBytes = 2048;                  // a topology node with its routes
constexpr double kPacketPortBytes = 8192;            // an egress port: 8 queues, counters, buffer share
constexpr double kFlowPortBytes = 512;               // a link of the fluid models
constexpr double kPacketFlowBytes = 1024;            // a flow's sender, receiver and state
constexpr double kFlowFlowBytes = 256;               // a fluid's rate, path and state
constexpr double kJobNodeBytes = 768;                // a JobGraph node with its edges and executor state
// Flow-level events per JobGraph node (a compute's end, a transfer's start
// and end; 9.47 M events for 6.88 M nodes in
// examples/scale/gpt3_175b_131072gpu.yaml, docs/performance.md).
constexpr double kFlowEventsPerJobNode = 1.5;
// Packet level, the events a job node or DAG transfer costs beside its
// packets (its start, its end, its first packet's scheduling): an
// allowance, small beside the packets in every measured case.
constexpr double kPacketEventsPerJobNode = 4;
// Inference: events per generated token per pipeline stage (an iteration's
// kernels, its TP all-reduces and its stage's hand-off):
// examples/inference/llama3_70b_serving.yaml processed 2,118,347 events
// for 76,800 tokens x 1 stage, 27.6 each.
constexpr double kInferenceEventsPerTokenStage = 28;

std::string Num(double value) { return FormatEstimate(value); }

// The fabric of one simulation, as far as cost goes.
struct FabricShape {
  double nodes = 0;
  double ports = 0;
  double hosts = 0;
  double max_links = 2;   // links a packet crosses at most
  double rail_links = 2;  // links a packet between two NICs of one rail crosses at most
};

FabricShape ShapeOf(const Topology& topology) {
  FabricShape shape;
  shape.nodes = static_cast<double>(topology.num_nodes());
  shape.ports = static_cast<double>(topology.ports().size());
  shape.hosts = static_cast<double>(topology.hosts().size());
  if (topology.hosts().empty()) return shape;
  // The lowest tier d whose switches (those within d hops of a host) join
  // every host (max_links), or every two hosts of one rail (rail_links): a
  // path goes up at most d links and down as many. One leaf: d = 1 (its
  // spines, if any, carry nothing between its hosts).
  const std::vector<int> distance = HostDistances(topology);
  int deepest = 1;
  for (int d : distance) deepest = std::max(deepest, d);
  std::vector<NodeId> parent(topology.num_nodes());
  const auto find = [&parent](NodeId n) {
    while (parent[static_cast<size_t>(n)] != n) {
      NodeId& up = parent[static_cast<size_t>(n)];
      up = parent[static_cast<size_t>(up)];  // path halving
      n = up;
    }
    return n;
  };
  shape.max_links = shape.rail_links = 2.0 * deepest;
  bool rails_joined = false;
  for (int d = 1; d <= deepest; ++d) {
    for (size_t n = 0; n < parent.size(); ++n) parent[n] = static_cast<NodeId>(n);
    for (const Port& p : topology.ports()) {
      const int a = distance[static_cast<size_t>(p.node)], b = distance[static_cast<size_t>(p.peer)];
      if (a >= 0 && b >= 0 && a <= d && b <= d) parent[static_cast<size_t>(find(p.node))] = find(p.peer);
    }
    bool joined = true;
    std::vector<NodeId> rail_root;  // by rail: the root of its first host
    bool rails = true;
    for (NodeId h : topology.hosts()) {
      joined = joined && find(h) == find(topology.hosts().front());
      const int rail = std::max(0, topology.node(h).rail);
      if (static_cast<size_t>(rail) >= rail_root.size()) rail_root.resize(static_cast<size_t>(rail) + 1, kNoNode);
      NodeId& root = rail_root[static_cast<size_t>(rail)];
      if (root == kNoNode) root = find(h);
      rails = rails && find(h) == root;
    }
    if (rails && !rails_joined) {
      rails_joined = true;
      shape.rail_links = 2.0 * d;
    }
    if (joined) {
      shape.max_links = 2.0 * d;
      break;
    }
  }
  return shape;
}

// What a set of flows (or a job's fabric transfers) costs.
struct Traffic {
  double flows = 0;
  double bytes = 0;
  double packets = 0;
  double rail_packets = 0;   // packets between NICs of one rail (a job's traffic, which PXN keeps on its rail)
  double job_nodes = 0;
  double dag_transfers = 0;  // the transfers collectives run as, in steps (not coflows)
  double extra_events = 0;   // events that are not packets, flows or nodes (inference iterations)

  void Add(const Traffic& o) {
    flows += o.flows;
    bytes += o.bytes;
    packets += o.packets;
    rail_packets += o.rail_packets;
    job_nodes += o.job_nodes;
    dag_transfers += o.dag_transfers;
    extra_events += o.extra_events;
  }
};

void AddFlow(Traffic& t, double bytes, double mtu, double count = 1) {
  t.flows += count;
  t.bytes += bytes * count;
  t.packets += std::ceil(bytes / mtu) * count;
}

double Events(const Traffic& t, ModelKind model, const FabricShape& shape) {
  if (model == ModelKind::kPacket) {
    return (t.packets * shape.max_links + t.rail_packets * shape.rail_links) * kPacketEventsPerPacketLink +
           (t.job_nodes + t.dag_transfers) * kPacketEventsPerJobNode + t.extra_events;
  }
  return (t.flows + t.dag_transfers) * kFlowEventsPerFlow + t.job_nodes * kFlowEventsPerJobNode + t.extra_events;
}

double Memory(const Traffic& t, ModelKind model, const FabricShape& shape) {
  const bool packet = model == ModelKind::kPacket;
  return kBaseBytes + shape.nodes * kNodeBytes + shape.ports * (packet ? kPacketPortBytes : kFlowPortBytes) +
         t.flows * (packet ? kPacketFlowBytes : kFlowFlowBytes) + t.job_nodes * kJobNodeBytes;
}

// "1024 flows of 4294967296 bytes in all".
std::string FlowsInWords(double flows, double bytes) {
  return fmt::format("{} flows of {} bytes in all", Num(flows), Num(bytes));
}

// The bytes a collective of S over `group` puts on the fabric: ring's
// 2 S (n-1)/n per crossing for an all-reduce (half for the others), m
// crossings for m servers; none within one server.
double CollectiveFabricBytes(CollectiveOp op, double bytes, double ranks, double servers) {
  if (servers <= 1 || ranks <= 1) return 0;
  const double factor = op == CollectiveOp::kAllReduce ? 2.0 : 1.0;
  return factor * bytes * (ranks - 1) / ranks * servers;
}

// The transfers a collective of S over n ranks runs as in steps: ring's
// 2 (n-1) sends per rank, channel and chunk (NCCL's ring chunk) for an
// all-reduce, (n-1) for the others, at most a DAG's bound
// (workload/collective_algorithms.h).
double DagTransfers(CollectiveOp op, double bytes, double ranks, double channels) {
  const double steps = (op == CollectiveOp::kAllReduce ? 2 : 1) * (ranks - 1);
  const double chunk = static_cast<double>(NcclChunkBytes(op, CollectiveAlgorithm::kRing, static_cast<int32_t>(ranks)));
  const double chunks = std::max(1.0, std::ceil(bytes / channels / std::max(1.0, chunk)));
  return std::min(steps * ranks * channels * chunks, static_cast<double>(CollectiveOptions{}.max_dag_nodes));
}

// A job's graph: its nodes, and the bytes its transfers and collectives
// put on the fabric (transfers between GPUs of one server stay on NVLink);
// with `steps`, each collective's DAG of transfers too.
void AddGraph(Traffic& t, const JobGraph& graph, int gpus_per_server, double mtu, double repeats, bool steps) {
  const auto server = [gpus_per_server](GpuId g) { return gpus_per_server > 0 ? g / gpus_per_server : g; };
  const auto rail = [gpus_per_server](GpuId g) { return gpus_per_server > 0 ? g % gpus_per_server : 0; };
  Traffic one;
  one.job_nodes = static_cast<double>(graph.size());
  for (JobNodeIndex i = 0; i < graph.size(); ++i) {
    const JobNode& n = graph.node(i);
    if (n.kind == JobNodeKind::kTransfer) {
      if (server(n.gpu) == server(n.peer)) continue;
      const double b = static_cast<double>(n.bytes);
      one.flows += 1;
      one.bytes += b;
      // Between the same GPU index of two servers: one rail.
      (rail(n.gpu) == rail(n.peer) ? one.rail_packets : one.packets) += std::ceil(b / mtu);
    } else if (n.kind == JobNodeKind::kCollective) {
      const std::vector<GpuId>& group = graph.group(n.group);
      std::vector<int> servers;
      for (GpuId g : group) servers.push_back(server(g));
      std::sort(servers.begin(), servers.end());
      const double m = static_cast<double>(std::unique(servers.begin(), servers.end()) - servers.begin());
      const double wire =
          CollectiveFabricBytes(n.op, static_cast<double>(n.bytes), static_cast<double>(group.size()), m);
      if (wire > 0) {
        // Between servers, NCCL sends on the rail of the GPU it reaches
        // (PXN relays the rest over NVLink first).
        one.bytes += wire;
        one.rail_packets += std::ceil(wire / mtu);
      }
      if (steps && group.size() > 1) {
        one.dag_transfers += DagTransfers(n.op, static_cast<double>(n.bytes), static_cast<double>(group.size()),
                                          std::max(1, gpus_per_server));
      }
    }
  }
  t.flows += one.flows * repeats;
  t.bytes += one.bytes * repeats;
  t.packets += one.packets * repeats;
  t.rail_packets += one.rail_packets * repeats;
  t.dag_transfers += one.dag_transfers * repeats;
  t.job_nodes += one.job_nodes;  // the graph is held once, run `repeats` times
  t.extra_events += one.job_nodes * (repeats - 1) * kFlowEventsPerJobNode;
}

// Keeps the costliest part of a run for the message.
void Note(RunCost& cost, const std::string& field, const std::string& what, double events) {
  if (events > cost.what_events) {
    cost.field = field;
    cost.what = what;
    cost.what_events = events;
  }
}

// The flows of the scenario's flow workloads.
Result<Traffic> FlowTraffic(const Scenario& scenario, const Topology& topology, RunCost& cost,
                            const FabricShape& shape) {
  const double mtu = scenario.packet.mtu_bytes;
  const double hosts = shape.hosts;
  // By simulation.until, every NIC sending at its rate moves at most this.
  const double until_bytes = scenario.until.IsInfinite()
                                 ? INFINITY
                                 : hosts * static_cast<double>(scenario.topology.nic_rate.bps()) / 8 *
                                       scenario.until.seconds();
  Traffic all;
  for (size_t i = 0; i < scenario.workload.size(); ++i) {
    const std::string field = "workload." + std::to_string(i);
    Traffic t;
    uint64_t largest = 0;  // exact, for the message
    const TrafficSpec& spec = scenario.workload[i];
    if (const auto* list = std::get_if<FlowListSpec>(&spec)) {
      for (const FlowSpec& f : list->flows) {
        AddFlow(t, static_cast<double>(f.bytes), mtu);
        largest = std::max(largest, f.bytes);
      }
    } else if (const auto* file = std::get_if<HpccFlowFileSpec>(&spec)) {
      Result<std::vector<FlowSpec>> flows = ReadHpccFlowFile(file->file, topology);
      if (!flows.ok()) return flows.error();
      for (const FlowSpec& f : *flows) {
        AddFlow(t, static_cast<double>(f.bytes), mtu);
        largest = std::max(largest, f.bytes);
      }
    } else if (const auto* p = std::get_if<PermutationSpec>(&spec)) {
      AddFlow(t, static_cast<double>(p->bytes), mtu, hosts);
      largest = p->bytes;
    } else if (const auto* incast = std::get_if<IncastSpec>(&spec)) {
      AddFlow(t, static_cast<double>(incast->bytes), mtu, incast->senders);
      largest = incast->bytes;
    } else if (const auto* a2a = std::get_if<AllToAllSpec>(&spec)) {
      AddFlow(t, static_cast<double>(a2a->bytes), mtu, hosts * (hosts - 1));
      largest = a2a->bytes;
    } else if (const auto* poisson = std::get_if<PoissonSpec>(&spec)) {
      Result<FlowSizeCdf> cdf = FlowSizeCdf::Load(poisson->cdf_file);
      if (!cdf.ok()) return cdf.error();
      const double flows = hosts >= 2 ? ExpectedPoissonFlows(*poisson, topology, *cdf) : 0;
      // Sizes drawn from the CDF: each flow's packets, on average, its mean
      // size's plus the last, partial one.
      t.flows += flows;
      t.bytes += flows * cdf->Mean();
      t.packets += flows * (cdf->Mean() / mtu + 1);
      largest = static_cast<uint64_t>(cdf->Mean());
    }
    std::string what = t.flows == 1 ? fmt::format("one flow of {} bytes", largest) : FlowsInWords(t.flows, t.bytes);
    if (t.flows > 1 && static_cast<double>(largest) * 2 > t.bytes) {
      what += fmt::format(", the largest {} bytes", largest);
    }
    if (t.bytes > until_bytes) {
      t.packets *= until_bytes / t.bytes;
      what += ", as much as simulation.until lets move";
    }
    Note(cost, field, what, Events(t, scenario.model, shape));
    all.Add(t);
  }
  return all;
}

// A training step at flow level with coflow collectives, charged its
// graph's bound (kMaxTrainingGraphNodes), run `repeats` times.
Traffic TrainingAtGraphBound(double repeats) {
  Traffic t;
  t.job_nodes = static_cast<double>(kMaxTrainingGraphNodes);
  t.extra_events = t.job_nodes * (repeats - 1) * kFlowEventsPerJobNode;
  return t;
}

// The steps (or Chakra runs) a job item runs: its tenant's `steps`.
double Repeats(const Scenario& scenario, TenantKind kind, size_t index) {
  for (const TenantSpec& t : scenario.tenants) {
    if (t.kind == kind && t.index == index) return std::max(1, t.steps);
  }
  return 1;
}

}  // namespace

std::string FormatEstimate(double value) {
  if (!std::isfinite(value)) return "inf";
  if (value < 1e6) return fmt::format("{:.0f}", value);
  return fmt::format("{:.2g}", value);
}

std::string FormatMemory(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  if (bytes >= 1024) return fmt::format("{:.2g} {}", bytes, kUnits[unit]);
  if (bytes < 10 && unit > 0) return fmt::format("{:.1f} {}", bytes, kUnits[unit]);
  return fmt::format("{:.0f} {}", bytes, kUnits[unit]);
}

Result<RunCost> EstimateRunCost(const Scenario& scenario, const CostBounds& bounds) {
  RunCost cost;
  cost.model = scenario.model;
  // The hosts alone, before building anything: a fabric too large to hold
  // is refused without building it.
  const TopologySpec& spec = scenario.topology;
  const bool from_file = spec.type == TopologyType::kHpccFile || spec.type == TopologyType::kLingjunFile ||
                         spec.type == TopologyType::kIbnetdiscoverFile;
  if (!from_file) {
    const double hosts = static_cast<double>(spec.servers) * spec.nics_per_server * std::max(1, spec.planes);
    const double least = kBaseBytes + hosts * (kNodeBytes + 2 * kFlowPortBytes);
    if (bounds.max_memory_bytes > 0 && least > static_cast<double>(bounds.max_memory_bytes)) {
      cost.memory_bytes = least;
      cost.field = "cluster";
      cost.what = fmt::format("a fabric of {} hosts", Num(hosts));
      return cost;
    }
  }
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  const FabricShape shape = ShapeOf(*topology);
  const double mtu = scenario.packet.mtu_bytes;

  Result<Traffic> flows = FlowTraffic(scenario, *topology, cost, shape);
  if (!flows.ok()) return flows.error();
  // With faults and a baseline, the flows run twice.
  const double fault_runs = !scenario.faults.empty() && scenario.fault_baseline ? 2 : 1;
  Traffic shared = *flows;
  double events = Events(*flows, scenario.model, shape) * fault_runs;
  double simulation_events = events / fault_runs;
  double memory = Memory(*flows, scenario.model, shape);

  // Each job alone (and, on a shared fabric, all of them together again).
  const auto add_job = [&](const Traffic& t, const std::string& field, const std::string& what) {
    const double e = Events(t, scenario.model, shape) * fault_runs;
    events += e;
    simulation_events = std::max(simulation_events, e / fault_runs);
    memory = std::max(memory, Memory(t, scenario.model, shape));
    shared.Add(t);
    Note(cost, field, what, e);
  };
  const int gpus_per_server = scenario.server.gpus_per_server;
  const bool steps = !scenario.coflow_collectives();
  // At flow or analytic level with coflow collectives a step costs its
  // graph's nodes alone, and BuildTrainingStep holds a graph to
  // kMaxTrainingGraphNodes. When every training charged that bound fits
  // the bounds, the bound stands in for the estimate and the graphs are not
  // built a second time (building is a tenth of such a run: 0.57 s of the
  // 16,384-GPU step's 5 s); else each graph is built and counted.
  bool at_bound = scenario.model != ModelKind::kPacket && !steps && !scenario.trainings.empty();
  if (at_bound) {
    Traffic bound;
    for (size_t i = 0; i < scenario.trainings.size(); ++i) {
      bound.Add(TrainingAtGraphBound(Repeats(scenario, TenantKind::kTraining, i)));
    }
    const double runs = fault_runs * (scenario.shared_fabric ? 2 : 1);
    const double e = events + Events(bound, scenario.model, shape) * runs;
    const double m = Memory(bound, scenario.model, shape) + (scenario.shared_fabric ? memory : 0);
    at_bound = (bounds.max_events == 0 || e <= static_cast<double>(bounds.max_events)) &&
               (bounds.max_memory_bytes == 0 || m <= static_cast<double>(bounds.max_memory_bytes));
  }
  cost.upper_bound = at_bound;
  for (size_t i = 0; i < scenario.trainings.size(); ++i) {
    const Scenario::Training& training = scenario.trainings[i];
    if (at_bound) {
      const Traffic t = TrainingAtGraphBound(Repeats(scenario, TenantKind::kTraining, i));
      add_job(t, training.path, fmt::format("a training step held to {} graph nodes", Num(t.job_nodes)));
      continue;
    }
    Result<PreparedTraining> prepared = PrepareTraining(scenario, training);
    if (!prepared.ok()) return prepared.error();
    Traffic t;
    const double repeats = Repeats(scenario, TenantKind::kTraining, i);
    AddGraph(t, prepared->graph, gpus_per_server, mtu, repeats, steps);
    add_job(t, training.path,
            fmt::format("a training step of {} graph nodes, {} bytes on the fabric", Num(t.job_nodes), Num(t.bytes)));
  }
  for (size_t i = 0; i < scenario.chakras.size(); ++i) {
    const Scenario::ChakraJob& job = scenario.chakras[i];
    Result<JobGraph> graph = ReadChakraJob(scenario, job);
    if (!graph.ok()) return graph.error();
    Traffic t;
    AddGraph(t, *graph, gpus_per_server, mtu, Repeats(scenario, TenantKind::kChakra, i), steps);
    add_job(t, job.path,
            fmt::format("a Chakra trace of {} nodes, {} bytes on the fabric", Num(t.job_nodes), Num(t.bytes)));
  }
  for (size_t i = 0; i < scenario.collective_jobs.size(); ++i) {
    // Its iterations, and with auto algorithm or protocol the sweep of the
    // one size that chooses them first (run/collective_job.h).
    const Scenario::CollectiveJob& job = scenario.collective_jobs[i];
    Result<JobGraph> graph = CollectiveJobGraph(job, job.algorithm.value_or(CollectiveAlgorithm::kDefault));
    if (!graph.ok()) return graph.error();
    Traffic t;
    const double repeats = Repeats(scenario, TenantKind::kCollective, i);
    AddGraph(t, *graph, gpus_per_server, mtu, repeats, steps);
    add_job(t, job.path,
            fmt::format("{} runs of a {} over {} GPUs, {} bytes on the fabric", Num(repeats),
                        CollectiveOpName(job.op), job.gpus, Num(t.bytes)));
    if (job.algorithm && job.protocol) continue;
    Result<RunCost> choice = EstimateCollectiveCost(scenario, CollectiveJobRequest(job), bounds);
    if (!choice.ok()) return choice.error();
    events += choice->events;
    simulation_events = std::max(simulation_events, choice->simulation_events);
    memory = std::max(memory, choice->memory_bytes);
  }
  for (size_t i = 0; i < scenario.inferences.size(); ++i) {
    const InferenceSpec& s = scenario.inferences[i].spec;
    const double requests = s.trace.empty() ? static_cast<double>(s.num_requests) : static_cast<double>(s.trace.size());
    double tokens = requests * s.output_tokens_max;
    if (!s.trace.empty()) {
      tokens = 0;
      for (const InferenceRequestSpec& r : s.trace) tokens += r.output_tokens;
    }
    Traffic t;
    t.extra_events = tokens * std::max(1, s.pp) * kInferenceEventsPerTokenStage;
    add_job(t, scenario.inferences[i].path,
            fmt::format("{} requests generating {} tokens", Num(requests), Num(tokens)));
  }
  if (scenario.shared_fabric) {
    // The shared simulation, beside the alone runs counted above.
    const double e = Events(shared, scenario.model, shape);
    events += e * fault_runs;
    simulation_events = std::max(simulation_events, e);
    memory = std::max(memory, Memory(shared, scenario.model, shape));
  }
  cost.events = events;
  cost.simulation_events = simulation_events;
  cost.memory_bytes = memory;
  if (cost.what.empty()) {
    cost.field = "workload";
    cost.what = "an empty workload";
  } else if (cost.what_events < 0.99 * events) {
    // Several parts: the sum, with the costliest named.
    cost.what = "the costliest " + cost.field + ": " + cost.what;
    cost.field = "workload";
  }
  return cost;
}

Result<RunCost> EstimateCollectiveCost(const Scenario& scenario, const CollectiveRequest& request,
                                       const CostBounds& bounds) {
  Result<RunCost> base = EstimateRunCost([&scenario] {
    Scenario fabric_only = scenario;  // the cluster and fabric; the sweep is the workload
    fabric_only.workload.clear();
    fabric_only.trainings.clear();
    fabric_only.chakras.clear();
    fabric_only.inferences.clear();
    fabric_only.collective_jobs.clear();
    fabric_only.tenants.clear();
    fabric_only.shared_fabric = false;
    return fabric_only;
  }(), bounds);
  if (!base.ok() || base->field == "cluster") return base;
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  const FabricShape shape = ShapeOf(*topology);
  RunCost cost = *base;
  cost.events = 0;
  cost.simulation_events = 0;
  cost.field = "collective";
  const int per_server = std::max(1, scenario.server.gpus_per_server);
  const double gpus = shape.hosts / std::max(1.0, scenario.nics_per_gpu);
  const double ranks = request.gpus > 0 ? request.gpus : gpus;
  const double rps = std::min<double>(ranks, per_server);
  const double servers = std::ceil(ranks / rps);
  const double channels = request.channels > 0 ? request.channels : rps;
  Result<std::vector<uint64_t>> sizes = request.sizes.empty() ? SweepSizes(request.sweep) : request.sizes;
  if (!sizes.ok()) return sizes.error();
  const bool nvls = scenario.gpu.nvls && rps > 1;
  const double mtu = scenario.packet.mtu_bytes;
  double largest = 0;
  for (uint64_t size : *sizes) {
    const double s = static_cast<double>(size);
    largest = std::max(largest, s);
    // The candidates timed at this size (run/collective_run.cc): algorithms
    // x protocols, LL carrying 8 bytes per 16 on the wire, LL128 120 per 128.
    const double algorithms = request.algorithm ? 1 : request.op == CollectiveOp::kAllReduce ? (nvls ? 3 : 2) : 1;
    double wire_factor = 1;  // summed over the protocols of one algorithm
    double protocols = 1;
    if (request.protocol) {
      wire_factor = *request.protocol == CollectiveProtocol::kLl      ? 2.0
                    : *request.protocol == CollectiveProtocol::kLl128 ? 128.0 / 120.0
                                                                      : 1.0;
    } else if (size <= (64ull << 20)) {
      wire_factor = 1.0 + 2.0 + 128.0 / 120.0;
      protocols = 3;
    }
    const double wire = CollectiveFabricBytes(request.op, s, ranks, servers) * wire_factor * algorithms;
    Traffic t;
    // PXN (the default) keeps inter-server sends on one rail, as does one
    // GPU per server.
    (request.pxn || rps == 1 ? t.rail_packets : t.packets) = std::ceil(wire / mtu);
    t.bytes = wire;
    // A DAG's transfers per candidate, or one fluid each as coflows.
    t.dag_transfers =
        scenario.coflow_collectives() ? 0 : DagTransfers(request.op, s, ranks, channels) * algorithms * protocols;
    t.job_nodes = algorithms * protocols;
    const double e = Events(t, scenario.model, shape);
    cost.events += e;
    cost.simulation_events = std::max(cost.simulation_events, e / (algorithms * protocols));
    cost.memory_bytes = std::max(cost.memory_bytes, Memory(t, scenario.model, shape));
  }
  cost.what = fmt::format("{} sizes of {} over {} GPUs, the largest {:.0f} bytes", sizes->size(),
                          CollectiveOpName(request.op), Num(ranks), largest);
  return cost;
}

Status CheckRunCost(const RunCost& cost, const CostBounds& bounds, BoundsOwner owner) {
  const std::string whose = owner == BoundsOwner::kServer ? "the server's " : "";
  const auto refuse = [&](const std::string& estimate, const std::string& option, const std::string& bound) {
    std::string message = cost.field + ": estimated " + estimate + " at " + ModelKindName(cost.model) + " level (" +
                          cost.what + "), over " + whose + option + " " + bound;
    if (owner == BoundsOwner::kCommandLine) message += "; raise " + option + " to run it";
    return Error{message};
  };
  const double events = bounds.per_simulation ? cost.simulation_events : cost.events;
  if (bounds.max_events > 0 && events > static_cast<double>(bounds.max_events)) {
    return refuse(Num(events) + (bounds.per_simulation ? " events in one simulation" : " events"), "--max-events",
                  Num(static_cast<double>(bounds.max_events)));
  }
  if (bounds.max_memory_bytes > 0 && cost.memory_bytes > static_cast<double>(bounds.max_memory_bytes)) {
    return refuse(FormatMemory(cost.memory_bytes) + " of memory", "--max-memory",
                  FormatMemory(static_cast<double>(bounds.max_memory_bytes)));
  }
  return Status::Ok();
}

}  // namespace aifabric
