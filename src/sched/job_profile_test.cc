#include "sched/job_profile.h"

#include <gtest/gtest.h>

#include "workload/model_catalog.h"
#include "workload/model_costs.h"
#include "workload/training_calibration.h"

namespace aifabric {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

ModelSpec Model(const std::string& name) { return FindModel(name).value(); }

// llama3-8b on 16 GPUs: 8.0e9 parameters x 20 bytes = 161 GB do not fit
// one or two 80 GB GPUs (74.5 GiB; two would need 80.3 GB each) but do fit
// four, so tp = 4, pp = 1, dp = 4. With 80 GiB (85.9 GB) two would do.
TEST(JobProfileTest, SmallModelTakesTheLeastTensorParallelismThatFits) {
  const ModelSpec m = Model("llama3-8b");
  const double params = static_cast<double>(CountParameters(m).total);
  ASSERT_GT(params * kTrainingBytesPerParam / 2, 74.5 * kGiB);
  ASSERT_LE(params * kTrainingBytesPerParam / 4, 74.5 * kGiB);
  ASSERT_LE(params * kTrainingBytesPerParam / 2, 80 * kGiB);
  JobModelOptions o;
  const JobProfile p = ProfileJob(m, true, 16, 8, o);
  EXPECT_EQ(p.parallelism.tp, 4);
  EXPECT_EQ(p.parallelism.pp, 1);
  EXPECT_EQ(p.parallelism.dp, 4);
  EXPECT_EQ(p.parallelism.ep, 1);
  o.gpu_memory_gib = 80;
  EXPECT_EQ(ProfileJob(m, true, 16, 8, o).parallelism.tp, 2);
  // Gradients: each rank reduces its quarter of the parameters in fp32.
  EXPECT_NEAR(static_cast<double>(p.allreduce_bytes), params / 4 * 4, 4);
  // One sequence of 8192 tokens per GPU at the calibrated efficiency.
  const double flops = TrainingFlopsPerToken(m, 8192) * 8192;
  EXPECT_DOUBLE_EQ(p.flops_per_gpu, flops);
  EXPECT_NEAR(p.compute_s, flops / (989.4e12 * BuiltInCalibration().compute_efficiency), 1e-12);
  // A sharded checkpoint: 16 bytes per parameter of the quarter, over 4 replicas.
  EXPECT_NEAR(static_cast<double>(p.checkpoint_bytes_per_gpu), params / 4 * 16 / 4, 16);
  EXPECT_EQ(p.pipeline_bytes, 0u);
  EXPECT_EQ(p.alltoall_bytes, 0u);
}

// llama3-70b on 64 GPUs: tp = 8 is not enough (70.6e9 x 20 / 8 = 176 GB),
// nor pp = 2 (88 GB > 80 GB); pp = 4 holds it (44 GB), leaving dp = 2.
TEST(JobProfileTest, LargeModelAddsPipelineStagesUntilItFits) {
  const ModelSpec m = Model("llama3-70b");
  const double params = static_cast<double>(CountParameters(m).total);
  ASSERT_GT(params * kTrainingBytesPerParam / 16, 74.5 * kGiB);
  ASSERT_LE(params * kTrainingBytesPerParam / 32, 74.5 * kGiB);
  const JobProfile p = ProfileJob(m, true, 64, 8, JobModelOptions{});
  EXPECT_EQ(p.parallelism.tp, 8);
  EXPECT_EQ(p.parallelism.pp, 4);
  EXPECT_EQ(p.parallelism.dp, 2);
  // Pipeline: 8192 tokens x pp per tensor rank's share, hidden 8192, bf16,
  // forward and backward.
  EXPECT_EQ(p.pipeline_bytes, uint64_t{8192} * 4 * 8192 * 2 * 2);
  // Too few GPUs for the state: the deepest pipeline there is.
  const JobProfile small = ProfileJob(m, true, 16, 8, JobModelOptions{});
  EXPECT_EQ(small.parallelism.tp, 8);
  EXPECT_EQ(small.parallelism.pp, 2);
  EXPECT_EQ(small.parallelism.dp, 1);
  EXPECT_EQ(small.allreduce_bytes, 0u);  // one replica: nothing to reduce
}

// deepseek-v3 on 256 GPUs: experts over ep = dp; each GPU's all-to-all per
// iteration = tokens x hidden x 2 bytes x top_k x (ep-1)/ep x 2 (dispatch,
// combine) x MoE layers x 2 (forward, backward).
TEST(JobProfileTest, MixtureOfExpertsSendsAllToAll) {
  const ModelSpec m = Model("deepseek-v3");
  const JobProfile p = ProfileJob(m, true, 256, 8, JobModelOptions{});
  const JobParallelism& par = p.parallelism;
  EXPECT_EQ(par.tp * par.pp * par.dp, 256);
  EXPECT_EQ(par.ep, par.dp);
  ASSERT_GT(par.ep, 1);
  const int moe_layers = m.layers - m.first_dense_layers;  // moe_layer_freq 1
  const double expected = 4096.0 * 7168 * 2 * 8 * (par.ep - 1) / par.ep * 2 * moe_layers * 2;
  EXPECT_NEAR(static_cast<double>(p.alltoall_bytes), expected, 1);
  // Inference: the forward pass only, half the all-to-all, a third of the
  // compute, no gradients or checkpoint.
  const JobProfile serve = ProfileJob(m, false, 256, 8, JobModelOptions{});
  EXPECT_NEAR(static_cast<double>(serve.alltoall_bytes), expected / 2, 1);
  EXPECT_NEAR(serve.compute_s, p.compute_s / 3, p.compute_s * 1e-12);
  EXPECT_EQ(serve.allreduce_bytes, 0u);
  EXPECT_EQ(serve.checkpoint_bytes_per_gpu, 0u);
}

TEST(JobProfileTest, SingleGpuJobHasNoCommunication) {
  const JobProfile p = ProfileJob(Model("llama3-8b"), true, 1, 8, JobModelOptions{});
  EXPECT_EQ(p.parallelism.tp, 1);
  EXPECT_EQ(p.parallelism.dp, 1);
  EXPECT_EQ(p.allreduce_bytes + p.pipeline_bytes + p.alltoall_bytes, 0u);
}

TEST(JobProfileTest, TokensPerGpuScalesCompute) {
  JobModelOptions o;
  o.tokens_per_gpu = 2048;
  o.compute_efficiency = 0.5;
  const ModelSpec m = Model("llama3-8b");
  const JobProfile p = ProfileJob(m, true, 8, 8, o);
  EXPECT_NEAR(p.compute_s, TrainingFlopsPerToken(m, 8192) * 2048 / (989.4e12 * 0.5), 1e-12);
}

TEST(JobProfileTest, OptionErrorsNameTheField) {
  JobModelOptions o;
  o.compute_efficiency = 1.5;
  EXPECT_EQ(ValidateJobModelOptions(o).error().message.rfind("scheduling.jobs.compute_efficiency: ", 0), 0u);
  o = {};
  o.grad_bytes = 3;
  EXPECT_EQ(ValidateJobModelOptions(o).error().message, "scheduling.jobs.grad_bytes: expected 1, 2, 4 or 8, got 3");
  o = {};
  o.overlap_fraction = -0.1;
  EXPECT_EQ(ValidateJobModelOptions(o).error().message.rfind("scheduling.jobs.overlap_fraction: ", 0), 0u);
  o = {};
  o.gpu_peak_tflops = 0;
  EXPECT_FALSE(ValidateJobModelOptions(o).ok());
  EXPECT_TRUE(ValidateJobModelOptions(JobModelOptions{}).ok());
}

}  // namespace
}  // namespace aifabric
