// The workload items that joined the shared run with issue 17 (docs/
// multi_tenant.md): a collective tenant runs as `aifabric collective` times
// it and as its closed form; two collectives through one 2:1 uplink slow
// each other by the other's bytes; a training job's dataset reads leave a
// step that outlasts them as it was and stretch one they outlast to the
// read time, with every read byte on the storage link.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/collective_run.h"
#include "run/tenant_run.h"
#include "run/training_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// `servers` servers of one H100 and a 100G NIC each, `per_leaf` to a leaf
// under one spine (2:1 with `oversubscription` 2); 500 ns cables, 400 ns
// switches, 4 KiB MTU, no congestion control. At flow level a transfer's
// payload runs at B = 100e9/8 x 4096/4178 bytes/s (82 bytes of RoCEv2
// overhead per packet).
Scenario Cluster(int servers, int per_leaf, double oversubscription, const std::string& simulation,
                 const std::string& workload) {
  std::string text = "name: items\n";
  text += "cluster: {servers: " + std::to_string(servers) + ", gpus_per_server: 1, gpu: H100, nic: {rate: 100Gbps}}\n";
  text += "fabric: {topology: {type: leaf_spine, hosts_per_leaf: " + std::to_string(per_leaf) +
          ", spines: 1, oversubscription: " + std::to_string(oversubscription) +
          "}, link: {latency: 500ns}, switch: {name: t, radix: 16, port_rate: 100Gbps, latency: 400ns, buffer: 64MiB},"
          " mtu: 4096, roce: {cc: none}}\n";
  text += "simulation: " + simulation + "\n";
  text += "workload:\n" + workload;
  Result<Scenario> s = LoadScenarioText(text, "items.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

constexpr double kPayloadBytesPerS = 100e9 / 8 * 4096 / 4178;

TEST(TenantItems, ACollectiveAloneTakesWhatAifabricCollectiveTakes) {
  // The same op, size and GPUs (the cluster's first two: the tenant's
  // first_fit placement too), the algorithm and protocol auto at flow level
  // (coflows) and given at packet level (steps): the alone run's iteration
  // is the sweep's time to the picosecond, and so is the shared run's with
  // no other tenant.
  struct Case {
    const char* simulation;
    const char* item;
    CollectiveRequest request;
  };
  CollectiveRequest flow;
  flow.op = CollectiveOp::kAllReduce;
  flow.sizes = {4 << 20};
  flow.gpus = 2;
  CollectiveRequest packet = flow;
  packet.op = CollectiveOp::kAllGather;
  packet.algorithm = CollectiveAlgorithm::kRing;
  packet.protocol = CollectiveProtocol::kSimple;
  const Case cases[] = {
      {"{model: flow}", "  - {steps: 2, collective: {op: all_reduce, size: 4MiB, gpus: 2}}\n", flow},
      {"{model: packet}", "  - collective: {op: all_gather, size: 4MiB, gpus: 2, algo: ring, proto: simple}\n", packet},
  };
  for (const Case& c : cases) {
    const Scenario s = Cluster(4, 2, 1, c.simulation, c.item);
    Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, c.request);
    ASSERT_TRUE(sweep.ok()) << sweep.error().message;
    Result<TenantRuns> r = RunTenants(s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const TenantResult& t = r->tenants.at(0);
    ASSERT_TRUE(t.collective);
    std::printf("%s: collective %.3f us (%s, %s), tenant alone %.3f us, shared %.3f us\n", c.simulation,
                sweep->times[0].us_f(), std::string(CollectiveAlgorithmName(sweep->algorithms[0])).c_str(),
                std::string(CollectiveProtocolName(sweep->protocols[0])).c_str(), t.alone.headline.us_f(),
                t.shared.headline.us_f());
    EXPECT_EQ(t.gpus, (std::vector<GpuId>{0, 1}));
    EXPECT_EQ(t.collective->algorithm, sweep->algorithms[0]);
    EXPECT_EQ(t.collective->protocol, sweep->protocols[0]);
    EXPECT_EQ(t.alone.headline, sweep->times[0]);
    EXPECT_EQ(t.shared.headline, sweep->times[0]);
    for (const JobMetrics& m : t.alone.steps) EXPECT_EQ(m.makespan, sweep->times[0]);  // each iteration
  }
}

// NCCL's Simple protocol (data/calibration.yaml): 8.4 us once, 14 us per
// step between servers; a step's transfer adds its path: cable, switch,
// the first packet's store-and-forward at the switch (4178 bytes at
// 100G), cable.
constexpr double kBaseS = 8.4e-6;
constexpr double kAlphaS = 14e-6 + 0.5e-6 + 0.4e-6 + 4178 * 8 / 100e9 + 0.5e-6;
// A reduction reads two operands and writes one: H100 HBM 3.35 TB/s / 3.
constexpr double kReduceBytesPerS = 3.35e12 / 3;

TEST(TenantItems, ACollectiveTenantMatchesTheRingClosedForm) {
  // A ring all-reduce of S = 4 MiB over n = 2 servers under one leaf, at
  // flow level step by step: 2(n-1) steps of S/n (NCCL's ring chunk for
  // n = 2, n x 4 x 512 KiB = 4 MiB, holds all of S: one chunk, so one
  // transfer a step), each alpha + (S/n)/B, and the n-1 reductions of S/n
  // on the reduce-scatter's path:
  //   T = base + 2(n-1)/n x S/B + 2(n-1) alpha + (n-1)(S/n)/R.
  // (With S = 8 MiB, two chunks, the second chunk's steps follow the
  // first's on the same links: S/B + 2 alpha + one reduction of S/(2n).)
  const Scenario s = Cluster(2, 2, 1, "{model: flow, collectives: steps}",
                             "  - collective: {op: all_reduce, size: 4MiB, gpus: 2, algo: ring, proto: simple}\n");
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const double n = 2, bytes = 4 << 20;
  const double expected = kBaseS + 2 * (n - 1) / n * bytes / kPayloadBytesPerS + 2 * (n - 1) * kAlphaS +
                          (n - 1) * (bytes / n) / kReduceBytesPerS;
  const double got = r->tenants[0].alone.headline.seconds();
  std::printf("ring all_reduce 4 MiB over 2 servers: %.4f us, closed form %.4f us\n", got * 1e6, expected * 1e6);
  // Within a picosecond a step (each drain rounds up to whole ps).
  EXPECT_NEAR(got, expected, 4e-12);
  // busbw = algbw x 2(n-1)/n = S/T here, nccl-tests' definitions.
  const Bandwidth bw = BandwidthFor(CollectiveOp::kAllReduce, 2, 4 << 20, r->tenants[0].alone.headline);
  EXPECT_DOUBLE_EQ(bw.bus_gb_per_s, bytes / got / 1e9);
}

TEST(TenantItems, TwoCollectivesThroughOneUplinkSlowEachByTheOthersBytes) {
  // As the worked case of docs/multi_tenant.md with collectives: a on
  // servers 0 and 2, b on 1 and 3, each leaf's one 100G uplink (2:1)
  // carrying a ring flow of each. Both run the same ring all-reduce of S =
  // 8 MiB from 0, step for step at the same moments, so each step's
  // transfer runs at half the uplink: its bandwidth term doubles, its
  // latencies stay. Each iteration grows by 2(n-1)/n x S/B = S/B (n = 2),
  // the time the uplink takes to send the other's bytes.
  const std::string item = "collective: {op: all_reduce, size: 8MiB, gpus: 2, algo: ring, proto: simple}";
  const Scenario s = Cluster(4, 2, 2, "{model: flow, collectives: steps}",
                             "  - {name: a, steps: 2, placement: {servers: [0, 2]}, " + item + "}\n" +
                                 "  - {name: b, steps: 2, placement: {servers: [1, 3]}, " + item + "}\n");
  Result<TenantRuns> r = RunTenants(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const double expected = (8 << 20) / kPayloadBytesPerS;
  for (const TenantResult& t : r->tenants) {
    const double added = (t.shared.headline - t.alone.headline).seconds();
    std::printf("%s: %.4f us alone, %.4f us shared: +%.4f us, by hand +%.4f us\n", t.name.c_str(),
                t.alone.headline.us_f(), t.shared.headline.us_f(), added * 1e6, expected * 1e6);
    EXPECT_NEAR(added, expected, 1e-6 * expected);
  }
  ASSERT_EQ(r->interference.size(), 2u);
  for (const InterferenceEntry& e : r->interference) {
    EXPECT_EQ(e.aggressor, 1 - e.victim);
    EXPECT_DOUBLE_EQ(e.share, 1.0);
    // The other's wire bytes on one bottleneck port: two iterations of S
    // in 4 KiB packets of 4178 bytes.
    const size_t ports = r->tenants[e.victim].bottleneck_ports.size();
    ASSERT_GE(ports, 1u);
    EXPECT_EQ(e.shared_bytes, ports * 2 * ((uint64_t{8} << 20) / 4096 * 4178));
  }
}

// A small dense model trained data-parallel over servers 0 and 1 (one
// leaf of three hosts: server 2 is the storage server), gradients
// all-reduced after backward; `dataset` its dataset key ("" for none).
Scenario TrainingWithReads(const std::string& dataset, int steps = 1, const std::string& checkpoint = "") {
  std::string job = "training: {model: {name: tiny, layers: 2, hidden: 1024, heads: 8, kv_heads: 8,"
                    " ffn_hidden: 4096, mlp: gelu, vocab: 1000, seq_len: 512}, dp: 2, global_batch: 2,"
                    " bucket: 8MiB, overlap: false";
  if (!dataset.empty()) job += ", dataset: " + dataset;
  if (!checkpoint.empty()) job += ", checkpoint: " + checkpoint;
  job += "}";
  return Cluster(3, 4, 1, "{model: flow}",
                 "  - {name: t, steps: " + std::to_string(steps) + ", placement: {servers: [0, 1]}, " + job + "}\n");
}

TEST(TenantItems, ADatasetReadWithinTheStepLeavesItsTimeAsItWas) {
  // By default each replica's first stage reads its share of the batch:
  // 512 tokens x 2 bytes (a vocabulary of 1000 fits uint16) = 1 KiB, done
  // in a few microseconds of the forward pass, long before the gradients'
  // all-reduce; nothing of the step waits for it.
  Result<TenantRuns> without = RunTenants(TrainingWithReads(""));
  Result<TenantRuns> with = RunTenants(TrainingWithReads("{storage_servers: 1}"));
  ASSERT_TRUE(without.ok() && with.ok()) << (without.ok() ? with.error().message : without.error().message);
  const TenantResult& a = without->tenants[0];
  const TenantResult& b = with->tenants[0];
  EXPECT_EQ(b.dataset_readers, 2);
  EXPECT_EQ(b.dataset_bytes, 2u * 512 * 2);
  ASSERT_EQ(b.alone.dataset_read.size(), 1u);
  EXPECT_GT(b.alone.dataset_read[0], Time::Zero());
  EXPECT_LT(b.alone.dataset_read[0], b.alone.headline);
  std::printf("step %.6f ms without reads, %.6f ms with (read %.3f us)\n", a.alone.headline.seconds() * 1e3,
              b.alone.headline.seconds() * 1e3, b.alone.dataset_read[0].us_f());
  EXPECT_EQ(b.alone.headline, a.alone.headline);
  EXPECT_EQ(b.shared.headline, a.shared.headline);
}

TEST(TenantItems, ADatasetReadLongerThanTheStepStretchesItToTheReadTime) {
  // Two readers (GPUs 0 and 1) of 1 GiB each from the one storage server,
  // whose 100G link they share: both drain at B/2, so the reads end 2 x
  // 2^30 / B after the step's start, plus the path (cable, switch, the
  // first packet's store-and-forward, cable) -- far past the step's own
  // ~10 ms. The step lasts until then. Two steps: the storage server's
  // link carries both steps' reads, whole 4 KiB packets of 4178 bytes,
  // and nothing else.
  Result<TenantRuns> r = RunTenants(TrainingWithReads("{storage_servers: 1, bytes: 1GiB}", 2));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const TenantResult& t = r->tenants[0];
  const double expected = 2.0 * (1 << 30) / kPayloadBytesPerS + 0.5e-6 + 0.4e-6 + 4178 * 8 / 100e9 + 0.5e-6;
  ASSERT_EQ(t.alone.steps.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    std::printf("step %zu: %.6f ms, read %.6f ms, by hand %.6f ms\n", k, t.alone.steps[k].makespan.seconds() * 1e3,
                t.alone.dataset_read[k].seconds() * 1e3, expected * 1e3);
    EXPECT_NEAR(t.alone.steps[k].makespan.seconds(), expected, 1e-12 + 1e-9 * expected);
    EXPECT_EQ(t.alone.steps[k].makespan, t.alone.dataset_read[k]);
  }
  // A training entry run on its own (RunTrainingStep) counts its reads
  // in the step the same way.
  const Scenario one = TrainingWithReads("{storage_servers: 1, bytes: 1GiB}");
  Result<TrainingRunResult> single = RunTrainingStep(one, one.trainings[0]);
  ASSERT_TRUE(single.ok()) << single.error().message;
  EXPECT_EQ(single->step_time, t.alone.steps[0].makespan);
  const Topology& topology = r->topology;
  size_t storage_uplink = topology.ports().size();
  for (const Port& port : topology.ports()) {
    if (topology.node(port.node).name == "h2") storage_uplink = port.id;
  }
  ASSERT_LT(storage_uplink, topology.ports().size());
  EXPECT_EQ(r->shared.port_tx_bytes[storage_uplink], 2 * 2 * ((uint64_t{1} << 30) / 4096 * 4178));
  EXPECT_EQ(t.port_tx_bytes, r->shared.port_tx_bytes);  // the only tenant
}

TEST(TenantItems, ReadsRunInEveryStepAndACheckpointOnlyInTheStepsItsEveryPicks) {
  // Reads and a checkpoint on one storage server (server 2), the
  // checkpoint every second step: step 1 reads only, step 2 reads and
  // writes. The storage server's uplink carries the four reads (2 steps x
  // 2 readers x one 4 KiB packet of 4178 bytes), its downlink the one
  // checkpoint (2 GPUs x 1 MiB in 4 KiB packets).
  Result<TenantRuns> r = RunTenants(
      TrainingWithReads("{bytes: 4KiB}", 2, "{storage_servers: 1, bytes: 1MiB, every: 2}"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const TenantFigures& f = r->tenants[0].alone;
  EXPECT_EQ(f.checkpointed, (std::vector<uint8_t>{0, 1}));
  ASSERT_EQ(f.dataset_read.size(), 2u);
  EXPECT_GT(f.dataset_read[0], Time::Zero());
  EXPECT_EQ(f.dataset_read[0], f.dataset_read[1]);  // the same read, alone on its links, in each step
  EXPECT_EQ(f.checkpoint_write[0], Time::Zero());
  EXPECT_GT(f.checkpoint_write[1], Time::Zero());
  const Topology& topology = r->topology;
  uint64_t up = 0, down = 0;
  for (const Port& port : topology.ports()) {
    if (topology.node(port.node).name == "h2") up = r->shared.port_tx_bytes[port.id];
    if (topology.node(port.peer).name == "h2") down = r->shared.port_tx_bytes[port.id];
  }
  EXPECT_EQ(up, 2u * 2 * 4178);
  EXPECT_EQ(down, 2 * ((uint64_t{1} << 20) / 4096 * 4178));
}

}  // namespace
}  // namespace aifabric
