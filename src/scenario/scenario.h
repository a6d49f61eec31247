// Scenario is everything one run needs, as loaded from a scenario file (YAML
// or JSON) after --set overrides, defaults and validation. Plain struct; the
// loader in scenario_loader.h is the only place that fills it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/catalog.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "fabric/topology_spec.h"
#include "packet/packet_config.h"
#include "scenario/fault_spec.h"
#include "scenario/policy_spec.h"
#include "scenario/tenant_spec.h"
#include "sched/job_profile.h"
#include "transport/transport_config.h"
#include "workload/collective_algorithms.h"
#include "workload/collective_op.h"
#include "workload/collective_protocol.h"
#include "workload/inference_spec.h"
#include "workload/model_catalog.h"
#include "workload/traffic_spec.h"
#include "workload/training_memory.h"
#include "workload/training_step.h"
#include "workload/training_calibration.h"

namespace aifabric {

// A named traffic class (fabric.qos.classes).
struct QosClass {
  std::string name;
  uint8_t priority = 0;   // the queue / PFC priority / IB VL it uses
  int dscp = -1;          // RoCE: the DSCP that maps to it (-1: not given)
  int sl = -1;            // InfiniBand: the service level (-1: not given)
  int lossless = -1;      // RoCE: lossless as written, 1 or 0 (-1: not given)
};

// How an InfiniBand fabric is routed (fabric.ib.routing).
struct IbRouting {
  enum Engine { kMinHop, kFtree, kShortestPaths, kOpensmDump, kIbroute };
  Engine engine = kMinHop;   // OpenSM's default engine
  std::string file;          // for kOpensmDump / kIbroute (resolved)
  // fabric.ib.sm_sweep_interval: the subnet manager's periodic sweep,
  // which finds a fault and reroutes around it (docs/faults.md); 0: none.
  // OpenSM's default, OSM_DEFAULT_SWEEP_INTERVAL_SECS = 10 s
  // (kOpensmSweepInterval, scenario/fault_spec.h).
  Time sm_sweep_interval = Time::FromMs(10'000);
};

struct Scenario {
  std::string name = "scenario";
  uint64_t seed = 1;
  std::string source_file;      // the file it was loaded from ("" if inline)

  // cluster.*
  double nics_per_gpu = 1.0;    // cluster.nic.per_gpu
  GpuSpec gpu;                  // cluster.gpu, from the catalog
  std::string nic_model;        // cluster.nic.model ("" if only a rate was given)
  ServerSpec server;            // cluster.gpus_per_server and cluster.nvlink

  // fabric.* (servers, NICs and the topology family live in `topology`)
  TopologySpec topology;
  PacketConfig packet;
  TransportConfig transport;    // fabric.transport and fabric.roce.cc / dcqcn
  std::vector<QosClass> qos_classes;
  IbRouting ib_routing;
  // fabric.load_balancing (ecmp only, for now)

  // workload: one entry per list item, in file order (flows of all kinds).
  std::vector<TrafficSpec> workload;
  // workload `training` entries: one LLM training step each.
  struct Training {
    ModelSpec model;
    ParallelismSpec parallelism;
    TrainingSpec training;
    // zero and recompute as written (the step model's distributed_optimizer
    // and recompute follow them: ZeRO >= 1, recompute full).
    TrainingMemoryOptions memory;
    // parallelism: auto: the split comes from SearchParallelism over
    // `gpus` GPUs (0 = the cluster's, less the checkpoint's storage servers).
    bool auto_parallelism = false;
    int gpus = 0;
    // An asynchronous checkpoint of the previous step written during this
    // one (storage traffic sharing the fabric with training): every GPU
    // sends `checkpoint_bytes` to one of the last `storage_servers` servers
    // of the cluster (its NIC on the same rail), on traffic class
    // `checkpoint_priority`. 0 servers: no checkpoint. With the step
    // repeated (the item's `steps` or `duration`), only steps n (counted
    // from 1) with n % checkpoint_every == 0 write one; the others run
    // without checkpoint traffic.
    int storage_servers = 0;
    uint64_t checkpoint_bytes = 0;  // per GPU; 0 = its share of 16 bytes per parameter
    uint8_t checkpoint_priority = 1;
    int checkpoint_every = 1;       // >= 1; 1 = during every step
    // The next step's input batch read during this one (training.dataset):
    // the first pipeline stage's TP rank 0 of every data-parallel replica
    // reads `dataset_bytes` from one of the last `dataset_servers` servers
    // (its NIC on the same rail), on traffic class `dataset_priority`, in
    // every step. 0 servers: no reads.
    int dataset_servers = 0;
    uint64_t dataset_bytes = 0;     // per reading GPU; 0 = its replica's tokens x bytes per token
    uint8_t dataset_priority = 1;
    // The servers the item's storage takes: the last max(checkpoint's,
    // dataset's) of the cluster, one set both count from the last server.
    int storage_reserved() const { return storage_servers > dataset_servers ? storage_servers : dataset_servers; }
    std::string path;  // "workload.N.training", for messages
  };
  std::vector<Training> trainings;
  // workload `chakra` entries: one Chakra execution trace set each.
  struct ChakraJob {
    std::string prefix;        // <prefix>.<rank>.et, resolved against the scenario's folder
    std::string comm_groups;   // ASTRA-sim's comm-group JSON, or ""
    bool skip_cpu_ops = false;
    std::string path;          // "workload.N.chakra", for messages
  };
  std::vector<ChakraJob> chakras;
  // workload `inference` entries: one serving run each.
  struct Inference {
    InferenceSpec spec;
    std::string path;  // "workload.N.inference", for messages
  };
  std::vector<Inference> inferences;
  // workload `collective` entries: one collective, run `steps` times back
  // to back as a job of one collective node per iteration (run/collective_job.h).
  struct CollectiveJob {
    CollectiveOp op = CollectiveOp::kAllReduce;
    uint64_t size = 0;   // as nccl-tests' -b (workload/collective_sweep.h's SizesFor)
    int32_t gpus = 0;    // ranks: at most a server, or whole servers
    std::optional<CollectiveAlgorithm> algorithm;  // unset: auto, as `aifabric collective` chooses
    std::optional<CollectiveProtocol> protocol;    // unset: auto
    std::string path;    // "workload.N.collective", for messages
  };
  std::vector<CollectiveJob> collective_jobs;
  // Every workload item as a tenant, in file order (tenant_spec.h). With
  // shared_fabric (an item carries a tenant key, or jobs stand beside
  // flows), `aifabric run` runs them all in one simulation
  // (run/tenant_run.h, docs/multi_tenant.md); else each job alone.
  std::vector<TenantSpec> tenants;
  bool shared_fabric = false;

