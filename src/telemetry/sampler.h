// Sampler reads a set of counter readers into a TimeSeriesStore at a fixed
// interval of simulated time while a simulation runs. Its ticks are
// background events (Simulator::ScheduleBackground), so sampling never keeps
// a simulation alive or moves its end: when the last other event has run,
// Run returns at that event's time and the caller takes a last sample with
// SampleNow(). Owned by whoever wires telemetry into a run; it and its
// readers must outlive every later Run of the simulator (a tick stays
// queued). Not thread-safe: it lives on the simulation's thread.
//
// A sample at time t is taken in (time, sequence) order like any event: it
// sees the events at t that were scheduled before its tick.
#pragma once

#include <span>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// A source of current values: fills `out` (one value per series it
// registered, in the order of its keys) with the values at `now`. Counters
// are cumulative since the start; gauges are the value at `now` (or the
// peak since the reader's previous Read, if it tracks one). Read should
// only copy: it runs for every series at every sample.
class CounterReader {
 public:
  virtual ~CounterReader() = default;
  virtual void Read(Time now, std::span<double> out) = 0;
};

class Sampler final : public EventHandler {
 public:
  // REQUIRES: interval > 0; `store` has no series yet (the sampler adds
  // them all through AddReader).
  //
  // `read_kept_only`: read only at the instants the store keeps as points
  // (every interval until the store first halves, then every 2, 4, ...
  // intervals), so that a long run costs O(points x log(run / interval))
  // reads, not one per interval. Only for readers whose gauges are peaks
  // since their previous Read (nothing happens between reads that a read
  // misses); counters are exact either way.
  Sampler(Simulator& sim, TimeSeriesStore& store, Time interval, bool read_kept_only = false);
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Registers `reader`, which fills the series of `keys`, in order.
  // REQUIRES: before Start(); reader != nullptr.
  void AddReader(CounterReader* reader, std::span<const SeriesKey> keys);
  // Takes the first sample at Now() (usually 0) and schedules one every
  // interval after it.
  void Start();
  // Takes a sample at Now(), e.g. at the end of a run; nothing if one was
  // already taken at this instant. REQUIRES: Start() was called.
  void SampleNow();
  // A tick: samples, then schedules the next tick unless no other work is
  // pending.
  void OnEvent(uint64_t tag) override;

 private:
  struct Source {
    CounterReader* reader;
    size_t first;  // of its values in row_
    size_t count;
  };

  void Sample(size_t instants = 1);
  void ScheduleNext();

  // Fixed at construction.
  Simulator& sim_;
  TimeSeriesStore& store_;
  const Time interval_;
  const bool read_kept_only_;
  size_t next_instants_ = 1;  // instants the next tick's sample stands for

  std::vector<Source> sources_;
  std::vector<double> row_;  // one sample, series in id order
  bool started_ = false;
  bool sampled_ = false;     // a sample was taken at last_sample_
  Time last_sample_ = Time::Zero();
};

}  // namespace aifabric
