// A job trace is the list of jobs a scheduling replay submits to a cluster:
// when each job arrives, how many GPUs it asks for, which catalog model it
// trains (or serves) and for how many iterations. This header defines the
// job record and its CSV form, read and written here. Pure functions of
// their inputs; thread-safe.
//
// The CSV: one header line naming the columns, in any order, then one job
// per line. Required columns: job_id,submit_s,gpus,model,iterations.
// Optional: priority (integer, default 0; larger = more important),
// kind ("training", the default, or "inference"), duration_hint_s
// (expected run time in seconds, 0 = unknown). Fields are separated by
// commas, with spaces around them ignored; there is no quoting, so a job_id
// cannot contain a comma. Blank lines are skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace aifabric {

// The bounds the reader enforces, so a hostile file cannot ask for unbounded
// memory or a job larger than any cluster.
inline constexpr size_t kMaxTraceJobs = 1'000'000;
inline constexpr int32_t kMaxTraceJobGpus = 1'000'000;

enum class TraceJobKind { kTraining, kInference };

struct TraceJob {
  std::string job_id;
  double submit_s = 0;       // arrival time, seconds from the trace start; >= 0
  int32_t gpus = 0;          // GPUs requested; 1..kMaxTraceJobGpus
  std::string model;         // a model catalog name
  uint64_t iterations = 0;   // training steps (inference: batches); > 0
  int32_t priority = 0;      // optional column; larger = more important
  TraceJobKind kind = TraceJobKind::kTraining;  // optional column
  double duration_hint_s = 0;  // optional column; 0 = unknown

  bool operator==(const TraceJob&) const = default;
};

// "training" or "inference".
std::string_view TraceJobKindName(TraceJobKind kind);

// Parses a trace CSV held in `text`; `origin` names it in messages
// ("trace.csv:17: gpus: expected a positive integer, got 'x'"). Every model
// must be one of `known_models` (the integrator passes the names of
// BuiltInModels(), workload/model_catalog.h). Jobs come back sorted by
// (submit_s, input order). At most `max_jobs` jobs are accepted; the
// parameter exists so tests can exercise the limit cheaply.
Result<std::vector<TraceJob>> ParseJobTrace(std::string_view text, const std::string& origin,
                                            std::span<const std::string> known_models,
                                            size_t max_jobs = kMaxTraceJobs);

// Reads the file at `path` and parses it as above, naming the path in
// messages.
Result<std::vector<TraceJob>> ReadJobTrace(const std::string& path, std::span<const std::string> known_models);

// The CSV of `jobs`, all eight columns, in the given order; numbers in their
// shortest exact form, so ParseJobTrace gives the jobs back unchanged (up to
// the sort by submit_s).
// REQUIRES: job ids and model names hold no comma, line break, or leading or
// trailing space or tab.
std::string WriteJobTrace(std::span<const TraceJob> jobs);

}  // namespace aifabric
