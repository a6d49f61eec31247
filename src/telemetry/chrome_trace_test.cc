#include "telemetry/chrome_trace.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/rng.h"
#include "telemetry/telemetry_test_util.h"

namespace aifabric {
namespace {

using nlohmann::json;

// A µs value of the file back in integer ns (the file prints three decimals).
int64_t Ns(const json& us) { return std::llround(us.get<double>() * 1000.0); }

// floor(ps / 1000), worked independently of the writer's helper.
int64_t FloorNs(int64_t ps) { return static_cast<int64_t>(std::floor(static_cast<double>(ps) / 1000.0)); }

// prefix + i. (Not `"s" + std::to_string(i)`: g++ 12 warns falsely on it, -Wrestrict.)
std::string Numbered(std::string prefix, int i) {
  prefix += std::to_string(i);
  return prefix;
}

// tid -> thread name, from the "thread_name" metadata.
std::map<int, std::string> ThreadNames(const json& trace) {
  std::map<int, std::string> names;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"].get<int>()] = e["args"]["name"];
  }
  return names;
}

TEST(ChromeTrace, SmallTraceMatchesHandWrittenText) {
  ChromeTrace trace;
  const int rank = trace.Process("rank 0");  // pid 1
  const int nic = trace.Process("NIC h1");   // pid 2
  const int collectives = trace.Track(rank, "collectives");
  const int transfers = trace.Track(nic, "transfers");
  // Inserted inner first: the file still lists the enclosing slice first.
  trace.Slice(collectives, "phase 1", "collective", Time::FromNs(2), Time::FromNs(3));
  // 5,999 ps ends in ns 5 (floored): dur 5 - 1 = 4 ns.
  trace.Slice(collectives, "all_reduce", "collective", Time::FromPs(1000), Time::FromPs(5999), {{"bytes", 1024}});
  // 12,345,678,901 ps = 12,345,678 ns = 12345.678 µs; ends in ns 12,345,679.
  trace.Slice(transfers, "flow \"7\"", "transfer", Time::FromPs(12'345'678'901), Time::FromPs(12'345'679'999));
  trace.Counter(nic, "queue_bytes port 3", Time::FromPs(2500), 4096);
  trace.Counter(nic, "queue_bytes port 3", Time::Zero(), 0);
  EXPECT_EQ(trace.slices(), 3u);
  EXPECT_EQ(trace.counters(), 2u);

  // Two processes, so lane tids start at 3: collectives 3, transfers 4.
  const std::string expected =
      "{\"traceEvents\":[\n"
      "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"rank 0\"}},\n"
      "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":1,\"args\":{\"sort_index\":0}},\n"
      "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":3,\"args\":{\"name\":\"collectives\"}},\n"
      "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":3,\"args\":{\"sort_index\":0}},\n"
      "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"args\":{\"name\":\"NIC h1\"}},\n"
      "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":2,\"args\":{\"sort_index\":1}},\n"
      "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2,\"tid\":4,\"args\":{\"name\":\"transfers\"}},\n"
      "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":2,\"tid\":4,\"args\":{\"sort_index\":0}},\n"
      "{\"name\":\"all_reduce\",\"cat\":\"collective\",\"ph\":\"X\",\"ts\":0.001,\"dur\":0.004,\"pid\":1,\"tid\":3,"
      "\"args\":{\"bytes\":1024}},\n"
      "{\"name\":\"phase 1\",\"cat\":\"collective\",\"ph\":\"X\",\"ts\":0.002,\"dur\":0.001,\"pid\":1,\"tid\":3},\n"
      "{\"name\":\"flow \\\"7\\\"\",\"cat\":\"transfer\",\"ph\":\"X\",\"ts\":12345.678,\"dur\":0.001,\"pid\":2,"
      "\"tid\":4},\n"
      "{\"name\":\"queue_bytes port 3\",\"ph\":\"C\",\"ts\":0.000,\"pid\":2,\"args\":{\"value\":0.0}},\n"
      "{\"name\":\"queue_bytes port 3\",\"ph\":\"C\",\"ts\":0.002,\"pid\":2,\"args\":{\"value\":4096.0}}\n"
      "],\n"
      "\"displayTimeUnit\":\"ns\",\n"
      "\"otherData\":{\"generator\":\"aifabric\",\"ts_precision\":\"ns\",\"max_events\":1000000,"
      "\"dropped_events\":0}}\n";
  EXPECT_EQ(trace.Render(), expected);
  // Streamed, through a buffer smaller than one event.
  EXPECT_EQ(telemetry_testing::ThroughFile([&](TextSink& out) { trace.Render(out); }, 10), expected);
}

TEST(ChromeTrace, SameNamesGiveSameIds) {
  ChromeTrace trace;
  const int a = trace.Process("rank 0");
  const int b = trace.Process("rank 1");
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(trace.Process("rank 0"), a);
  const int ta = trace.Track(a, "compute");
  const int tb = trace.Track(b, "compute");
  EXPECT_NE(ta, tb);
  EXPECT_EQ(trace.Track(a, "compute"), ta);
  EXPECT_EQ(trace.Track(b, "compute"), tb);
}

TEST(ChromeTrace, OverlappingSlicesGoToNamedLanes) {
  ChromeTrace trace;
  const int track = trace.Track(trace.Process("NIC h0"), "transfers");
  // Worked by hand, in start order: A [0,10) opens lane 1. B [5,15) overlaps
  // A without nesting: lane 2. D [6,12) does not fit inside A (ends after
  // 10) but does inside B: lane 2. C [10,12) starts when A ends: lane 1.
  trace.Slice(track, "A", "t", Time::FromNs(0), Time::FromNs(10));
  trace.Slice(track, "B", "t", Time::FromNs(5), Time::FromNs(15));
  trace.Slice(track, "C", "t", Time::FromNs(10), Time::FromNs(12));
  trace.Slice(track, "D", "t", Time::FromNs(6), Time::FromNs(12));
  const json parsed = json::parse(trace.Render());

  // One process, so the lanes are tids 2 and 3.
  EXPECT_EQ(ThreadNames(parsed), (std::map<int, std::string>{{2, "transfers"}, {3, "transfers (2)"}}));
  std::map<int, std::vector<std::string>> by_tid;
  for (const json& e : parsed["traceEvents"]) {
    if (e["ph"] == "X") by_tid[e["tid"].get<int>()].push_back(e["name"]);
  }
  EXPECT_EQ(by_tid, (std::map<int, std::vector<std::string>>{{2, {"A", "C"}}, {3, {"B", "D"}}}));
}

TEST(ChromeTrace, RandomSlicesNestPerTidAndRoundTripToTheNs) {
  struct Input {
    int process, track;
    int64_t start_ps, end_ps;
  };
  Rng rng(20240611);
  ChromeTrace trace;
  std::vector<int> tracks;
  std::vector<int> process_of_track;
  std::vector<std::string> track_names;
  for (int p = 0; p < 3; ++p) {
    // A quote and a newline in a name, to check escaping.
    const int process = trace.Process(p == 2 ? "switch \"s4\"\n" : "rank " + std::to_string(p));
    for (const char* name : {"collectives", "transfers"}) {
      tracks.push_back(trace.Track(process, name));
      process_of_track.push_back(process);
      track_names.push_back(name);
    }
  }
  std::vector<Input> inputs;
  for (int i = 0; i < 600; ++i) {
    const int k = static_cast<int>(rng.Below(tracks.size()));
    const int64_t start = static_cast<int64_t>(rng.Below(200'000));
    // One in eight zero-length, others up to 30 ns with sub-ns endpoints.
    const int64_t length = rng.Below(8) == 0 ? 0 : static_cast<int64_t>(rng.Below(30'000));
    inputs.push_back(Input{process_of_track[k], k, start, start + length});
    trace.Slice(tracks[k], Numbered("s", i), "cat", Time::FromPs(start), Time::FromPs(start + length),
                {{"i", i}});
  }
  std::vector<std::pair<int, double>> samples;  // (process, value) by index
  for (int i = 0; i < 50; ++i) {
    const int process = static_cast<int>(rng.Below(3));
    const double value = std::floor(rng.Uniform() * 1e6) / 7.0;  // not a short decimal
    samples.emplace_back(process, value);
    trace.Counter(process, Numbered("q", i), Time::FromPs(static_cast<int64_t>(rng.Below(200'000))), value);
  }
  const std::string text = trace.Render();
  const json parsed = json::parse(text);  // throws, failing the test, if not JSON

  std::map<int, std::string> process_names;  // pid -> name
  for (const json& e : parsed["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") process_names[e["pid"].get<int>()] = e["args"]["name"];
  }
  EXPECT_EQ(process_names.at(3), "switch \"s4\"\n");
  const std::map<int, std::string> thread_names = ThreadNames(parsed);
  // Perfetto reads a counter's missing tid as its pid: no lane may take one.
  for (const auto& [tid, name] : thread_names) EXPECT_EQ(process_names.count(tid), 0u) << "tid " << tid;

  std::vector<int> seen(inputs.size(), 0);
  std::map<int, std::vector<std::pair<int64_t, int64_t>>> by_tid;  // file order
  std::map<int, int> pid_of_tid;
  for (const json& e : parsed["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const int tid = e["tid"].get<int>();
    const int pid = e["pid"].get<int>();
    ASSERT_TRUE(thread_names.count(tid)) << "tid " << tid << " has no thread_name";
    EXPECT_TRUE(pid_of_tid.emplace(tid, pid).first->second == pid) << "tid " << tid << " in two pids";
    const int i = e["args"]["i"].get<int>();
    ASSERT_GE(i, 0);
    ASSERT_LT(i, static_cast<int>(inputs.size()));
    ++seen[i];
    const Input& in = inputs[i];
    EXPECT_EQ(e["name"], Numbered("s", i));
    EXPECT_EQ(pid, in.process + 1);
    // The lane's name is the track's, with " (k)" after the first lane.
    const std::string& lane = thread_names.at(tid);
    const std::string& base = track_names[in.track];
    ASSERT_EQ(lane.substr(0, base.size()), base) << lane;
    const std::string suffix = lane.substr(base.size());
    if (!suffix.empty()) {
      ASSERT_GE(suffix.size(), 4u) << lane;
      EXPECT_EQ(suffix.substr(0, 2), " (") << lane;
      EXPECT_EQ(suffix.back(), ')') << lane;
      EXPECT_GE(std::stoi(suffix.substr(2)), 2) << lane;
    }
    const int64_t ts = Ns(e["ts"]), dur = Ns(e["dur"]);
    EXPECT_EQ(ts, FloorNs(in.start_ps)) << i;
    EXPECT_EQ(ts + dur, FloorNs(in.end_ps)) << i;
    by_tid[tid].emplace_back(ts, ts + dur);
  }
  for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "slice " << i;
  EXPECT_GT(by_tid.size(), tracks.size()) << "600 random slices on 6 tracks should need extra lanes";

  // Per tid, in file order (which must be start order, longer first), a
  // stack check: each slice starts after the open ones end, or ends inside
  // the innermost open one.
  for (const auto& [tid, slices] : by_tid) {
    std::vector<int64_t> open_ends;
    for (size_t k = 0; k < slices.size(); ++k) {
      const auto [start, end] = slices[k];
      if (k > 0) {
        const auto [prev_start, prev_end] = slices[k - 1];
        EXPECT_TRUE(prev_start < start || (prev_start == start && prev_end >= end)) << "tid " << tid;
      }
      while (!open_ends.empty() && open_ends.back() <= start) open_ends.pop_back();
      EXPECT_TRUE(open_ends.empty() || end <= open_ends.back()) << "tid " << tid << " slice [" << start << ", " << end
                                                                 << ") overlaps an open slice ending at "
                                                                 << open_ends.back();
      open_ends.push_back(end);
    }
  }

  // Every counter sample once, in its process, with its exact value.
  std::vector<int> counter_seen(samples.size(), 0);
  for (const json& e : parsed["traceEvents"]) {
    if (e["ph"] != "C") continue;
    const int i = std::stoi(e["name"].get<std::string>().substr(1));
    ++counter_seen[i];
    EXPECT_EQ(e["pid"].get<int>(), samples[i].first + 1);
    EXPECT_EQ(e["args"]["value"].get<double>(), samples[i].second);
  }
  for (size_t i = 0; i < counter_seen.size(); ++i) EXPECT_EQ(counter_seen[i], 1) << "counter " << i;
  EXPECT_EQ(parsed["otherData"]["dropped_events"], 0);
  EXPECT_EQ(text, trace.Render()) << "rendering twice differs";
  EXPECT_EQ(telemetry_testing::ThroughFile([&](TextSink& out) { trace.Render(out); }, 100), text);
}

TEST(ChromeTrace, EventsBeyondMaxAreDroppedAndCounted) {
  ChromeTrace trace(/*max_events=*/3);
  const int process = trace.Process("rank 0");
  const int track = trace.Track(process, "compute");
  trace.Slice(track, "a", "c", Time::FromNs(0), Time::FromNs(1));
  trace.Counter(process, "q", Time::FromNs(0), 1);
  trace.Slice(track, "b", "c", Time::FromNs(1), Time::FromNs(2));
  trace.Slice(track, "c", "c", Time::FromNs(2), Time::FromNs(3));  // 4th: dropped
  trace.Counter(process, "q", Time::FromNs(3), 2);                  // 5th: dropped
  EXPECT_EQ(trace.slices(), 2u);
  EXPECT_EQ(trace.counters(), 1u);
  EXPECT_EQ(trace.dropped_events(), 2u);
  const json parsed = json::parse(trace.Render());
  EXPECT_EQ(parsed["otherData"]["dropped_events"], 2);
  EXPECT_EQ(parsed["otherData"]["max_events"], 3);
  std::vector<std::string> kept;
  for (const json& e : parsed["traceEvents"]) {
    if (e["ph"] != "M") kept.push_back(e["name"]);
  }
  EXPECT_EQ(kept, (std::vector<std::string>{"a", "b", "q"}));
}

TEST(ChromeTrace, InvalidEventsAssertInDebugAndAreDroppedInRelease) {
  ChromeTrace trace;
  const int process = trace.Process("rank 0");
  const int track = trace.Track(process, "compute");
  EXPECT_DEBUG_DEATH(trace.Slice(track, "backwards", "c", Time::FromNs(2), Time::FromNs(1)), "valid");
  EXPECT_DEBUG_DEATH(trace.Slice(track + 1, "no track", "c", Time::FromNs(0), Time::FromNs(1)), "valid");
  EXPECT_DEBUG_DEATH(trace.Counter(process, "q", Time::FromNs(0), std::nan("")), "valid");
  EXPECT_EQ(trace.slices(), 0u);
  EXPECT_EQ(trace.counters(), 0u);
#ifdef NDEBUG
  EXPECT_EQ(trace.dropped_events(), 3u);  // in debug builds the statements ran in dying children
#endif
}

// 40,000 slices and 20,000 counter samples, about 5 MB: the file crosses
// the 1 MiB buffer four times and holds the rendered text.
TEST(ChromeTrace, ALargeTraceThroughAFileIsTheRenderedText) {
  ChromeTrace trace;
  for (int p = 0; p < 100; ++p) {
    const int process = trace.Process(Numbered("NIC h", p));
    const int track = trace.Track(process, "transfers");
    for (int i = 0; i < 400; ++i) {
      trace.Slice(track, Numbered("to h", (p + i) % 100), "transfer", Time::FromNs(1000 * i),
                  Time::FromNs(1000 * i + 1500), {{"flow_id", 400 * p + i}, {"bytes", 1 << 20}});
    }
    for (int i = 0; i < 200; ++i) trace.Counter(process, "queue bytes", Time::FromNs(500 * i), 4000.0 * (i % 9));
  }
  const std::string expected = trace.Render();
  EXPECT_GT(expected.size(), 4 * FileSink::kDefaultBufferBytes);
  const std::string streamed = telemetry_testing::ThroughFile([&](TextSink& out) { trace.Render(out); });
  EXPECT_TRUE(streamed == expected) << streamed.size() << " bytes streamed, " << expected.size() << " rendered";
}

}  // namespace
}  // namespace aifabric
