// TransferDispatcher lets several workloads share one NetworkModel, whose
// single observer it becomes: each owner reserves a block of consecutive
// flow ids, starts its transfers with ids from its block, and hears about
// their completions; the dispatcher routes each completion to the owner of
// the block the id falls in. Blocks are handed out in increasing order and
// never reused, so a late completion for a released block is caught (an
// assert) rather than delivered to a stranger. Lives in one Simulator; not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "core/ids.h"
#include "core/time.h"
#include "fabric/network_model.h"

namespace aifabric {

class TransferDispatcher final : public TransferObserver {
 public:
  // Ids handed out start at `first_flow_id` (>= 0).
  explicit TransferDispatcher(FlowId first_flow_id = 0) : next_(first_flow_id) {}
  TransferDispatcher(const TransferDispatcher&) = delete;
  TransferDispatcher& operator=(const TransferDispatcher&) = delete;

  // Reserves `count` consecutive ids for `owner` and returns the first.
  // `owner` may be set later (SetOwner), e.g. when it needs the first id
  // to be built; it must be set before the block's first completion.
  // REQUIRES: count > 0, the id space not exhausted. `owner` outlives the
  // block (until Release or the end of the run).
  FlowId Reserve(FlowId count, TransferObserver* owner = nullptr);
  // REQUIRES: the block that starts at `first` exists.
  void SetOwner(FlowId first, TransferObserver* owner);
  // Forgets the block that starts at `first`; its ids are never handed out
  // again. REQUIRES: the block exists and none of its transfers is in flight.
  void Release(FlowId first);

  std::size_t blocks() const { return blocks_.size(); }
  FlowId next_id() const { return next_; }

  // Routes the completion to the owner of the block holding `id`.
  // REQUIRES: some live block holds `id`.
  void OnTransferDone(FlowId id, Time finish) override;

 private:
  struct Block {
    FlowId end;  // one past the last id
    TransferObserver* owner;
  };
  std::map<FlowId, Block> blocks_;  // by first id
  FlowId next_;
};

}  // namespace aifabric
