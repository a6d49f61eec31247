#include "sched/job_trace.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace aifabric {
namespace {

const std::vector<std::string> kModels = {"llama3-8b", "llama3-70b"};

// The message of parsing `text`, which must fail.
std::string ErrorOf(const std::string& text, size_t max_jobs = kMaxTraceJobs) {
  Result<std::vector<TraceJob>> r = ParseJobTrace(text, "trace.csv", kModels, max_jobs);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(JobTraceTest, ParsesRequiredColumnsInAnyOrderAndSortsBySubmitThenInputOrder) {
  const std::string text =
      "gpus, model, job_id, iterations, submit_s\n"
      "8, llama3-70b, b, 100, 5.5\n"
      "\n"
      "1, llama3-8b, a, 7, 0\n"
      "16, llama3-70b, c, 3, 5.5\n";
  Result<std::vector<TraceJob>> r = ParseJobTrace(text, "trace.csv", kModels);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  // a (0 s) first; b and c tie at 5.5 s and keep their input order.
  EXPECT_EQ((*r)[0].job_id, "a");
  EXPECT_EQ((*r)[1].job_id, "b");
  EXPECT_EQ((*r)[2].job_id, "c");
  const TraceJob& b = (*r)[1];
  EXPECT_EQ(b.submit_s, 5.5);
  EXPECT_EQ(b.gpus, 8);
  EXPECT_EQ(b.model, "llama3-70b");
  EXPECT_EQ(b.iterations, 100u);
  // Optional columns absent: their defaults.
  EXPECT_EQ(b.priority, 0);
  EXPECT_EQ(b.kind, TraceJobKind::kTraining);
  EXPECT_EQ(b.duration_hint_s, 0.0);
}

TEST(JobTraceTest, ParsesOptionalColumns) {
  const std::string text =
      "job_id,submit_s,gpus,model,iterations,priority,kind,duration_hint_s\r\n"
      "s1,1e2,4,llama3-8b,18446744073709551615,-3,inference,3600.25\r\n";
  Result<std::vector<TraceJob>> r = ParseJobTrace(text, "trace.csv", kModels);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const TraceJob& j = r->at(0);
  EXPECT_EQ(j.submit_s, 100.0);
  EXPECT_EQ(j.iterations, UINT64_MAX);
  EXPECT_EQ(j.priority, -3);
  EXPECT_EQ(j.kind, TraceJobKind::kInference);
  EXPECT_EQ(j.duration_hint_s, 3600.25);
}

TEST(JobTraceTest, HeaderErrors) {
  EXPECT_EQ(ErrorOf(""), "trace.csv: empty file; expected a header line with job_id, submit_s, gpus, model, "
                         "iterations and optionally priority, kind, duration_hint_s");
  EXPECT_EQ(ErrorOf(" \n\n"), ErrorOf(""));
  EXPECT_EQ(ErrorOf("job_id,submit_s,gpus,model,iterations,user,vc\n"),
            "trace.csv:1: unknown column(s) 'user', 'vc'; expected job_id, submit_s, gpus, model, iterations and "
            "optionally priority, kind, duration_hint_s");
  EXPECT_EQ(ErrorOf("job_id,gpus,model\n"),
            "trace.csv:1: header lacks required column(s) submit_s, iterations; expected job_id, submit_s, gpus, "
            "model, iterations and optionally priority, kind, duration_hint_s");
  EXPECT_EQ(ErrorOf("job_id,submit_s,gpus,gpus,model,iterations\n"), "trace.csv:1: column 'gpus' appears twice");
  EXPECT_EQ(ErrorOf("job_id,submit_s,gpus,model,iterations\n"), "trace.csv: no jobs after the header line");
}

TEST(JobTraceTest, FieldErrorsNameLineFieldAndValue) {
  const std::string h = "job_id,submit_s,gpus,model,iterations\n";
  const std::string ok = "a,0,1,llama3-8b,10\n";
  EXPECT_EQ(ErrorOf(h + ok + "b,0,x,llama3-8b,10\n"), "trace.csv:3: gpus: expected a positive integer, got 'x'");
  EXPECT_EQ(ErrorOf(h + "b,0,0,llama3-8b,10\n"), "trace.csv:2: gpus: expected a positive integer, got '0'");
  EXPECT_EQ(ErrorOf(h + "b,0,-8,llama3-8b,10\n"), "trace.csv:2: gpus: expected a positive integer, got '-8'");
  EXPECT_EQ(ErrorOf(h + "b,0,1000001,llama3-8b,10\n"),
            "trace.csv:2: gpus: expected at most 1000000 GPUs, got '1000001'");
  EXPECT_EQ(ErrorOf(h + "b,-1,1,llama3-8b,10\n"), "trace.csv:2: submit_s: expected a finite number >= 0, got '-1'");
  EXPECT_EQ(ErrorOf(h + "b,inf,1,llama3-8b,10\n"),
            "trace.csv:2: submit_s: expected a finite number >= 0, got 'inf'");
  EXPECT_EQ(ErrorOf(h + "b,nan,1,llama3-8b,10\n"),
            "trace.csv:2: submit_s: expected a finite number >= 0, got 'nan'");
  EXPECT_EQ(ErrorOf(h + "b,0,1,llama3-8b,0\n"), "trace.csv:2: iterations: expected a positive integer, got '0'");
  EXPECT_EQ(ErrorOf(h + "b,0,1,llama3-8b,-5\n"), "trace.csv:2: iterations: expected a positive integer, got '-5'");
  EXPECT_EQ(ErrorOf(h + "b,0,1,gpt5,10\n"),
            "trace.csv:2: model: unknown model 'gpt5'; expected one of: llama3-8b, llama3-70b");
  EXPECT_EQ(ErrorOf(h + ",0,1,llama3-8b,10\n"), "trace.csv:2: job_id: expected a non-empty id");
  EXPECT_EQ(ErrorOf(h + "b,0,1,llama3-8b\n"), "trace.csv:2: expected 5 fields as in the header, got 4");
  EXPECT_EQ(ErrorOf(h + ok + "\n" + ok), "trace.csv:4: job_id: duplicate 'a' (first on line 2)");
  const std::string h2 = "job_id,submit_s,gpus,model,iterations,priority,kind,duration_hint_s\n";
  EXPECT_EQ(ErrorOf(h2 + "a,0,1,llama3-8b,10,high,training,0\n"),
            "trace.csv:2: priority: expected a 32-bit integer, got 'high'");
  EXPECT_EQ(ErrorOf(h2 + "a,0,1,llama3-8b,10,0,serving,0\n"),
            "trace.csv:2: kind: expected 'training' or 'inference', got 'serving'");
  EXPECT_EQ(ErrorOf(h2 + "a,0,1,llama3-8b,10,0,training,-2\n"),
            "trace.csv:2: duration_hint_s: expected a finite number >= 0, got '-2'");
}

TEST(JobTraceTest, RejectsMoreJobsThanTheLimit) {
  const std::string three = "job_id,submit_s,gpus,model,iterations\na,0,1,llama3-8b,1\nb,0,1,llama3-8b,1\n"
                            "c,0,1,llama3-8b,1\n";
  EXPECT_TRUE(ParseJobTrace(three, "trace.csv", kModels, 3).ok());
  EXPECT_EQ(ErrorOf(three, 2), "trace.csv:4: more than 2 jobs (the limit of a trace)");
}

TEST(JobTraceTest, WriteThenParseRoundTrips) {
  std::vector<TraceJob> jobs = {
      {"j0", 0.1, 1, "llama3-8b", 12345, 0, TraceJobKind::kTraining, 0},
      {"j1", 1.0 / 3.0, 64, "llama3-70b", 1, 7, TraceJobKind::kInference, 86400.123456789},
      {"j2", 1e9, 1000000, "llama3-70b", UINT64_MAX, -1, TraceJobKind::kTraining, 1e-300},
  };
  const std::string csv = WriteJobTrace(jobs);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "job_id,submit_s,gpus,model,iterations,priority,kind,duration_hint_s");
  Result<std::vector<TraceJob>> back = ParseJobTrace(csv, "written", kModels);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, jobs);  // exact, bit for bit: the shortest form round-trips
  EXPECT_EQ(WriteJobTrace(*back), csv);
}

TEST(JobTraceTest, ReadJobTraceNamesAMissingFile) {
  Result<std::vector<TraceJob>> r = ReadJobTrace("/nonexistent/trace.csv", kModels);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("/nonexistent/trace.csv: cannot open file", 0), 0u) << r.error().message;
}

}  // namespace
}  // namespace aifabric
