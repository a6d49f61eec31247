// GpuAllocation: hand-worked bookkeeping, every refusal, and a randomized
// allocate/release sequence checked against a plain reference (a map from
// GPU to owner) after every step.
#include "sched/gpu_allocation.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/rng.h"

namespace aifabric {
namespace {

TEST(GpuAllocation, AllocateAndReleaseUpdateCounts) {
  GpuAllocation a(3, 4);  // GPUs 0-11; server 1 holds 4-7
  EXPECT_EQ(a.gpus(), 12);
  EXPECT_EQ(a.free_count(), 12);
  const std::vector<GpuId> job_a = {5, 4, 9};
  ASSERT_TRUE(a.Allocate("a", job_a).ok());
  EXPECT_EQ(a.free_count(), 9);
  EXPECT_EQ(a.used_count(), 3);
  EXPECT_EQ(a.free_on_server(0), 4);
  EXPECT_EQ(a.free_on_server(1), 2);
  EXPECT_EQ(a.free_on_server(2), 3);
  EXPECT_FALSE(a.server_fully_free(1));
  EXPECT_EQ(a.owner(9), "a");
  EXPECT_EQ(a.owner(8), "");
  EXPECT_EQ(a.FreeGpusOnServer(1), (std::vector<GpuId>{6, 7}));
  EXPECT_EQ(std::vector<GpuId>(a.gpus_of("a").begin(), a.gpus_of("a").end()), job_a);

  ASSERT_TRUE(a.Allocate("b", std::vector<GpuId>{0}).ok());
  EXPECT_EQ(a.Jobs(), (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(a.Release("a").ok());
  EXPECT_EQ(a.free_count(), 11);
  EXPECT_TRUE(a.server_fully_free(1));
  EXPECT_TRUE(a.is_free(9));
  EXPECT_TRUE(a.gpus_of("a").empty());
  EXPECT_EQ(a.FreeGpus().size(), 11u);
  EXPECT_EQ(a.FreeGpus().front(), 1);
  // A released job id can be used again.
  EXPECT_TRUE(a.Allocate("a", std::vector<GpuId>{1}).ok());
  EXPECT_EQ(a.owner(1), "a");
}

TEST(GpuAllocation, RefusesAndChangesNothing) {
  GpuAllocation a(2, 2);  // GPUs 0-3
  ASSERT_TRUE(a.Allocate("x", std::vector<GpuId>{1}).ok());
  struct Case {
    std::string job;
    std::vector<GpuId> gpus;
    std::string expect_in_message;
  };
  const std::vector<Case> cases = {
      {"y", {0, 1}, "already held by job 'x'"},
      {"y", {2, 4}, "out of range (expected 0..3)"},
      {"y", {-1}, "out of range"},
      {"y", {2, 3, 2}, "listed twice"},
      {"y", {}, "no GPUs"},
      {"", {2}, "job id is empty"},
      {"x", {2}, "already holds GPUs"},
  };
  for (const Case& c : cases) {
    Status s = a.Allocate(c.job, c.gpus);
    ASSERT_FALSE(s.ok()) << c.expect_in_message;
    EXPECT_NE(s.error().message.find(c.expect_in_message), std::string::npos) << s.error().message;
    // Nothing changed: only GPU 1 is used, by x.
    EXPECT_EQ(a.free_count(), 3);
    EXPECT_EQ(a.FreeGpus(), (std::vector<GpuId>{0, 2, 3}));
    EXPECT_EQ(a.Jobs(), (std::vector<std::string>{"x"}));
  }
  EXPECT_FALSE(a.Release("nobody").ok());
}

// 300 random steps on 5 servers x 4 GPUs: allocate a random subset (which
// may include taken GPUs or duplicates) or release a random job. The
// reference accepts an allocation only if every GPU is in range, free and
// distinct; after each step both must agree GPU by GPU.
TEST(GpuAllocation, RandomSequenceMatchesReferenceAndNeverOverAllocates) {
  constexpr int kServers = 5, kPerServer = 4, kGpus = kServers * kPerServer;
  GpuAllocation a(kServers, kPerServer);
  std::map<GpuId, std::string> ref;  // used GPU -> owner
  std::map<std::string, std::vector<GpuId>> ref_jobs;
  Rng rng(7);
  int next_job = 0, accepted = 0, refused = 0;
  for (int step = 0; step < 300; ++step) {
    if (!ref_jobs.empty() && rng.Below(3) == 0) {
      auto it = ref_jobs.begin();
      std::advance(it, static_cast<long>(rng.Below(ref_jobs.size())));
      ASSERT_TRUE(a.Release(it->first).ok());
      for (GpuId g : it->second) ref.erase(g);
      ref_jobs.erase(it);
    } else {
      const std::string job = std::string("j").append(std::to_string(next_job++));
      std::vector<GpuId> gpus(1 + rng.Below(6));
      for (GpuId& g : gpus) g = static_cast<GpuId>(rng.Below(kGpus + 1));  // kGpus is out of range
      bool ok = true;
      std::map<GpuId, int> seen;
      for (GpuId g : gpus) ok = ok && g < kGpus && ref.count(g) == 0 && seen[g]++ == 0;
      EXPECT_EQ(a.Allocate(job, gpus).ok(), ok) << "step " << step;
      if (ok) {
        for (GpuId g : gpus) ref[g] = job;
        ref_jobs[job] = gpus;
        ++accepted;
      } else {
        ++refused;
      }
    }
    ASSERT_EQ(a.free_count(), kGpus - static_cast<int>(ref.size()));
    for (GpuId g = 0; g < kGpus; ++g) {
      auto it = ref.find(g);
      ASSERT_EQ(a.owner(g), it == ref.end() ? "" : it->second) << "step " << step << " gpu " << g;
    }
    for (int s = 0; s < kServers; ++s) {
      int used = 0;
      for (const auto& [g, owner] : ref) used += g / kPerServer == s;
      ASSERT_EQ(a.free_on_server(s), kPerServer - used);
    }
  }
  // The sequence exercised both outcomes.
  EXPECT_GT(accepted, 20);
  EXPECT_GT(refused, 20);
}

}  // namespace
}  // namespace aifabric
