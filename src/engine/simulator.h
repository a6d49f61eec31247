// Simulator is one discrete-event simulation: a clock in integer picoseconds,
// the pending-event queue and the run's random generator. There are no
// globals: every component is handed the Simulator it belongs to, so any
// number of simulations can live in one process (one per thread at most).
// Not thread-safe.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <utility>
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
  explicit Simulator(uint64_t seed) : rng_(seed), callbacks_(this), background_(this) {}
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time Now() const { return now_; }
  Rng& rng() { return rng_; }
  uint64_t events_processed() const { return events_processed_; }
  // Queued events that keep a run going (background events not counted).
  size_t pending_events() const { return queue_.size() - background_.pending(); }
  size_t background_events() const { return background_.pending(); }

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

  // A background event (a telemetry sample, a progress report) runs in
  // (time, sequence) order with the others but does not keep a run going:
  // Run returns once only background events are queued, leaving them queued
  // and Now() at the last other event, so observing a simulation never
  // extends it. REQUIRES: at >= Now()
  void ScheduleBackground(Time at, EventHandler* handler, uint64_t tag = 0) {
    background_.Add(at, handler, tag);
  }

  // A heartbeat: Run calls handler->OnEvent(events_processed()) right after
  // every `every_events`-th event it processes, counted from this call, so a
  // progress report can read a wall clock now and then without an event of
  // its own (which would have to pick a simulated-time period). Costs Run one
  // compare per event. One heartbeat per simulator: a call replaces the
  // previous one; every_events == 0 or handler == nullptr removes it. The
  // handler may call SetHeartbeat (to change its period or remove itself).
  void SetHeartbeat(uint64_t every_events, EventHandler* handler);

  // Processes events in (time, sequence) order while their time is <= until,
  // Stop() has not been called and some non-background event is queued.
  // Leaves Now() at the last event's time.
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

  // Forwards background events to their handlers and counts those queued;
  // the event tag is a slot holding the handler and its tag.
  class BackgroundHandler final : public EventHandler {
   public:
    explicit BackgroundHandler(Simulator* sim) : sim_(sim) {}
    void Add(Time at, EventHandler* handler, uint64_t tag);
    void OnEvent(uint64_t slot) override;
    size_t pending() const { return pending_; }

   private:
    Simulator* sim_;
    std::vector<std::pair<EventHandler*, uint64_t>> slots_;
    std::vector<uint32_t> free_;
    size_t pending_ = 0;
  };

  // Out of the hot loop: moves the heartbeat on, then calls its handler.
  [[gnu::cold, gnu::noinline]] void Heartbeat();

  static constexpr uint64_t kNoHeartbeat = UINT64_MAX;  // never reached

  Time now_ = Time::Zero();
  uint64_t next_seq_ = 0;
  uint64_t events_processed_ = 0;
  bool stopped_ = false;
  // events_processed_ at which the heartbeat fires next.
  uint64_t next_heartbeat_ = kNoHeartbeat;
  uint64_t heartbeat_every_ = 0;
  EventHandler* heartbeat_ = nullptr;
  EventQueue queue_;
  Rng rng_;
  CallbackHandler callbacks_;
  BackgroundHandler background_;
};

}  // namespace aifabric
