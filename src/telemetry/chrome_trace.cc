#include "telemetry/chrome_trace.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <charconv>

#include "telemetry/number_text.h"

namespace aifabric {
namespace {

// floor(ps / 1000): the ns an instant falls in, also for negative times.
int64_t FloorNs(Time t) {
  const int64_t ps = t.ps();
  return ps >= 0 ? ps / 1000 : -((-ps + 999) / 1000);
}

// `ns` as microseconds with exactly three decimals ("12.345", "-0.002").
void AppendUs(TextSink& out, int64_t ns) {
  char buf[32];
  const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  char* at = buf;
  if (ns < 0) *at++ = '-';
  at = std::to_chars(at, buf + sizeof buf, magnitude / 1000).ptr;
  const uint64_t frac = magnitude % 1000;
  *at++ = '.';
  *at++ = static_cast<char>('0' + frac / 100);
  *at++ = static_cast<char>('0' + frac / 10 % 10);
  *at++ = static_cast<char>('0' + frac % 10);
  out.Append(std::string_view(buf, static_cast<size_t>(at - buf)));
}

// Invalid UTF-8 is replaced (U+FFFD) rather than thrown on.
template <typename Json>
std::string JsonText(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string JsonStringText(std::string_view text) { return JsonText(nlohmann::json(std::string(text))); }

// Splits slices (indices into `starts`/`ends`, already sorted by start, then
// longer first) into lanes in which they nest: each goes to the first lane
// whose open slices it nests inside, or whose open slices have all ended by
// its start; a new lane when there is none. Returns the lanes, each in the
// input order.
std::vector<std::vector<int>> AssignLanes(const std::vector<int>& sorted, const std::vector<int64_t>& starts,
                                          const std::vector<int64_t>& ends) {
  std::vector<std::vector<int>> lanes;
  std::vector<std::vector<int64_t>> open_ends;  // per lane, a stack of nested ends
  for (int s : sorted) {
    size_t lane = 0;
    for (; lane < lanes.size(); ++lane) {
      std::vector<int64_t>& stack = open_ends[lane];
      while (!stack.empty() && stack.back() <= starts[s]) stack.pop_back();
      // The stack's slices all started at or before this one (sorted), and
      // the innermost ends last among those still open above it.
      if (stack.empty() || ends[s] <= stack.back()) break;
    }
    if (lane == lanes.size()) {
      lanes.emplace_back();
      open_ends.emplace_back();
    }
    lanes[lane].push_back(s);
    open_ends[lane].push_back(ends[s]);
  }
  return lanes;
}

}  // namespace

ChromeTrace::ChromeTrace(size_t max_events) : max_events_(max_events) {}

int ChromeTrace::Process(std::string_view name) {
  if (auto it = process_ids_.find(name); it != process_ids_.end()) return it->second;
  const int id = static_cast<int>(process_names_.size());
  process_names_.emplace_back(name);
  process_ids_.emplace(std::string(name), id);
  return id;
}

int ChromeTrace::Track(int process, std::string_view name) {
  assert(process >= 0 && static_cast<size_t>(process) < process_names_.size());
  if (process < 0 || static_cast<size_t>(process) >= process_names_.size()) return -1;
  auto key = std::make_pair(process, std::string(name));
  if (auto it = track_ids_.find(key); it != track_ids_.end()) return it->second;
  const int id = static_cast<int>(tracks_.size());
  tracks_.push_back(TrackInfo{process, key.second});
  track_ids_.emplace(std::move(key), id);
  return id;
}

bool ChromeTrace::Admit() {
  if (slices_.size() + counters_.size() >= max_events_) {
    ++dropped_events_;
    return false;
  }
  return true;
}

int ChromeTrace::Intern(std::string_view text) {
  if (auto it = string_ids_.find(text); it != string_ids_.end()) return it->second;
  const int id = static_cast<int>(strings_.size());
  strings_.emplace_back(text);
  string_ids_.emplace(std::string(text), id);
  return id;
}

void ChromeTrace::Slice(int track, std::string_view name, std::string_view category, Time start, Time end,
                        nlohmann::ordered_json args) {
  const bool valid = track >= 0 && static_cast<size_t>(track) < tracks_.size() && start <= end;
  assert(valid);
  if (!valid) {
    ++dropped_events_;
    return;
  }
  if (!Admit()) return;
  if (!args.is_null() && !args.is_object()) args = nlohmann::ordered_json{{"value", std::move(args)}};
  slices_.push_back(SliceRecord{track, Intern(name), Intern(category), FloorNs(start), FloorNs(end), std::move(args)});
}

void ChromeTrace::Counter(int process, std::string_view name, Time at, double value) {
  const bool valid = process >= 0 && static_cast<size_t>(process) < process_names_.size() && std::isfinite(value);
  assert(valid);
  if (!valid) {
    ++dropped_events_;
    return;
  }
  if (!Admit()) return;
  counters_.push_back(CounterRecord{process, Intern(name), FloorNs(at), value});
}

void ChromeTrace::Render(TextSink& out) const {
  const int num_processes = static_cast<int>(process_names_.size());

  // Slices of each track, sorted by start, then longer first, then insertion.
  std::vector<std::vector<int>> by_track(tracks_.size());
  std::vector<int64_t> starts(slices_.size()), ends(slices_.size());
  for (size_t i = 0; i < slices_.size(); ++i) {
    by_track[static_cast<size_t>(slices_[i].track)].push_back(static_cast<int>(i));
    starts[i] = slices_[i].start_ns;
    ends[i] = slices_[i].end_ns;
  }
  std::vector<std::vector<std::vector<int>>> lanes(tracks_.size());
  for (size_t t = 0; t < tracks_.size(); ++t) {
    std::vector<int>& list = by_track[t];
    std::sort(list.begin(), list.end(), [&](int a, int b) {
      if (starts[a] != starts[b]) return starts[a] < starts[b];
      const int64_t dur_a = ends[a] - starts[a], dur_b = ends[b] - starts[b];
      if (dur_a != dur_b) return dur_a > dur_b;
      return a < b;
    });
    lanes[t] = AssignLanes(list, starts, ends);
    if (lanes[t].empty()) lanes[t].emplace_back();  // an empty track still gets its named thread
  }

  // Tracks of each process, in creation order.
  std::vector<std::vector<int>> process_tracks(process_names_.size());
  for (size_t t = 0; t < tracks_.size(); ++t) {
    process_tracks[static_cast<size_t>(tracks_[t].process)].push_back(static_cast<int>(t));
  }

  // Counter samples of each process, by series, then time, then insertion.
  std::vector<std::vector<int>> process_counters(process_names_.size());
  for (size_t i = 0; i < counters_.size(); ++i) {
    process_counters[static_cast<size_t>(counters_[i].process)].push_back(static_cast<int>(i));
  }
  for (std::vector<int>& list : process_counters) {
    std::sort(list.begin(), list.end(), [&](int a, int b) {
      const CounterRecord& x = counters_[a];
      const CounterRecord& y = counters_[b];
      if (x.name != y.name) return x.name < y.name;
      if (x.at_ns != y.at_ns) return x.at_ns < y.at_ns;
      return a < b;
    });
  }

  // Lane tids: numbered from P+1 so that none equals a pid (a counter
  // event carries no tid, and Perfetto then reads tid = pid).
  std::vector<int> first_tid(tracks_.size());
  int next_tid = num_processes + 1;
  for (const std::vector<int>& list : process_tracks) {
    for (int t : list) {
      first_tid[static_cast<size_t>(t)] = next_tid;
      next_tid += static_cast<int>(lanes[static_cast<size_t>(t)].size());
    }
  }

  // The interned strings as JSON text, escaped once (not once per event).
  std::vector<std::string> quoted(strings_.size());
  for (size_t i = 0; i < strings_.size(); ++i) quoted[i] = JsonStringText(strings_[i]);

  out.Append("{\"traceEvents\":[\n");
  bool first_event = true;
  auto begin_event = [&]() {
    if (!first_event) out.Append(",\n");
    first_event = false;
  };

  // Metadata: names and sort order of processes and lanes.
  for (int p = 0; p < num_processes; ++p) {
    begin_event();
    out.Append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":");
    AppendInt(out, p + 1);
    out.Append(",\"args\":{\"name\":");
    out.Append(JsonStringText(process_names_[static_cast<size_t>(p)]));
    out.Append("}}");
    begin_event();
    out.Append("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":");
    AppendInt(out, p + 1);
    out.Append(",\"args\":{\"sort_index\":");
    AppendInt(out, p);
    out.Append("}}");
    int thread_index = 0;
    for (int t : process_tracks[static_cast<size_t>(p)]) {
      const TrackInfo& track = tracks_[static_cast<size_t>(t)];
      for (size_t lane = 0; lane < lanes[static_cast<size_t>(t)].size(); ++lane) {
        const int tid = first_tid[static_cast<size_t>(t)] + static_cast<int>(lane);
        begin_event();
        out.Append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
        AppendInt(out, p + 1);
        out.Append(",\"tid\":");
        AppendInt(out, tid);
        out.Append(",\"args\":{\"name\":");
        out.Append(JsonStringText(lane == 0 ? track.name : track.name + " (" + std::to_string(lane + 1) + ")"));
        out.Append("}}");
        begin_event();
        out.Append("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":");
        AppendInt(out, p + 1);
        out.Append(",\"tid\":");
        AppendInt(out, tid);
        out.Append(",\"args\":{\"sort_index\":");
        AppendInt(out, thread_index++);
        out.Append("}}");
      }
    }
  }

  // Data: per process, the slices lane by lane, then the counter samples.
  for (int p = 0; p < num_processes; ++p) {
    for (int t : process_tracks[static_cast<size_t>(p)]) {
      const std::vector<std::vector<int>>& track_lanes = lanes[static_cast<size_t>(t)];
      for (size_t lane = 0; lane < track_lanes.size(); ++lane) {
        const int tid = first_tid[static_cast<size_t>(t)] + static_cast<int>(lane);
        for (int s : track_lanes[lane]) {
          const SliceRecord& slice = slices_[static_cast<size_t>(s)];
          begin_event();
          out.Append("{\"name\":");
          out.Append(quoted[static_cast<size_t>(slice.name)]);
          out.Append(",\"cat\":");
          out.Append(quoted[static_cast<size_t>(slice.category)]);
          out.Append(",\"ph\":\"X\",\"ts\":");
          AppendUs(out, slice.start_ns);
          out.Append(",\"dur\":");
          AppendUs(out, slice.end_ns - slice.start_ns);
          out.Append(",\"pid\":");
          AppendInt(out, p + 1);
          out.Append(",\"tid\":");
          AppendInt(out, tid);
          if (!slice.args.is_null()) {
            out.Append(",\"args\":");
            out.Append(JsonText(slice.args));
          }
          out.Append('}');
        }
      }
    }
    for (int c : process_counters[static_cast<size_t>(p)]) {
      const CounterRecord& counter = counters_[static_cast<size_t>(c)];
      begin_event();
      out.Append("{\"name\":");
      out.Append(quoted[static_cast<size_t>(counter.name)]);
      out.Append(",\"ph\":\"C\",\"ts\":");
      AppendUs(out, counter.at_ns);
      out.Append(",\"pid\":");
      AppendInt(out, p + 1);
      out.Append(",\"args\":{\"value\":");
      out.Append(JsonText(nlohmann::json(counter.value)));
      out.Append("}}");
    }
  }

  out.Append("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"aifabric\",\"ts_precision\":\"ns\",");
  out.Append("\"max_events\":");
  AppendInt(out, static_cast<int64_t>(max_events_));
  out.Append(",\"dropped_events\":");
  AppendInt(out, static_cast<int64_t>(dropped_events_));
  out.Append("}}\n");
}

std::string ChromeTrace::Render() const {
  StringSink out;
  Render(out);
  return out.Take();
}

}  // namespace aifabric
