// PortCounters are the figures one egress port accumulates over a run,
// read by outputs and telemetry; the port only ever increments them. Every
// model of a fabric reports its ports in these terms (the fluid models know
// only bytes and whole packets: the rest stays 0), so the type lives with
// the fabric.
// QueueCounters are the same figures for one of its priority queues
// (EgressPort::queue_counters): every event adds to both, so the sum over
// queues of a figure equals the port's total. PortRxCounters are what
// arrived over a link at its far end, counted by the receiving node.
// Plain values; not thread-safe.
#pragma once

#include <cstdint>

namespace aifabric {

// One priority queue (InfiniBand: one VL) of an egress port.
struct QueueCounters {
  uint64_t tx_bytes = 0;          // wire bytes sent from this queue
  uint64_t tx_packets = 0;
  // Highest queue occupancy since the last reset (EgressPort::TakePeakQueueBytes):
  // a reader sampling it never misses a spike between two samples.
  uint64_t peak_bytes = 0;
  uint64_t watermark_bytes = 0;   // highest occupancy over the run (>= peak_bytes)
  uint64_t drop_packets = 0;      // refused by the buffer for this queue (or flushed by the watchdog)
  uint64_t ecn_marks = 0;         // data packets marked CE (InfiniBand: FECN)
  uint64_t pfc_frames_tx = 0;     // PFC frames for this priority sent upstream over this link by its node
  uint64_t pfc_frames_rx = 0;     // PFC frames for this priority received by this port
  uint64_t pfc_pause_ps = 0;      // closed pauses only; EgressPort::PauseTime adds one in progress
};

struct PortCounters {
  uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;          // on the wire, including per-packet overhead
  uint64_t tx_payload_bytes = 0;
  uint64_t drop_packets = 0;      // refused by the buffer at this egress queue
  uint64_t drop_bytes = 0;        // wire bytes
  uint64_t drop_payload_bytes = 0;
  // Of drop_packets, the frames a gray link corrupted on their way (the
  // far end's MAC drops them on a failed FCS; counted here, at the sender,
  // so the link's direction is known).
  uint64_t fcs_error_packets = 0;
  uint64_t ecn_marks = 0;         // data packets marked CE at this egress
  uint64_t pfc_pause_ps = 0;      // time this port spent paused, summed over priorities
  uint64_t pfc_frames_rx = 0;     // PFC frames (pause or resume) received by this port
  uint64_t pfc_frames_tx = 0;     // PFC frames sent upstream over this link by its node
  uint64_t pfc_storms = 0;        // PFC watchdog: pause storms detected at this port
  uint64_t max_queue_bytes = 0;   // high-water mark over all priorities
};

// What arrived over one directed port's link at its far end, counted where
// the packet is received (switch ingress, host NIC), by packet; kept by
// PacketNetwork per port id (the port of the *receiving* node: a packet
// sent on port X is counted as received on X's reverse).
struct PortRxCounters {
  uint64_t rx_packets = 0;
  uint64_t rx_bytes = 0;          // wire bytes, as tx_bytes counts them
};

}  // namespace aifabric
