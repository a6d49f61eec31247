#include "workload/collective_local_transfer.h"

#include <cassert>

namespace aifabric {

FixedRateLocalTransfers::FixedRateLocalTransfers(Simulator& sim, DataRate rate, Time latency)
    : sim_(sim), rate_(rate), latency_(latency) {
  assert(!rate.IsZero());
}

void FixedRateLocalTransfers::StartLocalTransfer(const LocalTransferRequest& request) {
  assert(request.bytes > 0);
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
    in_flight_[slot] = request.id;
  } else {
    slot = static_cast<uint32_t>(in_flight_.size());
    in_flight_.push_back(request.id);
  }
  sim_.ScheduleIn(latency_ + rate_.TransmitTime(request.bytes), this, slot);
}

void FixedRateLocalTransfers::OnEvent(uint64_t slot) {
  const FlowId id = in_flight_[slot];
  free_slots_.push_back(static_cast<uint32_t>(slot));
  if (observer_ != nullptr) observer_->OnTransferDone(id, sim_.Now());
}

}  // namespace aifabric
