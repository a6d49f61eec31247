// A training step on a simulated fabric: halving the network bandwidth
// raises the exposed data-parallel communication by exactly the bandwidth
// term worked out by hand; the packet and flow models agree on an
// uncongested step; bad entries name their field.
#include "run/training_run.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// Four servers of one H100 each under one switch; a small dense model
// (2 layers, h 1024) trained data-parallel over all four, gradients
// all-reduced in 8 MiB buckets after backward (no overlap).
Scenario DataParallelCluster(const std::string& nic_rate, const std::string& model, const std::string& extra = "",
                 int servers = 4) {
  std::string text = "name: dp\n";
  text += "cluster: {servers: " + std::to_string(servers) + ", gpus_per_server: 1, gpu: H100, nic: {rate: " + nic_rate +
          "}}\n";
  text += "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 8}, link: {latency: 500ns},"
          " switch: {name: t, radix: 16, port_rate: 400Gbps, latency: 400ns, buffer: 64MiB}, mtu: 4096,"
          " roce: {cc: none}}\n";
  text += "simulation: {model: " + model + "}\n";
  text += "workload:\n  - training: {model: {name: tiny, layers: 2, hidden: 1024, heads: 8, kv_heads: 8,"
          " ffn_hidden: 4096, mlp: gelu, vocab: 1000, seq_len: 512}, dp: 4, global_batch: 4, bucket: 8MiB,"
          " overlap: false" + extra + "}\n";
  Result<Scenario> s = LoadScenarioText(text, "dp.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

constexpr size_t kData = static_cast<size_t>(CommDimension::kData);

TEST(TrainingRun, HalvingBandwidthAddsTheRingAllReducesBandwidthTerm) {
  // After backward every GPU all-reduces its gradients, G bytes (fp32) in
  // buckets of at most 8 MiB, one after another, each a ring over n = 4
  // servers in one chunk (NCCL's ring chunk n x 2 MiB holds a bucket).
  // Exposed data-parallel time = sum over buckets of latencies +
  // 2(n-1)/n * S_b / B. Of the latencies only one depends on B: each of a
  // bucket's 2(n-1) transfers stores and forwards its first 4178-byte
  // packet once at the NIC rate R. So halving B (100G -> 50G NICs) adds
  //   2(n-1)/n * G / B100 + buckets * 2(n-1) * 4178 / R100,
  // with B100 = 100e9/8 * 4096/4178 bytes/s, the flow model's payload rate,
  // and R100 = 100e9/8 bytes/s.
  Result<TrainingRunResult> fast = RunTrainingStep(DataParallelCluster("100Gbps", "flow"), DataParallelCluster("100Gbps", "flow").trainings[0]);
  Result<TrainingRunResult> slow = RunTrainingStep(DataParallelCluster("50Gbps", "flow"), DataParallelCluster("50Gbps", "flow").trainings[0]);
  ASSERT_TRUE(fast.ok()) << fast.error().message;
  ASSERT_TRUE(slow.ok()) << slow.error().message;
  const double g = static_cast<double>(fast->comm_bytes[kData]);  // one DP group: G per GPU
  const double buckets = static_cast<double>(fast->collectives[kData]);
  const double b100 = 100e9 / 8 * 4096 / 4178, r100 = 100e9 / 8;
  const double expected = 2.0 * 3 / 4 * g / b100 + buckets * 2 * 3 * 4178 / r100;
  const double added = slow->metrics.exposed_s[kData] - fast->metrics.exposed_s[kData];
  std::printf("G = %.0f B in %.0f buckets; exposed DP %.3f ms at 100G, %.3f ms at 50G: +%.4f ms, by hand +%.4f ms\n", g, buckets,
              fast->metrics.exposed_s[kData] * 1e3, slow->metrics.exposed_s[kData] * 1e3, added * 1e3, expected * 1e3);
  EXPECT_NEAR(added, expected, 1e-6 * expected);
  // Compute is the same; the step grows by the same amount.
  EXPECT_DOUBLE_EQ(fast->metrics.compute_s, slow->metrics.compute_s);
  EXPECT_NEAR((slow->step_time - fast->step_time).seconds(), expected, 1e-6 * expected);
}

TEST(TrainingRun, PacketAndFlowModelsAgreeOnAnUncongestedStep) {
  // Each NIC carries one ring flow each way: the packet model adds only
  // ACKs (86 of 4178 + 86 bytes) and queueing of a few packets.
  Result<TrainingRunResult> packet =
      RunTrainingStep(DataParallelCluster("100Gbps", "packet"), DataParallelCluster("100Gbps", "packet").trainings[0]);
  Result<TrainingRunResult> flow = RunTrainingStep(DataParallelCluster("100Gbps", "flow"), DataParallelCluster("100Gbps", "flow").trainings[0]);
  ASSERT_TRUE(packet.ok() && flow.ok());
  const double p = packet->step_time.seconds(), f = flow->step_time.seconds();
  std::printf("step %.4f ms packet, %.4f ms flow\n", p * 1e3, f * 1e3);
  EXPECT_NEAR(p, f, 0.03 * f);
  EXPECT_EQ(packet->network_model, ModelKind::kPacket);
  EXPECT_EQ(flow->network_model, ModelKind::kFlow);
}

TEST(TrainingRun, ACheckpointSharingTheNicsHalvesTheAllReduceBandwidth) {
  // The same step on 6 servers, the last 2 storage: meanwhile every GPU
  // writes 1 GiB of the previous step's checkpoint to storage server
  // 4 + g mod 2 (traffic class 1, the same weight as training's). Each
  // storage NIC takes two writes (B/2 each), so each GPU's link out
  // carries its ring flow and a B/2 write: the ring gets B/2 for the whole
  // all-reduce phase (the writes, 1 GiB at B/2 = 175 ms, outlast it), and
  // the data-parallel time in flight, and so the step, grow by exactly the
  // bandwidth term 2(n-1)/n * G / B100 (the per-packet latencies keep
  // their rate). (Exposed time is shared between the dimensions in flight,
  // so the storage writes take half of it.)
  const Scenario plain = DataParallelCluster("100Gbps", "flow", "", 6);
  const Scenario shared = DataParallelCluster("100Gbps", "flow", ", checkpoint: {storage_servers: 2, bytes: 1GiB}", 6);
  Result<TrainingRunResult> alone = RunTrainingStep(plain, plain.trainings[0]);
  Result<TrainingRunResult> with = RunTrainingStep(shared, shared.trainings[0]);
  ASSERT_TRUE(alone.ok()) << alone.error().message;
  ASSERT_TRUE(with.ok()) << with.error().message;
  const double g = static_cast<double>(alone->comm_bytes[kData]);
  const double expected = 2.0 * 3 / 4 * g / (100e9 / 8 * 4096 / 4178);
  const double added = with->metrics.comm_s[kData] - alone->metrics.comm_s[kData];
  std::printf("DP in flight %.3f ms alone, %.3f ms beside the checkpoint: +%.4f ms, by hand +%.4f ms\n",
              alone->metrics.comm_s[kData] * 1e3, with->metrics.comm_s[kData] * 1e3, added * 1e3, expected * 1e3);
  EXPECT_NEAR(added, expected, 1e-6 * expected);
  EXPECT_NEAR((with->step_time - alone->step_time).seconds(), expected, 1e-6 * expected);
  // The checkpoint is in flight (storage) over the whole step, on the 4
  // training GPUs only (the storage servers are not the job's GPUs).
  EXPECT_EQ(with->metrics.gpus, 4);
  EXPECT_NEAR(with->metrics.comm_s[static_cast<size_t>(CommDimension::kStorage)], with->step_time.seconds(), 1e-9);
  // Storage servers overlapping the training GPUs are refused.
  const Scenario crowded = DataParallelCluster("100Gbps", "flow", ", checkpoint: {storage_servers: 1}");
  Result<TrainingRunResult> bad = RunTrainingStep(crowded, crowded.trainings[0]);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("checkpoint.storage_servers"), std::string::npos);
}

TEST(TrainingRun, EntriesThatDoNotFitNameTheirField) {
  Scenario s = DataParallelCluster("100Gbps", "flow");
  s.trainings[0].parallelism.dp = 8;  // 8 GPUs on a 4-GPU cluster
  Result<TrainingRunResult> r = RunTrainingStep(s, s.trainings[0]);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("workload.0.training"), std::string::npos);
  EXPECT_NE(r.error().message.find("the cluster has 4"), std::string::npos);
}

}  // namespace
}  // namespace aifabric
