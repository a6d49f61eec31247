// FabricObservation is what one run saw of its fabric, whatever the model:
// per directed port its traffic, losses, marks, pauses and queue peaks;
// which congested port made a switch send each PFC pause; and every
// transfer with its path. It is the input of Diagnose
// (diagnosis/diagnosis.h); the packet model records its PauseCauses and the
// api fills the rest from the packet or the flow level after a run, so it
// lives here, below both. A plain value; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/time.h"

namespace aifabric {

struct PortObservation {
  PortId port = kNoPort;            // topology port id: node -> peer
  uint64_t tx_bytes = 0;            // wire bytes sent over the run
  uint64_t drop_packets = 0;        // refused by the buffer at this egress
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
};

struct FabricObservation {
  std::string model;           // "packet", "flow" or "analytic"
  Time active_time;            // from the first transfer's start to the last's end
  std::vector<PortObservation> ports;        // one per topology port, by port id
  std::vector<PauseCause> pause_causes;      // empty at flow level or without PFC
  std::vector<TransferObservation> transfers;
};

}  // namespace aifabric
