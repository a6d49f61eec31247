#include "sched/cluster_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/rng.h"
#include "sched/placement_policy.h"
#include "sched/sched_test_cluster.h"
#include "workload/model_catalog.h"
#include "workload/model_costs.h"

namespace aifabric {
namespace {

using sched_testing::Layout;

// `leaves` leaves of 2 one-GPU servers (h0 h1 on leaf0, h2 h3 on leaf1,
// ...), one spine; every link 100G, no latency. A leaf's one uplink is
// shared by its two servers (2:1).
Topology Leaves(int leaves) {
  Topology t;
  sched_testing::AddOneNicServers(t, 2 * leaves);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId spine = t.AddSwitch("spine", 2, spec);
  for (int l = 0; l < leaves; ++l) {
    std::string name = "leaf";
    name += std::to_string(l);
    const NodeId leaf = t.AddSwitch(name, 1, spec);
    t.AddLink(2 * l, leaf, DataRate::Gbps(100), Time::Zero());
    t.AddLink(2 * l + 1, leaf, DataRate::Gbps(100), Time::Zero());
    t.AddLink(leaf, spine, DataRate::Gbps(100), Time::Zero());
  }
  return t;
}

TraceJob MakeTraceJob(std::string id, double submit, int gpus, uint64_t iterations) {
  TraceJob j;
  j.job_id = std::move(id);
  j.submit_s = submit;
  j.gpus = gpus;
  j.model = "llama3-8b";
  j.iterations = iterations;
  return j;
}

// A job model where llama3-8b on one-GPU servers is pure data parallel
// (memory no object) with a known compute time.
ReplayOptions DataParallelOptions(const std::string& policy) {
  ReplayOptions o;
  o.policy = policy;
  o.job_model.gpu_memory_gib = 1e6;
  o.job_model.tokens_per_gpu = 1024;
  o.job_model.compute_efficiency = 0.5;
  o.job_model.overlap_fraction = 0.5;
  return o;
}

double ComputeSeconds() {
  const ModelSpec m = FindModel("llama3-8b").value();
  return TrainingFlopsPerToken(m, m.seq_len) * 1024 / (989.4e12 * 0.5);
}

// The all-reduce of two ranks: each sends S = 4 bytes x every parameter to
// the other (2(n-1)/n x S), over 100G.
double RingSeconds() {
  const double params = static_cast<double>(CountParameters(FindModel("llama3-8b").value()).total);
  return params * 4 * 8 / 100e9;
}

struct Fixture {
  Topology topology;
  ClusterLayout layout;
  RoutingTable routes;
  explicit Fixture(Topology t)
      : topology(std::move(t)), layout(Layout(topology, 1)), routes(RoutingTable::BuildShortestPaths(topology)) {}
  Result<ReplayResult> Replay(const std::vector<TraceJob>& jobs, const ReplayOptions& o) const {
    return ReplayJobTrace(topology, routes, layout, jobs, o);
  }
};

const ReplayJobResult& Find(const ReplayResult& r, const std::string& id) {
  return *std::find_if(r.jobs.begin(), r.jobs.end(), [&](const ReplayJobResult& j) { return j.job_id == id; });
}

// One 2-GPU job alone: every iteration computes C/2, then C/2 beside the
// all-reduce of D, so it lasts C/2 + max(C/2, D); folding 10 iterations
// into 4 macro-iterations changes nothing (no latency).
TEST(ClusterReplayTest, LoneJobRunsAtTheClosedForm) {
  const Fixture f(Leaves(2));
  ReplayOptions o = DataParallelOptions("first_fit");
  o.max_phases_per_job = 4;
  const double c = ComputeSeconds(), d = RingSeconds();
  ASSERT_GT(d, c / 2);  // the all-reduce shows
  Result<ReplayResult> r = f.Replay({MakeTraceJob("a", 5, 2, 10)}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const ReplayJobResult& a = r->jobs[0];
  EXPECT_EQ(a.gpu_ids, (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(a.tiers, 1);
  EXPECT_DOUBLE_EQ(a.start_s, 5);
  EXPECT_NEAR(a.run_s(), 10 * (c / 2 + d), 1e-9);
  EXPECT_NEAR(a.run_idle_s, 10 * (c / 2 + d), 1e-9);
  EXPECT_NEAR(a.comm_s, 10 * d, 1e-9);
  EXPECT_NEAR(a.comm_slowdown(), 1.0, 1e-9);
  EXPECT_NEAR(a.compute_s, 10 * c, 1e-9);
}

// An inference service (kind inference) of 2 GPUs: a forward pass per
// batch (a third of the training compute), no gradients, so its 2 ranks
// are 2 data-parallel replicas that never talk: it holds its GPUs for
// iterations x C/3 and sends nothing.
TEST(ClusterReplayTest, InferenceServiceHoldsItsGpusForItsBatches) {
  const Fixture f(Leaves(2));
  const ReplayOptions o = DataParallelOptions("first_fit");
  TraceJob serve = MakeTraceJob("serve", 2, 2, 30);
  serve.kind = TraceJobKind::kInference;
  Result<ReplayResult> r = f.Replay({serve}, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const ReplayJobResult& j = r->jobs[0];
  EXPECT_EQ(j.kind, TraceJobKind::kInference);
  EXPECT_EQ(j.gpu_ids, (std::vector<GpuId>{0, 1}));
  EXPECT_NEAR(j.run_s(), 30 * ComputeSeconds() / 3, 1e-9);
  EXPECT_EQ(j.comm_s, 0);
  EXPECT_EQ(j.comm_idle_s, 0);
}

// The packet-level window of the lone job: opened a quarter into its first
// all-reduce (at 5 + C/2 + D/4 s), it holds the ring's two flows with
// three quarters of their S bytes left, from the window's start; opened
// 1 ms before its second all-reduce (at 5 + C + D s), it holds the two
// flows whole, 1 ms in.
TEST(ClusterReplayTest, WindowHoldsTheFlowsInFlightAndThoseThatStart) {
  const Fixture f(Leaves(2));
  ReplayOptions o = DataParallelOptions("first_fit");
  const double c = ComputeSeconds(), d = RingSeconds();
  const double s_bytes = d * 100e9 / 8;
  o.window_start_s = 5 + c / 2 + d / 4;
  o.window_s = 0.01;
  Result<ReplayResult> in_flight = f.Replay({MakeTraceJob("a", 5, 2, 10)}, o);
  ASSERT_TRUE(in_flight.ok()) << in_flight.error().message;
  ASSERT_EQ(in_flight->window_flows.size(), 2u);
  for (const WindowFlow& w : in_flight->window_flows) {
    EXPECT_EQ(w.job_id, "a");
    EXPECT_EQ(w.what, "gradient");
    EXPECT_NEAR(w.bytes, 0.75 * s_bytes, s_bytes * 1e-9);
    EXPECT_EQ(w.start_s, 0);
  }
  EXPECT_EQ(in_flight->window_flows[0].src, 0);
  EXPECT_EQ(in_flight->window_flows[0].dst, 1);
  EXPECT_EQ(in_flight->window_flows[1].src, 1);
  EXPECT_EQ(in_flight->window_flows[1].dst, 0);
  o.window_start_s = 5 + c + d - 0.001;
  Result<ReplayResult> starting = f.Replay({MakeTraceJob("a", 5, 2, 10)}, o);
  ASSERT_TRUE(starting.ok());
  ASSERT_EQ(starting->window_flows.size(), 2u);
  for (const WindowFlow& w : starting->window_flows) {
    EXPECT_NEAR(w.bytes, s_bytes, s_bytes * 1e-9);
    EXPECT_NEAR(w.start_s, 0.001, 1e-9);
  }
  // The run itself does not change.
  o.window_start_s = -1;
  Result<ReplayResult> plain = f.Replay({MakeTraceJob("a", 5, 2, 10)}, o);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->jobs[0].end_s, starting->jobs[0].end_s);
  EXPECT_TRUE(plain->window_flows.empty());
}

// The hand-made case of the issue. Three leaves of two servers, one 100G
// uplink each. A one-GPU job X takes server 0; then A and B (2 GPUs each,
// identical) arrive together. First fit gives A servers 1-2 and B 3-4:
// both rings cross leaf1's uplink (A's 2->1 and B's 3->4 leave through it;
// A's 1->2 and B's 4->3 enter through it), their all-reduces run at once
// at half rate: each iteration is C/2 + 2D. The topology and network-aware
// policies give A leaf1 and B leaf2: no uplink at all, C/2 + D.
TEST(ClusterReplayTest, FirstFitMakesTwoAllReducesShareAnUplinkTheOthersDoNot) {
  const Fixture f(Leaves(3));
  const std::vector<TraceJob> jobs = {MakeTraceJob("x", 0, 1, 100000), MakeTraceJob("a", 1, 2, 8), MakeTraceJob("b", 1, 2, 8)};
  ReplayOptions o = DataParallelOptions("first_fit");
  const double c = ComputeSeconds(), d = RingSeconds();
  Result<ReplayResult> ff = f.Replay(jobs, o);
  ASSERT_TRUE(ff.ok()) << ff.error().message;
  EXPECT_EQ(Find(*ff, "a").gpu_ids, (std::vector<GpuId>{1, 2}));
  EXPECT_EQ(Find(*ff, "b").gpu_ids, (std::vector<GpuId>{3, 4}));
  for (const char* id : {"a", "b"}) {
    EXPECT_NEAR(Find(*ff, id).run_s(), 8 * (c / 2 + 2 * d), 1e-9) << id;
    EXPECT_NEAR(Find(*ff, id).comm_slowdown(), 2.0, 1e-9) << id;
  }
  for (const char* policy : {"topology", "network_aware"}) {
    o.policy = policy;
    Result<ReplayResult> better = f.Replay(jobs, o);
    ASSERT_TRUE(better.ok()) << better.error().message;
    EXPECT_EQ(Find(*better, "a").gpu_ids, (std::vector<GpuId>{2, 3})) << policy;
    EXPECT_EQ(Find(*better, "b").gpu_ids, (std::vector<GpuId>{4, 5})) << policy;
    for (const char* id : {"a", "b"}) {
      EXPECT_NEAR(Find(*better, id).run_s(), 8 * (c / 2 + d), 1e-9) << policy << " " << id;
      EXPECT_NEAR(Find(*better, id).comm_slowdown(), 1.0, 1e-9) << policy << " " << id;
    }
    EXPECT_LT(better->metrics.jct_mean_s, ff->metrics.jct_mean_s) << policy;
  }
}

// CASSINI: the same two jobs under first fit, with compute long enough to
// hide even a shared all-reduce (D < C/4). Unshifted, their all-reduces
// meet every iteration (slowdown 2); B's offset moves its all-reduce out
// of A's window, so both run theirs alone (slowdown 1), and B starts late
// by less than one period.
TEST(ClusterReplayTest, CassiniShiftsTheSecondJobOutOfTheFirstsWindow) {
  const Fixture f(Leaves(3));
  ReplayOptions o = DataParallelOptions("first_fit");
  o.job_model.tokens_per_gpu = 1 << 19;
  const ModelSpec m = FindModel("llama3-8b").value();
  const double c = TrainingFlopsPerToken(m, m.seq_len) * (1 << 19) / (989.4e12 * 0.5), d = RingSeconds();
  ASSERT_LT(d, c / 4);
  const std::vector<TraceJob> jobs = {MakeTraceJob("x", 0, 1, 100000), MakeTraceJob("a", 1, 2, 8), MakeTraceJob("b", 1, 2, 8)};
  Result<ReplayResult> plain = f.Replay(jobs, o);
  ASSERT_TRUE(plain.ok());
  EXPECT_NEAR(Find(*plain, "b").comm_slowdown(), 2.0, 1e-9);
  o.cassini = true;
  Result<ReplayResult> shifted = f.Replay(jobs, o);
  ASSERT_TRUE(shifted.ok());
  EXPECT_EQ(shifted->comm, "cassini");
  EXPECT_NEAR(Find(*shifted, "a").comm_slowdown(), 1.0, 1e-9);
  EXPECT_NEAR(Find(*shifted, "b").comm_slowdown(), 1.0, 1e-9);
  EXPECT_NEAR(Find(*shifted, "a").run_s(), 8 * c, 1e-9);  // A is first: no offset
  const double delay = Find(*shifted, "b").run_s() - 8 * c;
  EXPECT_GT(delay, 0);
  EXPECT_LT(delay, c);
}

// Crux: of two jobs sharing the uplink, the one with more compute per byte
// (A, llama3-8b, against B, llama3-70b) gets the higher weight, so its
// all-reduce slows less than under plain max-min, and B's more.
TEST(ClusterReplayTest, CruxFavoursTheGpuIntensiveJob) {
  const Fixture f(Leaves(3));
  std::vector<TraceJob> jobs = {MakeTraceJob("x", 0, 1, 100000), MakeTraceJob("a", 1, 2, 8), MakeTraceJob("b", 1, 2, 8)};
  jobs[2].model = "llama3-70b";
  ReplayOptions o = DataParallelOptions("first_fit");
  Result<ReplayResult> plain = f.Replay(jobs, o);
  o.crux = true;
  Result<ReplayResult> crux = f.Replay(jobs, o);
  ASSERT_TRUE(plain.ok() && crux.ok());
  // llama3-8b does more FLOPs per gradient byte (attention over the same
  // sequence is a larger share of a smaller model).
  const ModelSpec m8 = FindModel("llama3-8b").value(), m70 = FindModel("llama3-70b").value();
  ASSERT_GT(TrainingFlopsPerToken(m8, m8.seq_len) / static_cast<double>(CountParameters(m8).total),
            TrainingFlopsPerToken(m70, m70.seq_len) / static_cast<double>(CountParameters(m70).total));
  EXPECT_GT(Find(*plain, "a").comm_slowdown(), 1.01);  // they do share
  EXPECT_LT(Find(*crux, "a").comm_slowdown(), Find(*plain, "a").comm_slowdown());
  EXPECT_GT(Find(*crux, "b").comm_slowdown(), Find(*plain, "b").comm_slowdown());
}

// Two leaves whose servers interleave (h0, h2 under leaf0; h1, h3 under
// leaf1) under two spines, every link 100G without latency: first fit
// gives A servers 0-1 and B servers 2-3, both across the leaves.
Topology InterleavedLeaves(LinkId* leaf0_spine1) {
  Topology t;
  sched_testing::AddOneNicServers(t, 4);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, spec), leaf1 = t.AddSwitch("leaf1", 1, spec);
  const NodeId spine0 = t.AddSwitch("spine0", 2, spec), spine1 = t.AddSwitch("spine1", 2, spec);
  for (int h = 0; h < 4; ++h) t.AddLink(h, h % 2 == 0 ? leaf0 : leaf1, DataRate::Gbps(100), Time::Zero());
  t.AddLink(leaf0, spine0, DataRate::Gbps(100), Time::Zero());
  *leaf0_spine1 = t.AddLink(leaf0, spine1, DataRate::Gbps(100), Time::Zero());
  t.AddLink(leaf1, spine0, DataRate::Gbps(100), Time::Zero());
  t.AddLink(leaf1, spine1, DataRate::Gbps(100), Time::Zero());
  return t;
}

// With leaf0's link to spine1 down from the start, every flow in or out of
// leaf0 goes through spine0: A's 0->1 and B's 2->3 share leaf0's uplink,
// A's 1->0 and B's 3->2 share spine0's downlink to leaf0, so the two
// all-reduces run at half rate: each iteration is C/2 + 2D, slowdown 2,
// whatever the hashes. Repaired mid-run, both jobs are routed again.
TEST(ClusterReplayTest, LinkFailureConcentratesTrafficOnTheSurvivingSpine) {
  LinkId failed = -1;
  const Fixture f(InterleavedLeaves(&failed));
  const std::vector<TraceJob> jobs = {MakeTraceJob("a", 1, 2, 8), MakeTraceJob("b", 1, 2, 8)};
  ReplayOptions o = DataParallelOptions("first_fit");
  const double c = ComputeSeconds(), d = RingSeconds();
  o.link_failures = {{failed, 0, 0}};
  Result<ReplayResult> down = f.Replay(jobs, o);
  ASSERT_TRUE(down.ok()) << down.error().message;
  EXPECT_EQ(Find(*down, "a").gpu_ids, (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(Find(*down, "b").gpu_ids, (std::vector<GpuId>{2, 3}));
  for (const char* id : {"a", "b"}) {
    EXPECT_NEAR(Find(*down, id).run_s(), 8 * (c / 2 + 2 * d), 1e-9) << id;
    EXPECT_NEAR(Find(*down, id).comm_slowdown(), 2.0, 1e-9) << id;
  }
  EXPECT_EQ(down->metrics.reroutes, 0u);  // the jobs started with the link already down
  // Repaired after the first iteration: both detoured jobs are routed again.
  o.link_failures = {{failed, 0, 1 + c / 2 + 2 * d + 1e-6}};
  Result<ReplayResult> repaired = f.Replay(jobs, o);
  ASSERT_TRUE(repaired.ok());
  EXPECT_EQ(repaired->metrics.reroutes, 2u);
  for (const char* id : {"a", "b"}) EXPECT_LE(Find(*repaired, id).run_s(), Find(*down, id).run_s() + 1e-9) << id;
}

TEST(ClusterReplayTest, LinkFailureErrorsNameTheFailure) {
  LinkId failed = -1;
  const Fixture f(InterleavedLeaves(&failed));
  ReplayOptions o = DataParallelOptions("first_fit");
  o.link_failures = {{0, 5, 1}};  // link 0 is h0's
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message,
            "link_failures.0: the link h0 - leaf0 has a host at one end; only switch-to-switch links may fail (a "
            "host's link would cut its server off)");
  o.link_failures = {{failed, 5, 10}, {failed, 12, 1}};
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message,
            "link_failures.1: overlaps link_failures.0 on the same link");
  o.link_failures = {{99, 5, 1}};
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message, "link_failures.0: link 99 is not in the topology");
  o.link_failures = {{failed, -1, 1}};
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message,
            "link_failures.0: expected at >= 0 and for >= 0 (0 = to the end)");
}

// Invariants on a random trace, every policy and communication schedule,
// with a fabric link down for part of it: every job finishes, none starts
// before it arrives, no GPU is held by two jobs at once, GPU ids are the
// job's size; and the same inputs give the same result.
TEST(ClusterReplayTest, RandomTraceInvariantsAndDeterminism) {
  const sched_testing::TestCluster cluster = sched_testing::MakeFatTreeCluster(16);
  const RoutingTable routes = RoutingTable::BuildShortestPaths(cluster.topology);
  LinkId fabric_link = -1;  // the first switch-to-switch link
  for (const Port& p : cluster.topology.ports()) {
    if (fabric_link < 0 && cluster.topology.node(p.node).kind != NodeKind::kHost &&
        cluster.topology.node(p.peer).kind != NodeKind::kHost) {
      fabric_link = p.link;
    }
  }
  ASSERT_GE(fabric_link, 0);
  Rng rng(7);
  std::vector<TraceJob> jobs;
  double t = 0;
  const int sizes[] = {1, 2, 4, 8, 12, 16};
  for (int i = 0; i < 60; ++i) {
    t += rng.Uniform() * 20;
    std::string id = "j";  // appended, not "j" + string (GCC 12 -Wrestrict)
    id += std::to_string(i);
    TraceJob j = MakeTraceJob(id, t, sizes[rng.Below(6)], 1 + rng.Below(50));
    j.model = rng.Below(2) == 0 ? "llama3-8b" : "llama3-70b";
    jobs.push_back(j);
  }
  for (std::string_view policy : PlacementPolicyNames()) {
    for (int comm = 0; comm < 4; ++comm) {
      ReplayOptions o;
      o.policy = std::string(policy);
      o.crux = comm & 1;
      o.cassini = comm & 2;
      o.max_phases_per_job = 8;
      o.job_model.tokens_per_gpu = 512;
      o.storage_servers = {15};
      o.job_model.checkpoint_interval_s = 30;
      o.link_failures = {{fabric_link, 100, 200}};  // mid-trace: jobs reroute and come back
      Result<ReplayResult> r = ReplayJobTrace(cluster.topology, routes, cluster.layout, jobs, o);
      ASSERT_TRUE(r.ok()) << policy << ": " << r.error().message;
      ASSERT_EQ(r->jobs.size(), jobs.size());
      std::map<GpuId, std::vector<std::pair<double, double>>> held;
      for (size_t i = 0; i < jobs.size(); ++i) {
        const ReplayJobResult& j = r->jobs[i];
        EXPECT_EQ(j.job_id, jobs[i].job_id);
        EXPECT_GE(j.start_s, j.submit_s);
        EXPECT_GT(j.end_s, j.start_s);
        EXPECT_EQ(static_cast<int>(j.gpu_ids.size()), j.gpus);
        EXPECT_GE(j.run_s(), j.run_idle_s * (1 - 1e-9)) << j.job_id;  // sharing never speeds a job up
        for (GpuId g : j.gpu_ids) {
          EXPECT_LT(g, 60);  // server 15 (GPUs 60-63) holds storage
          held[g].push_back({j.start_s, j.end_s});
        }
      }
      for (auto& [gpu, spans] : held) {
        std::sort(spans.begin(), spans.end());
        for (size_t k = 1; k < spans.size(); ++k) EXPECT_LE(spans[k - 1].second, spans[k].first) << "GPU " << gpu;
      }
      Result<ReplayResult> again = ReplayJobTrace(cluster.topology, routes, cluster.layout, jobs, o);
      ASSERT_TRUE(again.ok());
      for (size_t i = 0; i < jobs.size(); ++i) {
        EXPECT_EQ(again->jobs[i].end_s, r->jobs[i].end_s);
        EXPECT_EQ(again->jobs[i].gpu_ids, r->jobs[i].gpu_ids);
      }
    }
  }
}

TEST(ClusterReplayTest, ErrorsNameTheProblem) {
  const Fixture f(Leaves(2));
  ReplayOptions o = DataParallelOptions("first_fit");
  EXPECT_EQ(f.Replay({MakeTraceJob("big", 0, 5, 1)}, o).error().message,
            "job 'big': asks for 5 GPUs, the cluster schedules 4");
  o.storage_servers = {3};
  EXPECT_EQ(f.Replay({MakeTraceJob("big", 0, 4, 1)}, o).error().message,
            "job 'big': asks for 4 GPUs, the cluster schedules 3");
  o.storage_servers = {};
  o.policy = "best";
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message.rfind("policy: unknown policy 'best'", 0), 0u);
  o = DataParallelOptions("first_fit");
  o.job_model.checkpoint_interval_s = 60;
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message,
            "scheduling.jobs.checkpoint_interval: checkpoints need storage servers (scheduling.storage_servers)");
  o = DataParallelOptions("first_fit");
  o.storage_servers = {2, 1};
  EXPECT_EQ(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).error().message, "storage_servers: expected sorted, distinct servers");
  o.storage_servers = {0, 1, 2, 3};
  EXPECT_FALSE(f.Replay({MakeTraceJob("a", 0, 1, 1)}, o).ok());
  // A run that would outlast the engine's clock is refused before it starts.
  const std::string endless = f.Replay({MakeTraceJob("long", 0, 1, uint64_t{1} << 50)}, DataParallelOptions("first_fit"))
                                  .error()
                                  .message;
  EXPECT_EQ(endless.rfind("job 'long': 1125899906842624 iterations take ", 0), 0u) << endless;
  EXPECT_NE(endless.find("beyond the 100 days a replay may simulate"), std::string::npos) << endless;
  TraceJob unknown = MakeTraceJob("m", 0, 1, 1);
  unknown.model = "gpt5";
  EXPECT_EQ(f.Replay({unknown}, DataParallelOptions("first_fit")).error().message.rfind("job 'm': ", 0), 0u);
}

}  // namespace
}  // namespace aifabric
