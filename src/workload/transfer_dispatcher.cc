#include "workload/transfer_dispatcher.h"

#include <cassert>
#include <limits>

namespace aifabric {

FlowId TransferDispatcher::Reserve(FlowId count, TransferObserver* owner) {
  assert(count > 0);
  assert(next_ <= std::numeric_limits<FlowId>::max() - count);
  const FlowId first = next_;
  next_ += count;
  blocks_.emplace_hint(blocks_.end(), first, Block{next_, owner});
  return first;
}

void TransferDispatcher::SetOwner(FlowId first, TransferObserver* owner) {
  const auto it = blocks_.find(first);
  assert(it != blocks_.end());
  it->second.owner = owner;
}

void TransferDispatcher::Release(FlowId first) {
  [[maybe_unused]] const std::size_t erased = blocks_.erase(first);
  assert(erased == 1);
}

void TransferDispatcher::OnTransferDone(FlowId id, Time finish) {
  auto it = blocks_.upper_bound(id);
  assert(it != blocks_.begin());
  --it;
  assert(id < it->second.end && it->second.owner != nullptr);
  it->second.owner->OnTransferDone(id, finish);
}

}  // namespace aifabric
