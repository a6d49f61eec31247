// FabricObservation is what one run saw of its fabric, whatever the model:
// per directed port its traffic, losses, marks, pauses and queue peaks;
// which congested port made a switch send each PFC pause; every transfer
// with its path; and, for a job's run, each GPU's compute and how long the
// others waited on it. It is the input of Diagnose (diagnosis/
// diagnosis.h); every model fills its part (FabricNetwork::Observe) and the
// run layer the rest (run/run_observation.h), after a run. It lives with
// the fabric because the models and the diagnosis share it. A plain value;
// not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "fabric/network_model.h"

namespace aifabric {

struct PortObservation {
  PortId port = kNoPort;            // topology port id: node -> peer
  uint64_t tx_bytes = 0;            // wire bytes sent over the run
  uint64_t tx_packets = 0;          // packets sent (0 where the model has no packets)
  uint64_t drop_packets = 0;        // lost at this egress: refused by its buffer, or destroyed on its link
  // Of drop_packets, the frames the link corrupted on the way (a gray
  // link): what the far end's MAC counts as FCS errors, charged to this
  // sending port. Distinct from congestion drops.
  uint64_t fcs_error_packets = 0;
  uint64_t ecn_marks = 0;           // packets marked CE at this egress
  Time pause_time;                  // this egress spent paused by PFC (all priorities)
  uint64_t pfc_frames_tx = 0;       // PFC frames the port's node sent upstream over this link
  uint64_t max_queue_bytes = 0;     // high-water mark of this egress queue (0 at flow level)
  // tx_bytes x 8 / (line rate x active time): utilization over the time
  // the fabric carried traffic (`FabricObservation::active_time`).
  double utilization = 0;
  // The highest utilization over one sampling interval (utilization when
  // no time series was sampled).
  double peak_utilization = 0;
};

// A switch paused the port `paused` (the upstream neighbour's egress
// toward it) because its ingress buffer from that neighbour filled up
// while packets waited at its egress port `cause`: counted once per pause
// frame, with `cause` the egress (of the packets from that ingress) with
// the most bytes queued at that moment.
struct PauseCause {
  PortId paused = kNoPort;
  PortId cause = kNoPort;
  uint64_t frames = 0;
};

struct TransferObservation {
  FlowId id = 0;
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  uint64_t bytes = 0;
  Time start;
  Time finish;                 // Time::Infinite() if it did not complete
  Time ideal;                  // its standalone FCT on the idle fabric
  std::vector<PortId> path;    // the ports it crossed, source NIC first
  std::string owner;           // job or workload entry it belongs to ("" if none)
  uint64_t resent_bytes = 0;   // payload its transport retransmitted (0 where nothing is lost)
  // The ports of the paths routing moved it off (a fault's reroute), in
  // the order left; empty if it kept `path` throughout.
  std::vector<PortId> earlier_path = {};
  // Every packet followed `path` (per-flow hashing); false when packets
  // were sprayed, steered adaptively or re-hashed per flowlet, so `path`
  // is one of the paths it took.
  bool single_path = true;
};

// One GPU of a job's run as a rank the others synchronise with
// (workload/rank_waits.h says how each figure is found).
struct RankObservation {
  int32_t gpu = 0;
  NodeId node = kNoNode;       // its (first) NIC in the topology
  Time compute;                // its kernels' total time
  Time peer_compute;           // median compute of the GPUs it finished last among (zero if never last)
  Time held;                   // how much later the points it was last at started than without it
  Time waited_on;              // the others' summed wait for it there
  uint32_t last_at = 0;        // synchronisation points it was last at
  Time job_time;               // the job's makespan
  std::string owner;           // the job
};

struct FabricObservation {
  ModelKind model = ModelKind::kPacket;
  Time active_time;            // from the first transfer's start to the last's end
  std::vector<PortObservation> ports;        // one per topology port, by port id
  std::vector<PauseCause> pause_causes;      // empty at flow level or without PFC
  std::vector<TransferObservation> transfers;
  std::vector<RankObservation> ranks;        // by GPU, for a job's run; empty otherwise
};

}  // namespace aifabric
