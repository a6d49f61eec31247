// Micro-benchmark of the simulator's pending-event set on the classic "hold
// model": keep N events pending; repeatedly pop the earliest and push one at
// now + delay. Delays mix what a packet simulator schedules: serialization of
// a 4 KiB packet at 400 Gbps (83.56 ns), link propagation (500 ns), switch
// forwarding (1 us) and exponential timers/arrivals (mean 10 us).
//
// Compared, all with the engine's Event struct and its (time, seq) order:
//  - EngineRadixHeap: src/engine/event_queue.h, a monotone radix heap
//                   (Ahuja, Mehlhorn, Orlin, Tarjan 1990) on the 128-bit key
//                   (time << 64 | seq) — the winner, used by the Simulator;
//  - BinaryHeap:    std::priority_queue (binary heap) over std::vector;
//  - FourAryHeap:   a 4-ary implicit min-heap, defined below (the engine's
//                   first queue).
// One item = one pop + one push. main() first checks that all three pop the
// same sequence.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <queue>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "engine/event_queue.h"

namespace aifabric {
namespace {

// ---- Alternative (a): std::priority_queue ---------------------------------

struct Later {
  bool operator()(const Event& a, const Event& b) const { return b.Before(a); }
};

class BinaryHeap {
 public:
  void reserve(size_t n) {
    std::vector<Event> v;
    v.reserve(n);
    q_ = std::priority_queue<Event, std::vector<Event>, Later>(Later(), std::move(v));
  }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }
  const Event& top() { return q_.top(); }
  void push(const Event& e) { q_.push(e); }
  void pop() { q_.pop(); }

 private:
  std::priority_queue<Event, std::vector<Event>, Later> q_;
};

// ---- Alternative (b): 4-ary implicit min-heap -----------------------------
// The engine's queue before the radix heap replaced it.
class FourAryHeap {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  void reserve(size_t n) { heap_.reserve(n); }

  // REQUIRES: !empty()
  const Event& top() { return heap_.front(); }

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

// ---- The hold-model workload ----------------------------------------------

// A fixed table of delays (ps), drawn once, so every queue sees the same
// sequence and the timed loop does no random-number work.
class DelayTable {
 public:
  static constexpr size_t kSize = 1 << 16;
  DelayTable() {
    Rng rng(2024);
    delays_.resize(kSize);
    for (int64_t& d : delays_) {
      const double u = rng.Uniform();
      if (u < 0.50) {
        d = 83'560;            // 4 KiB + headers serialized at 400 Gbps
      } else if (u < 0.75) {
        d = 500'000;           // cable propagation, 500 ns
      } else if (u < 0.85) {
        d = 1'000'000;         // switch forwarding latency, 1 us
      } else {
        d = static_cast<int64_t>(rng.Exponential(10e6)) + 1;  // timers, mean 10 us
      }
    }
  }
  int64_t operator[](size_t i) const { return delays_[i & (kSize - 1)]; }

 private:
  std::vector<int64_t> delays_;
};

// Fills `q` with n events and runs n hold steps to reach a steady state.
template <typename Q>
struct Hold {
  const DelayTable delays;
  Q q;
  uint64_t seq = 0;
  size_t cursor = 0;
  Time now;

  explicit Hold(size_t n) {
    if constexpr (requires { q.reserve(n); }) q.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      q.push(Event{Time::FromPs(delays[cursor++]), seq++, nullptr, i});
    }
    for (size_t i = 0; i < n; ++i) Step();
  }

  // Pops the earliest event and schedules its successor.
  uint64_t Step() {
    const Event e = q.top();
    q.pop();
    now = e.at;
    q.push(Event{now + Time::FromPs(delays[cursor++]), seq++, nullptr, e.tag});
    return e.tag;
  }
};

template <typename Q>
void BM_Hold(benchmark::State& state) {
  Hold<Q> hold(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    uint64_t tag = hold.Step();
    benchmark::DoNotOptimize(tag);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_Hold<FourAryHeap>)->Name("FourAryHeap")->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(BM_Hold<BinaryHeap>)->Name("StdPriorityQueue")->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(BM_Hold<EventQueue>)->Name("EngineRadixHeap")->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);

// All three must pop the same (time, seq) sequence.
bool SameOrder() {
  constexpr size_t kN = 5000;
  constexpr int kSteps = 200000;
  Hold<FourAryHeap> a(kN);
  Hold<BinaryHeap> b(kN);
  Hold<EventQueue> c(kN);
  for (int i = 0; i < kSteps; ++i) {
    const Event ea = a.q.top(), eb = b.q.top(), ec = c.q.top();
    if (ea.at != eb.at || ea.seq != eb.seq || ea.at != ec.at || ea.seq != ec.seq) return false;
    a.Step();
    b.Step();
    c.Step();
  }
  return true;
}

}  // namespace
}  // namespace aifabric

int main(int argc, char** argv) {
  if (!aifabric::SameOrder()) {
    std::fprintf(stderr, "event queues disagree on the pop order\n");
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
