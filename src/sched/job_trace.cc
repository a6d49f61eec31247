#include "sched/job_trace.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "core/text_file.h"

namespace aifabric {
namespace {

enum Column { kJobId, kSubmit, kGpus, kModel, kIterations, kPriority, kKind, kDurationHint, kColumnCount };
constexpr std::array<std::string_view, kColumnCount> kColumnNames = {
    "job_id", "submit_s", "gpus", "model", "iterations", "priority", "kind", "duration_hint_s"};
constexpr int kRequiredColumns = kPriority;  // the first five are required
constexpr std::string_view kColumnsExpected =
    "job_id, submit_s, gpus, model, iterations and optionally priority, kind, duration_hint_s";

// Appends `item` to the comma-separated list `list`.
void AppendListItem(std::string& list, std::string_view item) {
  if (!list.empty()) list += ", ";
  list += item;
}

bool ParseDouble(std::string_view text, double& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

bool ParseUint64(std::string_view text, uint64_t& out) {
  if (text.empty() || text.front() == '-' || text.front() == '+') return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::string AppendDouble(double v) {
  std::array<char, 64> buf;
  auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  assert(ec == std::errc());
  return std::string(buf.data(), ptr);
}

// Maps each column of the header to its Column, or names what is wrong.
Result<std::vector<Column>> ParseHeader(const TextLine& line, const std::string& origin) {
  std::vector<Column> columns;
  std::vector<std::string_view> unknown;
  std::array<bool, kColumnCount> seen{};
  for (std::string_view name : SplitTrimmed(line.text, ',')) {
    const auto it = std::find(kColumnNames.begin(), kColumnNames.end(), name);
    if (it == kColumnNames.end()) {
      unknown.push_back(name);
      continue;
    }
    const Column c = static_cast<Column>(it - kColumnNames.begin());
    if (seen[c]) return Error{FileLine(origin, line.number) + "column " + Quote(name) + " appears twice"};
    seen[c] = true;
    columns.push_back(c);
  }
  if (!unknown.empty()) {
    std::string names;
    for (std::string_view u : unknown) AppendListItem(names, Quote(u));
    return Error{FileLine(origin, line.number) + "unknown column(s) " + names + "; expected " +
                 std::string(kColumnsExpected)};
  }
  std::string missing;
  for (int c = 0; c < kRequiredColumns; ++c) {
    if (!seen[c]) AppendListItem(missing, kColumnNames[c]);
  }
  if (!missing.empty()) {
    return Error{FileLine(origin, line.number) + "header lacks required column(s) " + missing + "; expected " +
                 std::string(kColumnsExpected)};
  }
  return columns;
}

// Fills field `c` of `job` from `text`; the error is "<field>: expected ...".
Status ParseField(Column c, std::string_view text, std::span<const std::string> known_models, TraceJob& job) {
  const std::string got = ", got " + Quote(text);
  const std::string field = std::string(kColumnNames[c]) + ": ";
  switch (c) {
    case kJobId:
      if (text.empty()) return Error{field + "expected a non-empty id"};
      job.job_id = std::string(text);
      return Status::Ok();
    case kSubmit:
    case kDurationHint: {
      double v = 0;
      if (!ParseDouble(text, v) || !std::isfinite(v) || v < 0) {
        return Error{field + "expected a finite number >= 0" + got};
      }
      (c == kSubmit ? job.submit_s : job.duration_hint_s) = v;
      return Status::Ok();
    }
    case kGpus: {
      int64_t v = 0;
      if (!ParseInt64(text, v) || v <= 0) return Error{field + "expected a positive integer" + got};
      if (v > kMaxTraceJobGpus) {
        return Error{field + "expected at most " + std::to_string(kMaxTraceJobGpus) + " GPUs" + got};
      }
      job.gpus = static_cast<int32_t>(v);
      return Status::Ok();
    }
    case kModel: {
      if (std::find(known_models.begin(), known_models.end(), text) == known_models.end()) {
        std::string names;
        for (const std::string& m : known_models) AppendListItem(names, m);
        return Error{field + "unknown model " + Quote(text) + "; expected one of: " + names};
      }
      job.model = std::string(text);
      return Status::Ok();
    }
    case kIterations: {
      uint64_t v = 0;
      if (!ParseUint64(text, v) || v == 0) return Error{field + "expected a positive integer" + got};
      job.iterations = v;
      return Status::Ok();
    }
    case kPriority: {
      int64_t v = 0;
      if (!ParseInt64(text, v) || v < INT32_MIN || v > INT32_MAX) {
        return Error{field + "expected a 32-bit integer" + got};
      }
      job.priority = static_cast<int32_t>(v);
      return Status::Ok();
    }
    case kKind:
      if (text == "training") {
        job.kind = TraceJobKind::kTraining;
      } else if (text == "inference") {
        job.kind = TraceJobKind::kInference;
      } else {
        return Error{field + "expected 'training' or 'inference'" + got};
      }
      return Status::Ok();
    case kColumnCount:
      break;
  }
  assert(false);
  return Status::Ok();
}

}  // namespace

std::string_view TraceJobKindName(TraceJobKind kind) {
  return kind == TraceJobKind::kInference ? "inference" : "training";
}

Result<std::vector<TraceJob>> ParseJobTrace(std::string_view text, const std::string& origin,
                                            std::span<const std::string> known_models, size_t max_jobs) {
  std::vector<TextLine> lines = SplitLines(text);
  auto blank = [](const TextLine& l) { return SplitWhitespace(l.text).empty(); };
  auto first = std::find_if_not(lines.begin(), lines.end(), blank);
  if (first == lines.end()) {
    return Error{origin + ": empty file; expected a header line with " + std::string(kColumnsExpected)};
  }
  Result<std::vector<Column>> columns = ParseHeader(*first, origin);
  if (!columns.ok()) return columns.error();

  std::vector<TraceJob> jobs;
  std::unordered_map<std::string, int> first_line_of_id;
  for (auto it = first + 1; it != lines.end(); ++it) {
    if (blank(*it)) continue;
    const std::string where = FileLine(origin, it->number);
    if (jobs.size() == max_jobs) {
      return Error{where + "more than " + std::to_string(max_jobs) + " jobs (the limit of a trace)"};
    }
    const std::vector<std::string_view> fields = SplitTrimmed(it->text, ',');
    if (fields.size() != columns->size()) {
      return Error{where + "expected " + std::to_string(columns->size()) + " fields as in the header, got " +
                   std::to_string(fields.size())};
    }
    TraceJob job;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (Status s = ParseField((*columns)[i], fields[i], known_models, job); !s.ok()) {
        return Error{where + s.error().message};
      }
    }
    const auto [pos, inserted] = first_line_of_id.emplace(job.job_id, it->number);
    if (!inserted) {
      return Error{where + "job_id: duplicate " + Quote(job.job_id) + " (first on line " +
                   std::to_string(pos->second) + ")"};
    }
    jobs.push_back(std::move(job));
  }
  if (jobs.empty()) return Error{origin + ": no jobs after the header line"};
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.submit_s < b.submit_s; });
  return jobs;
}

Result<std::vector<TraceJob>> ReadJobTrace(const std::string& path, std::span<const std::string> known_models) {
  Result<std::string> text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseJobTrace(*text, path, known_models);
}

std::string WriteJobTrace(std::span<const TraceJob> jobs) {
  std::string out;
  for (int c = 0; c < kColumnCount; ++c) {
    if (c > 0) out += ',';
    out += kColumnNames[c];
  }
  out += '\n';
  for (const TraceJob& job : jobs) {
    assert(job.job_id.find_first_of(",\n\r") == std::string::npos);
    assert(job.model.find_first_of(",\n\r") == std::string::npos);
    out += job.job_id;
    out += ',';
    out += AppendDouble(job.submit_s);
    out += ',';
    out += std::to_string(job.gpus);
    out += ',';
    out += job.model;
    out += ',';
    out += std::to_string(job.iterations);
    out += ',';
    out += std::to_string(job.priority);
    out += ',';
    out += TraceJobKindName(job.kind);
    out += ',';
    out += AppendDouble(job.duration_hint_s);
    out += '\n';
  }
  return out;
}

}  // namespace aifabric
