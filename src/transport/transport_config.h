// TransportConfig holds the knobs of the RDMA transport on the NICs: loss
// recovery, acknowledgements, the retransmission timeout and congestion
// control. Plain struct with defaults; filled by the scenario loader. The
// defaults and their sources are listed in docs/models.md.
#pragma once

#include <cstdint>

#include "core/data_rate.h"
#include "core/time.h"
#include "packet/packet_config.h"

namespace aifabric {

enum class TransportKind {
  kNone,  // no transport: each message goes out once at line rate, nothing comes back
  kRc,    // RDMA reliable connection: ACK/NAK, retransmission
};
enum class LossRecovery { kGoBackN, kSelectiveRepeat };
enum class CongestionControl { kNone, kDcqcn, kHpcc };

// DCQCN (Zhu et al., SIGCOMM 2015) with the paper's timer and gain
// parameters; rate steps scale with the line rate as htsim sets them
// (R_AI = line/20, R_HAI = line/10), since the paper's 40 Mb/s step was for
// 40G links.
struct DcqcnConfig {
  double g = 1.0 / 256;                       // alpha gain
  Time alpha_period = Time::FromUs(55);       // K: alpha decays when no CNP came for this long
  Time increase_period = Time::FromUs(55);    // T: rate-increase timer
  uint64_t increase_bytes = 10'000'000;       // B: rate-increase byte counter
  int fast_recovery_steps = 5;                // F
  DataRate additive_increase;                 // R_AI; zero means line rate / 20
  DataRate hyper_increase;                    // R_HAI; zero means line rate / 10
  DataRate min_rate = DataRate::Mbps(100);
  Time min_decrease_interval = Time::FromUs(4);        // at most one cut per this (NIC rate_reduce_monitor_period)
  Time cnp_interval = Time::FromUs(50);       // N: at most one CNP per flow per this, at the receiver
};

struct TransportConfig {
  TransportKind kind = TransportKind::kRc;
  FabricKind fabric = FabricKind::kRoce;
  LossRecovery recovery = LossRecovery::kGoBackN;
  uint32_t ack_interval = 1;                  // coalescing: one ACK per this many in-order packets
  Time rto = Time::FromUs(1000);              // retransmission timeout
  CongestionControl cc = CongestionControl::kNone;
  DcqcnConfig dcqcn;
  uint8_t cnp_priority = 6;                   // SONiC/NVIDIA: CNPs on DSCP 48, priority 6
};

}  // namespace aifabric
