// CollectiveProtocol is NCCL's idea of a wire protocol for collectives: how
// many payload bytes each line on the wire carries, and a fixed overhead per
// algorithm step. Plain values; thread-safe.
//
//   protocol  line     payload per line  efficiency  step latency      base
//                                                    NVLink / network  latency
//   simple    (bulk)   100%              1           3.4 / 14 us       8.4 us
//   ll        16 B     8 B (+8 B flags)  50%         0.6 / 2.7 us      6.6 us
//   ll128     128 B    120 B (+8 B)      93.75%      1.9 / 4.0 us      14 us
//
// The line sizes are NCCL's (include/device.h). The latencies are NCCL's
// tuning model for the Ring algorithm (src/graph/tuning.cc, REFERENCES.md
// §6): a fixed cost per step on a GPU, beyond the wire time the network
// model adds itself — NCCL's "hardware" latency of an NVLink step inside a
// server or of a NET step between servers — and a base latency once per
// collective, read from data/calibration.yaml (its `nccl` section, Ring
// rows). They are defaults; CollectiveOptions overrides them.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.h"
#include "core/time.h"
#include "workload/training_calibration.h"

namespace aifabric {

enum class CollectiveProtocol : uint8_t { kSimple, kLl, kLl128 };

struct ProtocolSpec {
  uint32_t line_bytes = 1;       // bytes per wire line
  uint32_t payload_per_line = 1; // payload bytes per line
  Time step_latency;             // per step between GPUs of one server (NVLink)
  Time net_step_latency;         // per step between servers (NET)
  Time base_latency;             // once per collective
  double bus_efficiency = 1.0;   // calibrated: wire bytes / it (1 = the line format alone)
  double nvls_tree_efficiency = 1.0;  // NVLS across servers: a further factor (CalibrationSpec)
};

// The latencies from the built-in data/calibration.yaml, or from `calibration`.
ProtocolSpec GetProtocolSpec(CollectiveProtocol protocol);
ProtocolSpec GetProtocolSpec(CollectiveProtocol protocol, const CalibrationSpec& calibration);

// Bytes on the wire for `payload_bytes` of data: ceil(payload / payload per
// line) * line bytes (LL: 8 B -> 16 B; LL128: 120 B -> 128 B; Simple: same).
uint64_t WireBytes(CollectiveProtocol protocol, uint64_t payload_bytes);

// WireBytes at a calibrated bus efficiency (bus_efficiency.protocol of
// data/calibration.yaml): wire bytes / efficiency, rounded up; exactly
// WireBytes at efficiency 1.
uint64_t EffectiveWireBytes(CollectiveProtocol protocol, uint64_t payload_bytes, double efficiency);

// "simple", "ll", "ll128" (case-sensitive, as NCCL_PROTO is written lower-case here).
std::string_view CollectiveProtocolName(CollectiveProtocol protocol);
Result<CollectiveProtocol> ParseCollectiveProtocol(std::string_view name);

}  // namespace aifabric
