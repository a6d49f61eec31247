// TransportConfig holds the knobs of the RDMA transport on the NICs: loss
// recovery, acknowledgements, the retransmission timeout and congestion
// control. Plain struct with defaults; filled by the scenario loader. The
// defaults and their sources are listed in docs/models.md.
#pragma once

#include <cstdint>
#include <vector>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/dcqcn_reaction_point.h"
#include "packet/packet_config.h"

namespace aifabric {

enum class TransportKind {
  kNone,  // no transport: each message goes out once at line rate, nothing comes back
  kRc,    // RDMA reliable connection: ACK/NAK, retransmission
};
enum class LossRecovery { kGoBackN, kSelectiveRepeat };
enum class CongestionControl { kNone, kDcqcn, kHpcc, kIb };

// DcqcnConfig (DCQCN's parameters) is in fabric/dcqcn_reaction_point.h: the
// flow level runs the same reaction point.

// HPCC (Li et al., SIGCOMM 2019): a window W = W_c/(U/eta) + W_AI driven
// by per-hop in-band telemetry; see hpcc.h for the update rules. The base
// RTT T is the flow's own (FlowContext::base_rtt) and the window starts at,
// and never exceeds, the BDP line_rate * T.
struct HpccConfig {
  double eta = 0.95;                          // target utilization (paper §3.3; HPCC simulator U_TARGET)
  int max_stage = 5;                          // additive steps before a forced MI/MD update (paper; simulator miThresh default)
  DataRate additive_increase;                 // W_AI as a rate (W_AI = R_AI * T); zero means line rate / 2500,
                                              // the HPCC simulator's 10 Mb/s per 25 Gb/s (config/run.py)
  DataRate min_rate = DataRate::Mbps(100);    // floor of R = W/T (HPCC simulator RdmaHw MinRate)
};

// InfiniBand congestion control at the channel adapters (IBA Annex A10),
// per queue pair: see ib_cc.h. CCTI_Increase and CCTI_Min are the defaults
// of NVIDIA's Congestion Control Manager (MLNX_OFED user manual, "Congestion
// Control Manager": ccti_increase 1, ccti_min 0). The manager derives the
// timer and the table from the fabric size by a rule it does not publish;
// ours are stated in docs/models.md.
struct IbCcConfig {
  int ccti_increase = 1;       // added to CCTI per BECN
  int ccti_min = 0;            // CCTI never falls below (a floor on the delay)
  int ccti_limit = 127;        // CCTI never rises above (the table's last entry)
  // CCTI_Timer, in the spec's units of 1.024 us: CCTI falls by one each time
  // it expires.
  uint32_t ccti_timer = 20;    // 20.48 us
  // The table of inter-packet delays; empty means the default (ib_cc.h).
  std::vector<Time> cct;
};

struct TransportConfig {
  TransportKind kind = TransportKind::kRc;
  FabricKind fabric = FabricKind::kRoce;
  LossRecovery recovery = LossRecovery::kGoBackN;
  uint32_t ack_interval = 1;                  // coalescing: one ACK per this many in-order packets
  // Selective repeat: NAK a gap only once this many packets are held past
  // it, so reordering (spraying, adaptive routing) is not taken for loss.
  uint32_t reorder_threshold = 256;
  Time rto = Time::FromUs(1000);              // retransmission timeout
  CongestionControl cc = CongestionControl::kNone;
  DcqcnConfig dcqcn;
  HpccConfig hpcc;
  IbCcConfig ib_cc;
  uint8_t cnp_priority = 6;                   // SONiC/NVIDIA: CNPs on DSCP 48, priority 6
};

}  // namespace aifabric
