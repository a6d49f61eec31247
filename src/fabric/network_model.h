// NetworkModel is the one interface every fidelity implements (packet level
// here; flow level and analytic later): start a transfer of some bytes from
// one host to another now, and hear back when its last byte has arrived.
// Workloads talk only to this interface, never to a concrete model.
// Not thread-safe; lives inside one Simulator.
#pragma once

#include <cstdint>

#include "core/ids.h"
#include "core/time.h"

namespace aifabric {

struct TransferRequest {
  FlowId id = 0;          // caller-chosen, unique within a run
  NodeId src = kNoNode;   // host node ids
  NodeId dst = kNoNode;
  uint64_t bytes = 0;     // payload bytes; > 0
  uint8_t priority = 3;   // traffic class 0..7 (PFC priority / IB SL)
  uint16_t sport = 0;     // entropy for ECMP; 0 lets the model choose
  uint16_t dport = 4791;  // RoCEv2 UDP port by default
};

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
  // The observer outlives the model's run.
  virtual void SetObserver(TransferObserver* observer) = 0;
  // Model name as written in outputs: "packet", "flow", "analytic".
  virtual const char* name() const = 0;
};

}  // namespace aifabric
