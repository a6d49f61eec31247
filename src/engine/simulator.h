// Simulator is one discrete-event simulation: a clock in integer picoseconds,
// the pending-event queue and the run's random generator. There are no
// globals: every component is handed the Simulator it belongs to, so any
// number of simulations can live in one process (one per thread at most).
// Not thread-safe.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/rng.h"
#include "core/time.h"
#include "engine/event_queue.h"

namespace aifabric {

// A component that receives events. One virtual call per event; `tag` is
// whatever the component passed to Schedule (often a packet pointer).
class EventHandler {
 public:
  virtual void OnEvent(uint64_t tag) = 0;

 protected:
  ~EventHandler() = default;
};

class Simulator {
 public:
  explicit Simulator(uint64_t seed) : rng_(seed), callbacks_(this) {}
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time Now() const { return now_; }
  Rng& rng() { return rng_; }
  uint64_t events_processed() const { return events_processed_; }
  size_t pending_events() const { return queue_.size(); }

  // REQUIRES: at >= Now()
  void Schedule(Time at, EventHandler* handler, uint64_t tag = 0) {
    assert(at >= now_);
    queue_.push(Event{at, next_seq_++, handler, tag});
  }
  void ScheduleIn(Time delay, EventHandler* handler, uint64_t tag = 0) {
    Schedule(now_ + delay, handler, tag);
  }

  // For rare, non-hot-path events (workload starts, sampling): runs `fn` at
  // `at`. Costs an allocation-free slot reuse after warm-up.
  void ScheduleCallback(Time at, std::function<void()> fn);

  // Processes events in (time, sequence) order while their time is <= until
  // and Stop() has not been called. Leaves Now() at the last event's time.
  void Run(Time until = Time::Infinite());
  // Makes Run return after the current event.
  void Stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

 private:
  // Stores callbacks in slots; the event tag is the slot index.
  class CallbackHandler final : public EventHandler {
   public:
    explicit CallbackHandler(Simulator* sim) : sim_(sim) {}
    void Add(Time at, std::function<void()> fn);
    void OnEvent(uint64_t slot) override;

   private:
    Simulator* sim_;
    std::vector<std::function<void()>> slots_;
    std::vector<uint32_t> free_;
  };

  Time now_ = Time::Zero();
  uint64_t next_seq_ = 0;
  uint64_t events_processed_ = 0;
  bool stopped_ = false;
  EventQueue queue_;
  Rng rng_;
  CallbackHandler callbacks_;
};

}  // namespace aifabric
