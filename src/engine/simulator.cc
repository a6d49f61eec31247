#include "engine/simulator.h"

#include <utility>

namespace aifabric {

void Simulator::ScheduleCallback(Time at, std::function<void()> fn) {
  callbacks_.Add(at, std::move(fn));
}

void Simulator::Run(Time until) {
  stopped_ = false;
  const bool bounded = !until.IsInfinite();
  while (queue_.size() > background_.pending() && !stopped_) {
    // Peek without committing, so events may still be scheduled between
    // Now() and the next event after Run returns.
    if (bounded && queue_.PeekTime() > until) break;
    const Event e = queue_.top();
    // The objects an event touches first, its handler and (for packet
    // arrivals) the packet its tag points to, have usually left the cache
    // since it was scheduled. Start loading those of the event after next
    // while this one runs (when it is known: events at the same time, common
    // on fabrics of identical links). A tag that is not a pointer prefetches
    // nothing useful but does no harm (a prefetch never faults).
    if (const Event* ahead = queue_.known_ahead(2)) {
      __builtin_prefetch(ahead->handler);
      __builtin_prefetch(reinterpret_cast<const void*>(ahead->tag));
    }
    queue_.pop();
    now_ = e.at;
    ++events_processed_;
    e.handler->OnEvent(e.tag);
    if (events_processed_ == next_heartbeat_) Heartbeat();
  }
}

void Simulator::SetHeartbeat(uint64_t every_events, EventHandler* handler) {
  if (every_events == 0 || handler == nullptr) {
    next_heartbeat_ = kNoHeartbeat;
    heartbeat_every_ = 0;
    heartbeat_ = nullptr;
    return;
  }
  next_heartbeat_ = events_processed_ + every_events;
  heartbeat_every_ = every_events;
  heartbeat_ = handler;
}

void Simulator::Heartbeat() {
  next_heartbeat_ += heartbeat_every_;  // before the call: it may replace it
  heartbeat_->OnEvent(events_processed_);
}

void Simulator::CallbackHandler::Add(Time at, std::function<void()> fn) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    slots_[slot] = std::move(fn);
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.push_back(std::move(fn));
  }
  sim_->Schedule(at, this, slot);
}

void Simulator::CallbackHandler::OnEvent(uint64_t slot) {
  std::function<void()> fn = std::move(slots_[slot]);
  slots_[slot] = nullptr;
  free_.push_back(static_cast<uint32_t>(slot));
  fn();
}

void Simulator::BackgroundHandler::Add(Time at, EventHandler* handler, uint64_t tag) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    slots_[slot] = {handler, tag};
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back(handler, tag);
  }
  ++pending_;
  sim_->Schedule(at, this, slot);
}

void Simulator::BackgroundHandler::OnEvent(uint64_t slot) {
  const auto [handler, tag] = slots_[slot];
  free_.push_back(static_cast<uint32_t>(slot));
  --pending_;
  handler->OnEvent(tag);
}

}  // namespace aifabric
