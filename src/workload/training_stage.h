// StageStepsMaker lists the steps of one pipeline stage of a training step
// (training_step.h): what every GPU of the stage runs, in order, for one
// micro-batch's forward and backward pass. Per layer (Megatron,
// arXiv:2104.04473): the attention and MLP (or MoE) compute at the model's
// FLOPs, recompute included, each with its tensor-parallel collectives and,
// for experts, the all-to-alls around them; k layers merged into one compute
// step and one collective per (kind, op) when coarsened (layers_per_node);
// the embedding and output layers on the first and last stage; and the
// parameters whose gradients each backward step completes (for the gradient
// buckets). StepLabels names the steps in the graph's label table.
// docs/training.md gives the formulas. Internal to src/workload
// (BuildTrainingStep builds the graph from these); not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/time.h"
#include "workload/collective_op.h"
#include "workload/job_graph.h"
#include "workload/model_catalog.h"
#include "workload/training_step.h"

namespace aifabric {

enum class StageStepKind : uint8_t { kCompute, kTensor, kExpert };

// One step of a stage's forward or backward pass, the same on every GPU of
// the stage: a compute kernel, or a TP collective, or an EP all-to-all.
struct StageStep {
  StageStepKind kind = StageStepKind::kCompute;
  CollectiveOp op = CollectiveOp::kAllReduce;
  double hw_flops = 0;      // compute, per GPU: sets the duration (includes recompute)
  double useful_flops = 0;  // compute, per GPU: model FLOPs
  Time duration;            // compute
  uint64_t bytes = 0;       // collective S
  int64_t dense_grads = 0;  // compute (backward): parameters per GPU whose gradients it completes
  int64_t expert_grads = 0;
  uint32_t label = 0;
};

// A stage's steps and the gradients its backward completes, in order.
struct StageSteps {
  int first_layer = 0;
  int layers = 0;
  std::vector<StageStep> forward;
  std::vector<StageStep> backward;
  int64_t dense_params = 0;   // per GPU
  int64_t expert_params = 0;  // per GPU
};

// A graph's node labels, each added to the graph once, in order of first
// use (so the label table comes out in the order the steps name them).
class StepLabels {
 public:
  explicit StepLabels(JobGraphBuilder& builder) : builder_(builder) {}
  StepLabels(const StepLabels&) = delete;
  StepLabels& operator=(const StepLabels&) = delete;

  uint32_t Get(const std::string& name);

 private:
  JobGraphBuilder& builder_;
  std::unordered_map<std::string, uint32_t> ids_;
};

class StageStepsMaker {
 public:
  // `seq` is the sequence length in use; compute runs at
  // `flops_per_second` per GPU. The arguments outlive the maker.
  StageStepsMaker(const ModelSpec& model, const ParallelismSpec& p, const TrainingSpec& t, int seq,
                  double flops_per_second, StepLabels& labels)
      : model_(model),
        p_(p),
        t_(t),
        seq_(seq),
        sp_(p.sequence_parallel && p.tp > 1),
        flops_per_second_(flops_per_second),
        tokens_(static_cast<double>(t.micro_batch) * seq),
        act_bytes_(static_cast<uint64_t>(t.micro_batch) * seq * model.hidden * t.dtype_bytes),
        labels_(labels) {}

  // The steps of stage `stage`, which holds layers [first_layer,
  // first_layer + layers). REQUIRES: 0 <= stage < p.pp, layers >= 1.
  StageSteps MakeStage(int stage, int first_layer, int layers);

  // Sequence parallelism in effect (it needs tp > 1).
  bool sequence_parallel() const { return sp_; }
  // One micro-batch's activations, b s h dtype bytes.
  uint64_t activation_bytes() const { return act_bytes_; }

 private:
  StageStep Compute(double hw, double useful, const std::string& label) {
    StageStep s;
    s.hw_flops = hw;
    s.useful_flops = useful;
    s.label = labels_.Get(label);
    return s;
  }
  StageStep Comm(StageStepKind kind, CollectiveOp op, uint64_t bytes, const std::string& label) {
    StageStep s;
    s.kind = kind;
    s.op = op;
    s.bytes = bytes;
    s.label = labels_.Get(label);
    return s;
  }
  std::string TpLabel(CollectiveOp op, const std::string& what) {
    std::string s = "tp ";
    s += CollectiveOpName(op);
    s += " ";
    s += what;
    return s;
  }
  void AppendLayerForward(int layer, bool recompute, std::vector<StageStep>& out);
  void AppendLayerBackward(int layer, std::vector<StageStep>& out);
  std::vector<StageStep> Merge(const std::vector<StageStep>& steps, const std::string& name);
  // Appends the steps of layers [a, b): as they are for one layer, merged for more.
  void AppendBlock(const std::vector<StageStep>& block, const char* phase, int a, int b, std::vector<StageStep>& out);
  Time Duration(double flops) const { return Time::FromSeconds(flops / flops_per_second_); }

  // Fixed at construction.
  const ModelSpec& model_;
  const ParallelismSpec& p_;
  const TrainingSpec& t_;
  const int seq_;
  const bool sp_;
  const double flops_per_second_;
  const double tokens_;       // per micro-batch
  const uint64_t act_bytes_;  // b s h dtype
  StepLabels& labels_;
};

}  // namespace aifabric
