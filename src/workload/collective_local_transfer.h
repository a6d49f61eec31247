// LocalTransferModel is the seam for transfers between two ranks mapped to
// the same fabric node (GPUs of one server over NVLink, or a GPU and its
// NVSwitch): the fabric's NetworkModel only moves data between nodes. It
// mirrors NetworkModel (start now, hear back through a TransferObserver), so
// an NVLink model with contention can replace the default later without
// touching the executor. Not thread-safe; lives inside one Simulator.
//
// FixedRateLocalTransfers is the default: every local transfer takes
// latency + bytes / rate, independently of the others (no contention).
#pragma once

#include <cstdint>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/network_model.h"
#include "workload/collective_dag.h"

namespace aifabric {

struct LocalTransferRequest {
  FlowId id = 0;               // unique within the run, like TransferRequest ids
  NodeId node = kNoNode;       // the fabric node both ranks live on
  CollectiveRank src = 0;      // ranks, so a later NVLink model can tell GPUs apart
  CollectiveRank dst = 0;
  bool dst_is_switch = false;  // to or from an in-network reduction unit
  bool src_is_switch = false;
  uint64_t bytes = 0;          // wire bytes; > 0
};

class LocalTransferModel {
 public:
  virtual ~LocalTransferModel() = default;
  // Begins the transfer now; the observer hears OnTransferDone(id, finish).
  virtual void StartLocalTransfer(const LocalTransferRequest& request) = 0;
  // The observer outlives the model's run.
  virtual void SetObserver(TransferObserver* observer) = 0;
};

class FixedRateLocalTransfers final : public LocalTransferModel, public EventHandler {
 public:
  // REQUIRES: !rate.IsZero(). `sim` outlives this object, which outlives
  // the run (its pending events point at it).
  FixedRateLocalTransfers(Simulator& sim, DataRate rate, Time latency);
  FixedRateLocalTransfers(const FixedRateLocalTransfers&) = delete;
  FixedRateLocalTransfers& operator=(const FixedRateLocalTransfers&) = delete;

  void StartLocalTransfer(const LocalTransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  void OnEvent(uint64_t slot) override;

 private:
  // Fixed at construction.
  Simulator& sim_;
  const DataRate rate_;
  const Time latency_;

  TransferObserver* observer_ = nullptr;
  std::vector<FlowId> in_flight_;  // event tag -> transfer id; slots reused
  std::vector<uint32_t> free_slots_;
};

}  // namespace aifabric
