// EventQueue is the simulator's pending-event set, ordered by (time,
// insertion sequence) so events at the same picosecond come out in the
// order they were scheduled, the way ns-3 orders them. It is a monotone
// radix heap (Ahuja, Mehlhorn, Orlin & Tarjan, 1990) on the event time, with
// same-time events kept in sequence order: valid for discrete-event
// simulation because no event is ever scheduled before the last one taken
// out (Simulator asserts at >= Now()) and sequence numbers only grow. It beat
// a 4-ary heap and std::priority_queue on bench/event_queue_bench.cc and on
// the 1024-host permutation benchmark; see docs/performance.md. Not thread-safe; owned by one Simulator.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
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

// Radix buckets on time only: `last_time_` is the time of the last minimum
// taken out. Bucket 0 holds the events at exactly last_time_, in sequence
// order (a FIFO read from `head0_`): events pushed later at that same time
// have larger sequence numbers, so appending keeps it sorted. Bucket b >= 1
// holds events whose highest time bit differing from last_time_ is bit b-1.
// A push goes straight to its bucket (O(1)). When bucket 0 is used up, the
// first non-empty bucket is scanned for its minimum time, last_time_ moves
// there and that bucket's events are redistributed: each lands in a strictly
// lower bucket (those at the new time in bucket 0, still in sequence order),
// so an event moves at most 64 times and in practice a handful. Buckets keep
// their capacity when emptied: after warm-up a bucket grows (geometrically)
// only when it holds more events than ever before, so the queue does not
// allocate per event.
class EventQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // REQUIRES: e.at is not before the last event taken by top() or pop();
  // e.seq is larger than every sequence number pushed before.
  void push(const Event& e) {
    assert(static_cast<uint64_t>(e.at.ps()) >= last_time_);
    buckets_[BucketOf(e.at)].push_back(e);
    ++size_;
  }

  // Time of the earliest event, without committing to it (top() and pop()
  // move the heap's base time up to it, after which nothing earlier may be
  // pushed). O(1) usually; scans one bucket when the current time's events
  // are used up. REQUIRES: !empty()
  Time PeekTime() const {
    if (head0_ < buckets_[0].size()) return buckets_[0][head0_].at;
    size_t b = 1;
    while (buckets_[b].empty()) ++b;
    Time min = buckets_[b][0].at;
    for (const Event& e : buckets_[b]) min = Min(min, e.at);
    return min;
  }

  // REQUIRES: !empty()
  const Event& top() {
    if (head0_ == buckets_[0].size()) Refill();
    return buckets_[0][head0_];
  }

  // The event `ahead` places after top(), if it is already known (queued
  // at the same time as top()), else nullptr; for prefetching. O(1).
  // REQUIRES: top() was called since the last pop().
  const Event* known_ahead(size_t ahead) const {
    return head0_ + ahead < buckets_[0].size() ? &buckets_[0][head0_ + ahead] : nullptr;
  }

  // REQUIRES: !empty()
  void pop() {
    if (head0_ == buckets_[0].size()) Refill();
    ++head0_;
    --size_;
  }

 private:
  static constexpr int kBuckets = 65;

  size_t BucketOf(Time at) const {
    const uint64_t diff = static_cast<uint64_t>(at.ps()) ^ last_time_;
    return diff == 0 ? 0 : 64 - static_cast<size_t>(__builtin_clzll(diff));
  }

  // REQUIRES: bucket 0 used up and size_ > 0.
  void Refill() {
    buckets_[0].clear();
    head0_ = 0;
    size_t b = 1;
    while (buckets_[b].empty()) ++b;  // one exists: size_ > 0
    std::vector<Event>& from = buckets_[b];
    int64_t min_time = from[0].at.ps();
    for (const Event& e : from) {
      if (e.at.ps() < min_time) min_time = e.at.ps();
    }
    last_time_ = static_cast<uint64_t>(min_time);
    for (const Event& e : from) buckets_[BucketOf(e.at)].push_back(e);
    from.clear();
    // No sort needed: every bucket is in sequence order. A push appends the
    // largest sequence number yet, and a refill copies one bucket, in order,
    // into buckets that were empty (bucket 0 was used up, and b is the first
    // non-empty one).
    assert(std::is_sorted(buckets_[0].begin(), buckets_[0].end(),
                          [](const Event& x, const Event& y) { return x.seq < y.seq; }));
  }

  std::array<std::vector<Event>, kBuckets> buckets_;
  size_t head0_ = 0;  // next event to pop in buckets_[0]
  uint64_t last_time_ = 0;
  size_t size_ = 0;
};

}  // namespace aifabric
