// EventQueue is the simulator's pending-event set, ordered by (time,
// insertion sequence) so events at the same picosecond come out in the
// order they were scheduled, the way ns-3 orders them. It is a monotone
// radix heap (Ahuja, Mehlhorn, Orlin & Tarjan, 1990) on the 128-bit key
// (time << 64 | seq): valid for discrete-event simulation because no event is
// ever scheduled before the last one taken out (Simulator asserts at >= Now()
// and seq only grows). It beat a 4-ary heap by 1.6x on the 1024-host
// permutation benchmark and std::priority_queue on bench/event_queue_bench.cc;
// see docs/performance.md. Not thread-safe; owned by one Simulator.
#pragma once

#include <array>
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

// `last` is the key of the last minimum taken out. Bucket 0 holds keys equal
// to last; bucket b >= 1 holds keys whose highest bit differing from last is
// bit b-1. A push goes straight to its bucket (O(1)). When bucket 0 is empty,
// the first non-empty bucket is scanned for its minimum, last moves to it,
// and that bucket's keys are redistributed: each lands in a strictly lower
// bucket, so a key moves at most 128 times and in practice a handful.
// Buckets keep their capacity when emptied: after warm-up a bucket grows
// (geometrically) only when it holds more events than ever before, so the
// queue does not allocate per event.
class EventQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // REQUIRES: e is not before the last event popped.
  void push(const Event& e) {
    buckets_[BucketOf(e)].push_back(e);
    ++size_;
  }

  // REQUIRES: !empty()
  const Event& top() {
    if (buckets_[0].empty()) Refill();
    return buckets_[0].back();
  }

  // REQUIRES: !empty()
  void pop() {
    if (buckets_[0].empty()) Refill();
    buckets_[0].pop_back();
    --size_;
  }

 private:
  static constexpr int kBuckets = 129;

  size_t BucketOf(const Event& e) const {
    const uint64_t hi = static_cast<uint64_t>(e.at.ps()) ^ last_time_;
    if (hi != 0) return 128 - static_cast<size_t>(__builtin_clzll(hi));
    const uint64_t lo = e.seq ^ last_seq_;
    return lo == 0 ? 0 : 64 - static_cast<size_t>(__builtin_clzll(lo));
  }

  void Refill() {
    size_t b = 1;
    while (buckets_[b].empty()) ++b;  // one exists: size_ > 0
    std::vector<Event>& from = buckets_[b];
    const Event* min = &from[0];
    for (const Event& e : from) {
      if (e.Before(*min)) min = &e;
    }
    last_time_ = static_cast<uint64_t>(min->at.ps());
    last_seq_ = min->seq;
    for (const Event& e : from) buckets_[BucketOf(e)].push_back(e);
    from.clear();
  }

  std::array<std::vector<Event>, kBuckets> buckets_;
  uint64_t last_time_ = 0;
  uint64_t last_seq_ = 0;
  size_t size_ = 0;
};

}  // namespace aifabric