  // simulation.*
  ModelKind model = ModelKind::kPacket;
  // How collectives run: kSteps (their DAG, one transfer per step, chunk
  // and channel), kCoflow (one fluid each: workload/collective_coflow.h;
  // flow and analytic models only) or kAuto (coflow on the flow and
  // analytic models, steps on the packet model).
  enum class Collectives { kAuto, kSteps, kCoflow };
  Collectives collectives = Collectives::kAuto;
  Time until = Time::Infinite();
  // simulation.fault_baseline: with faults, run the scenario a second time
  // without them, for what they cost each job or flow set (docs/faults.md).
  bool fault_baseline = true;
  // simulation.telemetry: what every run records of its fabric
  // (docs/observability.md).
  struct Telemetry {
    bool enabled = true;             // timeseries.csv, metrics.prom, trace.json, diagnosis.json, report.html
    Time interval = Time::FromUs(10);  // sampling interval of the counters, in simulated time
    uint64_t max_points = 512;       // kept per series; a longer run is downsampled (the interval doubles)
  } telemetry;
  // scheduling: how `aifabric schedule` replays a job trace on this cluster
  // (docs/scenario.md, docs/scheduling.md); `aifabric run` ignores it.
  struct Scheduling {
    PolicySpec policy;            // the placement policy and communication scheduling
    int storage_servers = 0;      // the last N servers hold storage and take no jobs
    int max_phases_per_job = 256;  // macro-iterations per job at most
    double load_window_s = 60;    // window of a port's measured load, seconds
    // scheduling.jobs; the GPU figures default to cluster.gpu's.
    JobModelOptions jobs;
    // scheduling.link_failures: switch-to-switch links down for a while,
    // by the names of their two ends (resolved once the fabric is built).
    struct LinkFailure {
      std::string a, b;
      double at_s = 0;
      double for_s = 0;  // 0 = to the end
      std::string path;  // "scheduling.link_failures.N", for messages
    };
    std::vector<LinkFailure> link_failures;
  } scheduling;
  // faults: failures during the run (docs/faults.md), as written.
  std::vector<FaultSpec> faults;
  // calibration: FILE, merged over the built-in data/calibration.yaml
  // (unset: the built-in); its bus efficiencies are already applied to
  // server.nvlink_per_dir and topology.nic_rate.
  std::optional<CalibrationSpec> calibration;
  std::string calibration_file;  // resolved path; "" if none
  const CalibrationSpec& calibration_spec() const { return calibration ? *calibration : BuiltInCalibration(); }

  // GPU reduction throughput for collectives: a reduction reads two
  // operands and writes one, so HBM bandwidth / 3.
  DataRate reduce_rate() const { return DataRate::BitsPerSecond(static_cast<uint64_t>(gpu.hbm_tbps * 1e12 * 8 / 3)); }
  // What a GPU's NICs carry together: the NIC rate times the NICs per GPU.
  DataRate gpu_network_rate() const {
    return DataRate::BitsPerSecond(static_cast<uint64_t>(static_cast<double>(topology.nic_rate.bps()) * nics_per_gpu));
  }
  bool coflow_collectives() const {
    return collectives == Collectives::kCoflow || (collectives == Collectives::kAuto && model != ModelKind::kPacket);
  }
};

// The ECMP hash seed used when fabric.ecmp_seed is absent:
// seed * 0x9E3779B97F4A7C15 + 1 (mod 2^64).
constexpr uint64_t DefaultEcmpSeed(uint64_t seed) {
  return seed * 0x9E3779B97F4A7C15ull + 1;
}

}  // namespace aifabric
