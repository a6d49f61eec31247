// NetworkModel is the one interface every fidelity implements (the packet,
// flow and analytic levels, and GpuNetwork over GPU ids on top of any of
// them): start a transfer of some bytes from one endpoint to another now,
// and hear back when its last byte has arrived. Workloads talk only to this
// interface, never to a concrete model. ModelKind names the fidelities.
// Not thread-safe; lives inside one Simulator.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

// The fidelities of a fabric model: packets through queues, max-min fair
// fluids over the same paths, or alpha-beta per transfer.
enum class ModelKind : uint8_t { kPacket, kFlow, kAnalytic };

// "packet", "flow", "analytic": as scenarios and outputs spell them.
constexpr const char* ModelKindName(ModelKind kind) {
  return kind == ModelKind::kPacket ? "packet" : kind == ModelKind::kFlow ? "flow" : "analytic";
}

// The kind spelled `name`, if any.
constexpr std::optional<ModelKind> ModelKindNamed(std::string_view name) {
  for (ModelKind kind : {ModelKind::kPacket, ModelKind::kFlow, ModelKind::kAnalytic}) {
    if (name == ModelKindName(kind)) return kind;
  }
  return std::nullopt;
}

struct TransferRequest {
  FlowId id = 0;          // caller-chosen, unique within a run
  NodeId src = kNoNode;   // host node ids
  NodeId dst = kNoNode;
  uint64_t bytes = 0;     // payload bytes; > 0
  uint8_t priority = 3;   // traffic class 0..7 (PFC priority / IB SL)
  uint16_t sport = 0;     // entropy for ECMP; 0 lets the model choose
  uint16_t dport = 4791;  // RoCEv2 UDP port by default
};

// One edge of a coflow: `bytes` of payload from src to dst.
struct CoflowEdge {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  uint64_t bytes = 0;
  uint16_t sport = 0;           // entropy for ECMP, as TransferRequest::sport
  double latency_weight = 0;    // times its path's latency counts in the coflow's latency
};

// A coflow: edges whose bytes move in proportion, as one fluid — the
// pipelined steady state of a collective, where every edge of a ring moves
// at the pace of the slowest. With D the time until every edge has moved
// its bytes (the fluid's drain), it is done at
//   start + max(chain + depth x D, (1 + fill_depth) x D + fill) + latency
// (CoflowTiming), the max-plus bound of a pipeline: either its chain of
// steps (each step's latency — `chain` plus, for every edge,
// latency_weight x the latency of its path — and transmission, `depth` in
// units of D)
// or its busiest link's work plus the pipeline's fill (fill_depth in units
// of D, and the fill's latency) takes longest. `latency` is what no
// pipelining hides (a base cost).
struct CoflowTiming {
  Time chain;              // the chain's step latencies (networks add their paths')
  double depth = 0;        // pipeline_depth: the chain's transmission, in units of D
  Time fill;               // the fill's latency
  double fill_depth = 0;   // the fill's transmission, in units of D
  Time latency;            // not hidden by pipelining
};

struct CoflowRequest {
  FlowId id = 0;            // caller-chosen, unique among transfers and coflows
  std::vector<CoflowEdge> edges;
  CoflowTiming timing;
  uint8_t priority = 3;
};

// An edge of a coflow as the transfer it stands for (id 0): for routing it.
inline TransferRequest EdgeAsTransfer(const CoflowEdge& edge, uint8_t priority) {
  TransferRequest t;
  t.src = edge.src;
  t.dst = edge.dst;
  t.bytes = edge.bytes;
  t.priority = priority;
  t.sport = edge.sport;
  return t;
}

class TransferObserver {
 public:
  // Called once when the transfer's last payload byte is delivered.
  virtual void OnTransferDone(FlowId id, Time finish) = 0;

 protected:
  ~TransferObserver() = default;
};

class NetworkModel {
 public:
  virtual ~NetworkModel() = default;
  // Begins the transfer at the simulator's current time.
  // REQUIRES: src != dst, both hosts; bytes > 0.
  virtual void StartTransfer(const TransferRequest& request) = 0;
  // Coflows (CoflowRequest) are a fluid-level idea: the packet model runs
  // collectives step by step and has none. Completion is reported to the
  // observer with the coflow's id, like a transfer's.
  virtual bool SupportsCoflows() const { return false; }
  // REQUIRES: SupportsCoflows(); every edge src != dst, both hosts.
  virtual Status StartCoflow(const CoflowRequest& /*request*/) {
    return Error{std::string(name()) + " model: collectives run step by step here, not as coflows"};
  }
  // The observer outlives the model's run.
  virtual void SetObserver(TransferObserver* observer) = 0;
  // Model name as written in outputs: "packet", "flow", "analytic".
  virtual const char* name() const = 0;
};

}  // namespace aifabric
