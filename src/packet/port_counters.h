// PortCounters are the figures one egress port accumulates over a run,
// read by outputs and telemetry; the port only ever increments them.
#pragma once

#include <cstdint>

namespace aifabric {

struct PortCounters {
  uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;          // on the wire, including per-packet overhead
  uint64_t tx_payload_bytes = 0;
  uint64_t drop_packets = 0;      // refused by the buffer at this egress queue
  uint64_t drop_bytes = 0;        // wire bytes
  uint64_t drop_payload_bytes = 0;
  uint64_t ecn_marks = 0;         // data packets marked CE at this egress
  uint64_t pfc_pause_ps = 0;      // time this port spent paused, summed over priorities
  uint64_t pfc_frames_rx = 0;     // PFC frames (pause or resume) received by this port
  uint64_t pfc_frames_tx = 0;     // PFC frames sent upstream over this link by its node
  uint64_t pfc_storms = 0;        // PFC watchdog: pause storms detected at this port
  uint64_t max_queue_bytes = 0;   // high-water mark over all priorities
};

}  // namespace aifabric
