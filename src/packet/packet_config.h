// PacketConfig holds the knobs of the packet-level model: what a packet costs
// on the wire, how switches forward and schedule, and how the shared buffer
// admits packets. Plain struct with defaults; filled by the scenario loader.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "core/time.h"
#include "fabric/ecn_marking.h"

namespace aifabric {

enum class FabricKind { kRoce, kIb };

// How a switch picks among the equal-cost next hops of a packet.
enum class LoadBalancing {
  kEcmp,      // per flow: a hash of the 5-tuple, salted per switch
  kFlowlet,   // per flowlet: a new random choice after an idle gap of the flow
  kSpray,     // per packet: random (or round robin)
  kAdaptive,  // per packet: the next hop whose egress queue holds the fewest bytes
};
enum class Forwarding { kStoreAndForward, kCutThrough };

// Bytes a packet costs on the wire beyond its payload.
// RoCEv2: Ethernet 14 + FCS 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 62 bytes of
// headers, plus 8 bytes of preamble/SFD and a 12-byte inter-frame gap = 82.
// InfiniBand: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 (no GRH inside a subnet;
// IB's line coding is folded into the data rate, so there is no preamble).
constexpr uint32_t kRoceWireOverheadBytes = 82;
constexpr uint32_t kIbWireOverheadBytes = 26;

constexpr int kNumPriorities = 8;

struct QueueSchedulingConfig {
  bool strict = false;         // strict priority (served before all DWRR queues)
  uint32_t dwrr_weight = 1;    // relative share among the DWRR queues, >= 1
};

constexpr uint64_t kUnboundedHighPriority = UINT64_MAX;

// What a switch port does with a priority its peer keeps paused (a pause
// storm), for the restoration time: SONiC pfcwd's actions.
enum class PfcWatchdogAction {
  kDrop,     // flush the queue and drop the priority's packets to and from the peer (SONiC's default)
  kForward,  // ignore the pauses and send anyway
};

// Priority-based flow control (IEEE 802.1Qbb) at switch ingress, per
// (ingress port, priority), for the priorities in `lossless_mask`.
struct PfcConfig {
  bool enabled = false;
  uint8_t lossless_mask = (1u << 3) | (1u << 4);  // SONiC's lossless TCs 3 and 4
  // XOFF when the bytes held for one (ingress port, priority) reach
  // alpha * (free shared buffer) — SONiC's dynamic_th 0 means alpha = 1.
  double alpha = 1.0;
  // XON once they fall this far below the XOFF threshold.
  uint32_t xon_offset_bytes = 2 * 4178;
  // PFC watchdog (SONiC pfcwd): a priority paused without a break for
  // `watchdog_detection` is a pause storm; for `watchdog_restoration` the
  // port then ignores pauses on it and either drops that priority's packets
  // (at switches, SONiC's default action) or sends anyway. Either breaks
  // PFC deadlocks. A host adapter always sends anyway. 0 turns the
  // watchdog off.
  Time watchdog_detection = Time::FromMs(200);     // SONiC default detection_time
  Time watchdog_restoration = Time::FromMs(200);   // SONiC default restoration_time
  PfcWatchdogAction watchdog_action = PfcWatchdogAction::kDrop;  // SONiC DEFAULT_ACTION
  // While any port is paused, look this often for a cycle of ports each
  // paused behind the next (a PFC deadlock) and count it.
  Time deadlock_check_interval = Time::FromUs(100);
};

// EcnConfig (ECN marking at egress queues) is in fabric/ecn_marking.h: the
// flow level marks its fluid queues by the same rule.

// InfiniBand link-level flow control: per virtual lane, a sender may only
// transmit into buffer the receiver has advertised (credits, 64-byte
// blocks), so no packet is ever dropped for lack of space. A flow's
// priority is its service level; SL -> VL is the identity (OpenSM's default
// SL2VL for SL 0..7).
// InfiniBand congestion control at the switches (IBA Annex A10): a port
// whose queue on a VL is long marks FECN on data packets leaving it; the
// receiving adapter answers with a BECN and the source slows down (see
// transport/ib_cc.h). Defaults are NVIDIA's Congestion Control Manager's
// (MLNX_OFED user manual: threshold 0xf, marking_rate 0xa, packet_size
// 0x200).
struct IbCcMarkingConfig {
  bool enabled = false;
  // 0 = never mark .. 15 = most aggressive: the port's VL is congested once
  // its queue holds (16 - threshold)/16 of the switch's buffer per port and
  // VL (our reading; the spec leaves the mapping to the implementation).
  int threshold = 15;
  uint32_t marking_rate = 10;         // eligible packets left unmarked between two marks
  uint32_t packet_size_bytes = 512;   // smaller packets are never marked
  // Victim_Mask: also mark at a port that is only slow because its own
  // downstream withholds credits (a victim, not a root, of congestion).
  bool mark_victims = false;
};

struct IbConfig {
  // Receive buffer per input port and VL. 0 = a switch's buffer shared
  // equally by its ports and `data_vls` lanes, but never less than the credit
  // loop (cable both ways + the receiver's forwarding latency + one MTU
  // frame time, at the link rate) plus two MTU frames, which host adapters
  // get (they drain at line rate).
  uint64_t vl_buffer_bytes = 0;
  uint32_t data_vls = 2;  // data VLs the buffer is split between (a bulk and a latency class)
  // SL -> VL for the service levels flows use (0..7): the VL is the queue a
  // packet waits in at every port. OpenSM's default is the identity.
  std::array<uint8_t, kNumPriorities> sl2vl = {0, 1, 2, 3, 4, 5, 6, 7};
  IbCcMarkingConfig congestion_control;
};

constexpr uint32_t kIbCreditBlockBytes = 64;

struct PacketConfig {
  FabricKind kind = FabricKind::kRoce;
  uint32_t mtu_bytes = 4096;        // payload bytes per packet
  uint32_t wire_overhead_bytes = kRoceWireOverheadBytes;
  Forwarding forwarding = Forwarding::kStoreAndForward;

  // Egress scheduling per priority. Strict queues go first, highest priority
  // number first; the rest share by deficit-weighted round robin.
  std::array<QueueSchedulingConfig, kNumPriorities> queues{};
  // InfiniBand VL arbitration: the strict queues form the high-priority
  // table and share by their weights too (instead of by number), and once
  // more than `high_limit_bytes` of them have left since the last
  // low-priority packet, a waiting low-priority packet goes next
  // (LimitOfHighPriority; 0 = after every high packet).
  bool weighted_high = false;
  uint64_t high_limit_bytes = kUnboundedHighPriority;

  // Shared-buffer dynamic threshold (Choudhury-Hahne): a packet is admitted
  // to an egress queue when queue_bytes + size <= alpha * (buffer - used).
  // SONiC's dynamic_th 0 means alpha = 2^0 = 1.
  double buffer_alpha = 1.0;

  // Seed for the per-switch ECMP hash (mixed with the switch id).
  uint64_t ecmp_seed = 0;
  LoadBalancing load_balancing = LoadBalancing::kEcmp;
  // Queue pairs a transfer is spread over (NCCL opens several per
  // connection): host-side entropy, one ECMP path each.
  uint32_t qps_per_transfer = 1;
  Time flowlet_gap = Time::FromUs(10);   // idle time that starts a new flowlet
  bool spray_round_robin = false;        // spray in turn instead of at random

  PfcConfig pfc;
  EcnConfig ecn;
  // Switches stamp in-band telemetry (IntHop) on data packets (HPCC).
  bool int_telemetry = false;
  IbConfig ib;  // used when kind == kIb
};

}  // namespace aifabric
