// EventQueue is the simulator's pending-event set: a 4-ary min-heap keyed on
// (time, insertion sequence), so events at the same picosecond come out in
// the order they were scheduled, the way ns-3 orders them. Chosen over a
// binary heap (std::priority_queue) and a calendar-style bucket queue by
// bench/event_queue_bench.cc; see docs/performance.md.
// Not thread-safe; owned by one Simulator.
#pragma once

#include <cstdint>
#include <vector>

#include "core/time.h"

namespace aifabric {

class EventHandler;

struct Event {
  Time at;
  uint64_t seq;
  EventHandler* handler;
  uint64_t tag;  // handler-defined payload (a pointer or a small value)

  bool Before(const Event& o) const {
    return at < o.at || (at == o.at && seq < o.seq);
  }
};

class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  void reserve(size_t n) { heap_.reserve(n); }

  // REQUIRES: !empty()
  const Event& top() const { return heap_.front(); }

  void push(const Event& e) {
    heap_.push_back(e);
    SiftUp(heap_.size() - 1);
  }

  // REQUIRES: !empty()
  void pop() {
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(last);
  }

 private:
  static constexpr size_t kArity = 4;

  void SiftUp(size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      size_t parent = (i - 1) / kArity;
      if (!e.Before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  // Places `e` (the former last element) starting from the root.
  void SiftDown(const Event& e) {
    size_t i = 0;
    const size_t n = heap_.size();
    while (true) {
      size_t first = i * kArity + 1;
      if (first >= n) break;
      size_t best = first;
      size_t end = first + kArity < n ? first + kArity : n;
      for (size_t c = first + 1; c < end; ++c) {
        if (heap_[c].Before(heap_[best])) best = c;
      }
      if (!heap_[best].Before(e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
};

}  // namespace aifabric
