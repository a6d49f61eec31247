// ChromeTrace collects the timeline of one run — collective phases per rank,
// transfers per NIC, queue-depth counters — and renders it as Chrome trace
// JSON (the "JSON object format" that the Perfetto UI and chrome://tracing
// open), written by a run as trace.json. Owned by whoever records the run;
// not thread-safe.
//
// Model. A *process* groups tracks ("rank 3", "NIC h12", "switch s4"). A
// *track* is a named timeline inside a process ("collectives",
// "transfers"). Slices on one track may overlap freely: Perfetto and Chrome
// draw a thread's "X" slices correctly only when they nest (one that starts
// inside another ends inside it), so Render() splits each track into lanes,
// each its own thread (tid), so that every lane nests. The first lane keeps
// the track's name; the others are named "<track> (2)", "<track> (3)", ...
// A *counter* is a step function of time in a process, one series per name
// (use the catalog's names: SaiName(Metric::kQueueOccupancyBytes, 3) + "
// port 7", say).
//
// Time in the file. `ts` and `dur` are microseconds printed from integers
// with exactly three decimals, so the file is exact to the nanosecond:
// each endpoint is floored to the ns (start_ns = floor(start_ps / 1000),
// end_ns = floor(end_ps / 1000), dur = end_ns - start_ns). Picoseconds are
// not kept: Perfetto rounds `ts` and `dur` to the ns separately, so
// sub-ns endpoints could break a nesting it checks; flooring both ends keeps
// every nesting (floor is monotone) and lanes are assigned on these ns
// values, so what nests in the file is what the viewers see.
//
// Memory bound. At most `max_events` slices and counter samples together are
// kept; later ones are not stored but counted, and the file records the
// count in "otherData": {"dropped_events": N}. Process and thread metadata
// are not counted (there is one per process and lane). Events that break a
// precondition below are asserted in debug builds and, in release builds,
// also dropped and counted there.
//
// Output is byte-deterministic: the same calls in the same order give the
// same text (processes in creation order, pids 1..P; lane tids numbered
// from P+1 in process, track-creation and lane order, so no tid equals a
// pid; events sorted by pid, then slices by tid, start, longer first,
// insertion, then counter samples by series, time, insertion).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text_sink.h"
#include "core/time.h"

namespace aifabric {

class ChromeTrace {
 public:
  static constexpr size_t kDefaultMaxEvents = 1'000'000;

  explicit ChromeTrace(size_t max_events = kDefaultMaxEvents);
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;
  ChromeTrace(ChromeTrace&&) = default;
  ChromeTrace& operator=(ChromeTrace&&) = default;

  // The id of the process named `name`, created on first use; the same name
  // gives the same id. Ids are 0, 1, 2, ... in creation order.
  int Process(std::string_view name);

  // The id of track `name` in `process`, created on first use; the same
  // (process, name) gives the same id. REQUIRES: `process` came from
  // Process(); otherwise returns -1 (which Slice() drops).
  int Track(int process, std::string_view name);

  // The slice [start, end) on `track`. `args` is a small flat JSON object
  // shown beside the slice, or null; any other JSON value is shown as
  // {"value": args}. REQUIRES: `track` came from Track(); start <= end.
  void Slice(int track, std::string_view name, std::string_view category, Time start, Time end,
             nlohmann::ordered_json args = {});

  // A sample of series `name` in `process`: the value from `at` until the
  // series' next sample. REQUIRES: `process` came from Process(); `value`
  // is finite.
  void Counter(int process, std::string_view name, Time at, double value);

  // Slices and counter samples stored (dropped ones not included).
  size_t slices() const { return slices_.size(); }
  size_t counters() const { return counters_.size(); }
  // Slices and samples not stored: beyond max_events, or invalid.
  size_t dropped_events() const { return dropped_events_; }

  // The trace: {"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}},
  // one event per line, written into `out` as it goes (what it holds
  // besides the events stored: their lane assignment and order, a few
  // ints per event).
  void Render(TextSink& out) const;
  // The same bytes as a string.
  std::string Render() const;

 private:
  struct TrackInfo {
    int process;
    std::string name;
  };
  struct SliceRecord {
    int track;
    int name;      // into strings_
    int category;  // into strings_
    int64_t start_ns;
    int64_t end_ns;
    nlohmann::ordered_json args;
  };
  struct CounterRecord {
    int process;
    int name;  // into strings_
    int64_t at_ns;
    double value;
  };

  // Whether one more event fits; counts it as dropped when it does not.
  bool Admit();
  int Intern(std::string_view text);

  // Fixed at construction.
  size_t max_events_;

  std::vector<std::string> process_names_;
  std::map<std::string, int, std::less<>> process_ids_;
  std::vector<TrackInfo> tracks_;
  std::map<std::pair<int, std::string>, int> track_ids_;
  // Slice names, categories and counter series, interned: a run has many
  // slices and few distinct names.
  std::vector<std::string> strings_;
  std::map<std::string, int, std::less<>> string_ids_;

  std::vector<SliceRecord> slices_;      // in insertion order
  std::vector<CounterRecord> counters_;  // in insertion order
  size_t dropped_events_ = 0;
};

}  // namespace aifabric
