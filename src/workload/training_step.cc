#include "workload/training_step.h"

#include <algorithm>

#include "workload/field_error.h"
#include "workload/model_costs.h"
#include "workload/training_calibration.h"
#include "workload/training_schedule.h"
#include "workload/training_stage.h"

namespace aifabric {
namespace {

std::string Num(int64_t v) { return std::to_string(v); }

// "<value> <rule>", e.g. "3 does not divide ...".
std::string Said(int64_t value, const std::string& rule) {
  std::string s = Num(value);
  s += " ";
  s += rule;
  return s;
}

Status ValidateParallelism(const ModelSpec& model, const ParallelismSpec& p, const ClusterShape& c) {
  if (c.gpus_per_server < 1) return FieldError("cluster.gpus_per_server", Said(c.gpus_per_server, "must be >= 1"));
  if (c.gpus < 1 || c.gpus % c.gpus_per_server != 0) {
    return FieldError("cluster.gpus", Said(c.gpus, "must be a positive multiple of cluster.gpus_per_server = " +
                                                       Num(c.gpus_per_server)));
  }
  if (p.tp < 1 || c.gpus_per_server % p.tp != 0) {
    return FieldError("parallelism.tp", Said(p.tp, "does not divide cluster.gpus_per_server = " +
                                                       Num(c.gpus_per_server) +
                                                       " (a tensor-parallel group stays within a server)"));
  }
  if (p.pp < 1) return FieldError("parallelism.pp", Said(p.pp, "must be >= 1"));
  if (p.dp < 1) return FieldError("parallelism.dp", Said(p.dp, "must be >= 1"));
  if (p.cp != 1) {
    return FieldError("parallelism.cp", Said(p.cp, "is not supported: context parallelism is not modelled; must be 1"));
  }
  if (int64_t{p.tp} * p.pp * p.dp != c.gpus) {
    std::string what = "tp x pp x dp = ";
    what += Num(p.tp);
    what += " x ";
    what += Num(p.pp);
    what += " x ";
    what += Num(p.dp);
    what += " = ";
    what += Num(int64_t{p.tp} * p.pp * p.dp);
    what += " but cluster.gpus = ";
    what += Num(c.gpus);
    return FieldError("parallelism", what);
  }
  if (p.ep < 1) return FieldError("parallelism.ep", Said(p.ep, "must be >= 1"));
  if (p.ep > 1 && !model.moe()) {
    return FieldError("parallelism.ep", Said(p.ep, "needs a mixture-of-experts model; model '" + model.name +
                                                       "' has no experts"));
  }
  if (p.dp % p.ep != 0) {
    return FieldError("parallelism.ep", Said(p.ep, "does not divide parallelism.dp = " + Num(p.dp) +
                                                       " (expert parallelism runs inside data parallelism)"));
  }
  if (model.moe() && model.experts % p.ep != 0) {
    return FieldError("parallelism.ep", Said(p.ep, "does not divide model.experts = " + Num(model.experts)));
  }
  if (model.heads % p.tp != 0) {
    return FieldError("model.heads", Said(model.heads, "is not a multiple of parallelism.tp = " + Num(p.tp)));
  }
  if (!model.mla() && model.kv_heads_or_default() % p.tp != 0) {
    return FieldError("model.kv_heads",
                      Said(model.kv_heads_or_default(), "is not a multiple of parallelism.tp = " + Num(p.tp)));
  }
  if (model.ffn_hidden % p.tp != 0) {
    return FieldError("model.ffn_hidden", Said(model.ffn_hidden, "is not a multiple of parallelism.tp = " + Num(p.tp)));
  }
  if (model.moe() && model.expert_ffn_hidden % p.tp != 0) {
    return FieldError("model.expert_ffn_hidden",
                      Said(model.expert_ffn_hidden, "is not a multiple of parallelism.tp = " + Num(p.tp)));
  }
  if (p.stage_layers.empty()) {
    if (model.layers % p.pp != 0) {
      return FieldError("parallelism.pp", Said(p.pp, "stages do not split model.layers = " + Num(model.layers) +
                                                         " evenly (give parallelism.stage_layers)"));
    }
  } else {
    if (static_cast<int>(p.stage_layers.size()) != p.pp) {
      return FieldError("parallelism.stage_layers", Said(static_cast<int64_t>(p.stage_layers.size()),
                                                         "entries but parallelism.pp = " + Num(p.pp)));
    }
    int64_t sum = 0;
    for (int n : p.stage_layers) {
      if (n < 1) return FieldError("parallelism.stage_layers", "every stage needs at least one layer");
      sum += n;
    }
    if (sum != model.layers) {
      return FieldError("parallelism.stage_layers", "the stages hold " + Num(sum) + " layers but model.layers = " +
                                                        Num(model.layers));
    }
  }
  if (p.layers_per_node < 1) return FieldError("parallelism.layers_per_node", Said(p.layers_per_node, "must be >= 1"));
  if (p.bucket_bytes == 0) return FieldError("parallelism.bucket_bytes", "must be > 0");
  return Status::Ok();
}

Status ValidateTraining(const ParallelismSpec& p, const TrainingSpec& t) {
  if (t.micro_batch < 1) return FieldError("training.micro_batch", Said(t.micro_batch, "must be >= 1"));
  if (t.global_batch < 1) return FieldError("training.global_batch", Said(t.global_batch, "must be >= 1"));
  if (t.global_batch % (int64_t{t.micro_batch} * p.dp) != 0) {
    return FieldError("training.global_batch",
                      Said(t.global_batch, "sequences are not a multiple of training.micro_batch x parallelism.dp = " +
                                               Num(t.micro_batch) + " x " + Num(p.dp)));
  }
  if (t.seq_len < 0) return FieldError("training.seq_len", Said(t.seq_len, "must be >= 0 (0 = the model's)"));
  if (t.dtype_bytes < 1 || t.dtype_bytes > 8) {
    return FieldError("training.dtype_bytes", Said(t.dtype_bytes, "must be in [1, 8]"));
  }
  if (t.grad_bytes < 1 || t.grad_bytes > 8) {
    return FieldError("training.grad_bytes", Said(t.grad_bytes, "must be in [1, 8]"));
  }
  if (!(t.gpu_peak_tflops > 0)) return FieldError("training.gpu_peak_tflops", "must be > 0");
  if (!(t.compute_efficiency >= 0 && t.compute_efficiency <= 1)) {
    return FieldError("training.compute_efficiency", "must be in (0, 1] (0 = the calibration file's)");
  }
  if (!(t.hbm_bytes_per_s > 0)) return FieldError("training.hbm_bytes_per_s", "must be > 0");
  if (!(t.optimizer_bytes_per_param >= 0)) {
    return FieldError("training.optimizer_bytes_per_param", "must be >= 0 (0 = the calibration file's)");
  }
  return Status::Ok();
}

class TrainingGraphMaker {
 public:
  TrainingGraphMaker(const ModelSpec& model, const ParallelismSpec& p, const TrainingSpec& t, int seq, int m,
                     double efficiency, double optimizer_bytes_per_param)
      : model_(model),
        p_(p),
        t_(t),
        m_(m),
        layout_(p.tp, p.pp, p.dp, p.order),
        optimizer_bytes_per_param_(optimizer_bytes_per_param),
        labels_(builder_),
        stage_maker_(model, p, t, seq, t.gpu_peak_tflops * 1e12 * efficiency, labels_) {}

  Result<TrainingStep> Make();

 private:
  size_t EstimateNodes() const;

  void EmitOp(int stage, const PipelineOp& op);
  void EmitTransfers();
  JobNodeIndex EmitReduceChain(int stage, const std::vector<GpuId>& members, uint32_t group, bool expert,
                               std::vector<int64_t>& bucket_params);
  void EmitGatherChain(const std::vector<GpuId>& members, uint32_t group, bool expert,
                       const std::vector<int64_t>& bucket_params);
  void EmitGradientSync();
  void AddCommBytes(CommDimension d, uint64_t bytes) { step_.comm_bytes[static_cast<size_t>(d)] += bytes; }
  GpuId Gpu(int stage, int local) const { return layout_.gpu(stage, local / p_.tp, local % p_.tp); }
  size_t OpSlot(int stage, bool backward, int micro_batch) const {
    return (static_cast<size_t>(stage) * 2 + (backward ? 1 : 0)) * static_cast<size_t>(m_) + micro_batch;
  }

  // Fixed at construction.
  const ModelSpec& model_;
  const ParallelismSpec& p_;
  const TrainingSpec& t_;
  const int m_;
  const TrainingRankLayout layout_;
  const double optimizer_bytes_per_param_;

  JobGraphBuilder builder_;
  StepLabels labels_;  // builder_'s
  StageStepsMaker stage_maker_;
  TrainingStep step_;
  std::vector<StageSteps> stages_;
  std::vector<std::vector<uint32_t>> tp_groups_;                // [stage][dp]
  std::vector<std::vector<std::vector<uint32_t>>> ep_groups_;   // [stage][tp][dp / ep block]
  std::vector<JobNodeIndex> last_;                              // per GPU: the end of its chain so far
  std::vector<std::vector<JobNodeIndex>> op_first_, op_last_;   // [OpSlot][local rank]
  std::vector<std::vector<JobNodeIndex>> grad_nodes_;           // per GPU: the last backward's gradient nodes
  std::vector<JobNodeIndex> backward_end_;                      // per GPU
  std::vector<std::vector<JobNodeIndex>> sync_done_;            // per GPU: gradient syncs the optimizer waits for
  std::vector<Time> busy_, useful_busy_;                        // per GPU
};

size_t TrainingGraphMaker::EstimateNodes() const {
  const size_t tp = p_.tp, dp = p_.dp, ep = p_.ep;
  size_t nodes = 0;
  for (const StageSteps& st : stages_) {
    for (const std::vector<StageStep>* list : {&st.forward, &st.backward}) {
      for (const StageStep& s : *list) {
        const size_t per_op = s.kind == StageStepKind::kCompute ? tp * dp : s.kind == StageStepKind::kTensor ? dp : tp * dp / ep;
        nodes += per_op * static_cast<size_t>(m_);
      }
    }
    // Gradient buckets: one collective per bucket and DP group (tp of
    // them per stage; tp x ep expert-DP groups), twice with ZeRO-1.
    const uint64_t cap = std::max<uint64_t>(1, p_.bucket_bytes / t_.grad_bytes);
    const size_t per_chain = st.backward.size() + 2;  // a bucket cut at every layer, at most
    const size_t dense = static_cast<size_t>(st.dense_params / static_cast<int64_t>(cap)) + per_chain;
    const size_t expert = static_cast<size_t>(st.expert_params / static_cast<int64_t>(cap)) + per_chain;
    nodes += (dense * tp + expert * tp * ep) * (p_.distributed_optimizer ? 2 : 1);
  }
  nodes += 2 * static_cast<size_t>(p_.pp - 1) * m_ * tp * dp;  // pipeline transfers
  nodes += 2 * static_cast<size_t>(p_.pp) * tp * dp;           // optimizer, embedding all-reduce
  return nodes;
}

// Emits one forward or backward pass of one micro-batch on every GPU of a
// stage, each node after the previous one of its GPU's chain: a GPU runs
// its compute in schedule order, and TP/EP collectives sit in that chain
// (they block the compute stream, as in Megatron).
void TrainingGraphMaker::EmitOp(int stage, const PipelineOp& op) {
  const StageSteps& st = stages_[static_cast<size_t>(stage)];
  const std::vector<StageStep>& steps = op.backward ? st.backward : st.forward;
  std::vector<JobNodeIndex>& first = op_first_[OpSlot(stage, op.backward, op.micro_batch)];
  std::vector<JobNodeIndex>& last = op_last_[OpSlot(stage, op.backward, op.micro_batch)];
  const bool record_grads = op.backward && op.micro_batch == m_ - 1;
  const int tp = p_.tp, dp = p_.dp, ep = p_.ep;
  const int locals = tp * dp;
  for (size_t k = 0; k < steps.size(); ++k) {
    const StageStep& s = steps[k];
    auto chain = [&](int local, JobNodeIndex node) {
      const GpuId g = Gpu(stage, local);
      builder_.AddEdge(last_[static_cast<size_t>(g)], node);
      last_[static_cast<size_t>(g)] = node;
      if (k == 0) first[static_cast<size_t>(local)] = node;
    };
    switch (s.kind) {
      case StageStepKind::kCompute:
        for (int local = 0; local < locals; ++local) {
          const GpuId g = Gpu(stage, local);
          const JobNodeIndex node = builder_.AddCompute(g, s.duration, s.useful_flops, s.label);
          chain(local, node);
          busy_[static_cast<size_t>(g)] += s.duration;
          if (s.useful_flops > 0) useful_busy_[static_cast<size_t>(g)] += s.duration;
          if (record_grads && (s.dense_grads > 0 || s.expert_grads > 0)) grad_nodes_[static_cast<size_t>(g)].push_back(node);
          ++step_.compute_nodes;
        }
        break;
      case StageStepKind::kTensor:
        for (int d = 0; d < dp; ++d) {
          const JobNodeIndex node = builder_.AddCollective(s.op, tp_groups_[static_cast<size_t>(stage)][static_cast<size_t>(d)],
                                                           s.bytes, CommDimension::kTensor, s.label);
          for (int t = 0; t < tp; ++t) chain(d * tp + t, node);
          AddCommBytes(CommDimension::kTensor, s.bytes);
          ++step_.collective_nodes;
        }
        break;
      case StageStepKind::kExpert:
        for (int t = 0; t < tp; ++t) {
          for (int block = 0; block < dp / ep; ++block) {
            const uint32_t group = ep_groups_[static_cast<size_t>(stage)][static_cast<size_t>(t)][static_cast<size_t>(block)];
            const JobNodeIndex node = builder_.AddCollective(s.op, group, s.bytes, CommDimension::kExpert, s.label);
            for (int e = 0; e < ep; ++e) chain((block * ep + e) * tp + t, node);
            AddCommBytes(CommDimension::kExpert, s.bytes);
            ++step_.collective_nodes;
          }
        }
        break;
    }
  }
  for (int local = 0; local < locals; ++local) last[static_cast<size_t>(local)] = last_[static_cast<size_t>(Gpu(stage, local))];
}

// Pipeline sends: activations of micro-batch j from stage s to s+1 after
// its forward there, gradients back after its backward on s+1; each TP
// rank sends to the same TP rank (b s h dtype; 1/tp of it with SP).
void TrainingGraphMaker::EmitTransfers() {
  const uint64_t act_bytes = stage_maker_.activation_bytes();
  const uint64_t bytes = stage_maker_.sequence_parallel() ? act_bytes / p_.tp : act_bytes;
  const int locals = p_.tp * p_.dp;
  for (int s = 0; s + 1 < p_.pp; ++s) {
    const uint32_t fwd_label = labels_.Get("pp send fwd s" + Num(s) + "->s" + Num(s + 1));
    const uint32_t bwd_label = labels_.Get("pp send bwd s" + Num(s + 1) + "->s" + Num(s));
    for (int j = 0; j < m_; ++j) {
      for (int local = 0; local < locals; ++local) {
        const size_t l = static_cast<size_t>(local);
        const JobNodeIndex fwd = builder_.AddTransfer(Gpu(s, local), Gpu(s + 1, local), bytes,
                                                      CommDimension::kPipeline, fwd_label);
        builder_.AddEdge(op_last_[OpSlot(s, false, j)][l], fwd);
        builder_.AddEdge(fwd, op_first_[OpSlot(s + 1, false, j)][l]);
        const JobNodeIndex bwd = builder_.AddTransfer(Gpu(s + 1, local), Gpu(s, local), bytes,
                                                      CommDimension::kPipeline, bwd_label);
        builder_.AddEdge(op_last_[OpSlot(s + 1, true, j)][l], bwd);
        builder_.AddEdge(bwd, op_first_[OpSlot(s, true, j)][l]);
        AddCommBytes(CommDimension::kPipeline, 2 * bytes);
        step_.transfer_nodes += 2;
      }
    }
  }
}

// Gradient buckets of one DP (or expert-DP) group, in the order the last
// micro-batch's backward completes them: all-reduce (or reduce-scatter with
// the distributed optimizer) of bucket_bytes of gradients each, issued in
// order on one stream, each after the node that completed its last gradient
// on every member (overlap) or after the end of backward. Returns the last.
JobNodeIndex TrainingGraphMaker::EmitReduceChain(int stage, const std::vector<GpuId>& members, uint32_t group,
                                                 bool expert, std::vector<int64_t>& bucket_params) {
  const StageSteps& st = stages_[static_cast<size_t>(stage)];
  const int64_t cap = std::max<int64_t>(1, static_cast<int64_t>(p_.bucket_bytes / t_.grad_bytes));
  const CollectiveOp op = p_.distributed_optimizer ? CollectiveOp::kReduceScatter : CollectiveOp::kAllReduce;
  std::string prefix = expert ? "expert dp " : "dp ";
  prefix += CollectiveOpName(op);
  prefix += " bucket ";
  JobNodeIndex prev = kNoJobNode;
  auto emit = [&](int64_t params, size_t event) {
    const uint64_t bytes = static_cast<uint64_t>(params) * t_.grad_bytes;
    const JobNodeIndex node =
        builder_.AddCollective(op, group, bytes, CommDimension::kData, labels_.Get(prefix + Num(static_cast<int64_t>(bucket_params.size()))));
    builder_.AddEdge(prev, node);
    for (GpuId g : members) {
      const size_t gi = static_cast<size_t>(g);
      builder_.AddEdge(p_.overlap_grad_reduce ? grad_nodes_[gi][event] : backward_end_[gi], node);
    }
    AddCommBytes(CommDimension::kData, bytes);
    ++step_.collective_nodes;
    bucket_params.push_back(params);
    prev = node;
  };
  int64_t pending = 0;
  size_t event = 0, last_event = 0;
  for (const StageStep& s : st.backward) {
    if (s.kind != StageStepKind::kCompute || (s.dense_grads == 0 && s.expert_grads == 0)) continue;
    const int64_t params = expert ? s.expert_grads : s.dense_grads;
    if (params > 0) {
      pending += params;
      last_event = event;
      while (pending >= cap) {
        emit(cap, event);
        pending -= cap;
      }
    }
    ++event;
  }
  if (pending > 0) emit(pending, last_event);
  return prev;
}

// With the distributed optimizer: the updated parameters all-gathered per
// bucket (dtype bytes per parameter) after every member's optimizer step.
void TrainingGraphMaker::EmitGatherChain(const std::vector<GpuId>& members, uint32_t group, bool expert,
                                         const std::vector<int64_t>& bucket_params) {
  const uint32_t label = labels_.Get(expert ? "expert dp all_gather params" : "dp all_gather params");
  JobNodeIndex prev = kNoJobNode;
  for (int64_t params : bucket_params) {
    const uint64_t bytes = static_cast<uint64_t>(params) * t_.dtype_bytes;
    const JobNodeIndex node = builder_.AddCollective(CollectiveOp::kAllGather, group, bytes, CommDimension::kData, label);
    builder_.AddEdge(prev, node);
    for (GpuId g : members) builder_.AddEdge(last_[static_cast<size_t>(g)], node);  // the optimizer
    AddCommBytes(CommDimension::kData, bytes);
    ++step_.collective_nodes;
    prev = node;
  }
}

// After the schedule: gradient buckets per DP and expert-DP group, the
// tied word-embedding all-reduce between the first and last stage, the
// optimizer on every GPU, and with the distributed optimizer the parameter
// all-gathers.
void TrainingGraphMaker::EmitGradientSync() {
  const int tp = p_.tp, dp = p_.dp, ep = p_.ep;
  struct Chain {
    int stage;
    bool expert;
    std::vector<GpuId> members;
    uint32_t group = 0;
    std::vector<int64_t> buckets;
  };
  std::vector<Chain> chains;
  for (int s = 0; s < p_.pp; ++s) {
    const StageSteps& st = stages_[static_cast<size_t>(s)];
    for (int t = 0; t < tp; ++t) {
      if (dp > 1 && st.dense_params > 0) {
        Chain c{s, false, {}, 0, {}};
        for (int d = 0; d < dp; ++d) c.members.push_back(layout_.gpu(s, d, t));
        chains.push_back(std::move(c));
      }
      if (dp / ep > 1 && st.expert_params > 0) {
        for (int e = 0; e < ep; ++e) {
          Chain c{s, true, {}, 0, {}};
          for (int d = e; d < dp; d += ep) c.members.push_back(layout_.gpu(s, d, t));
          chains.push_back(std::move(c));
        }
      }
    }
  }
  for (Chain& c : chains) {
    std::sort(c.members.begin(), c.members.end());
    c.group = builder_.AddGroup(c.members);
    const JobNodeIndex end = EmitReduceChain(c.stage, c.members, c.group, c.expert, c.buckets);
    for (GpuId g : c.members) sync_done_[static_cast<size_t>(g)].push_back(end);
  }
  if (model_.tied_embeddings && p_.pp > 1) {
    const uint64_t bytes = static_cast<uint64_t>(model_.vocab * model_.hidden / tp) * t_.grad_bytes;
    const uint32_t label = labels_.Get("embedding all_reduce");
    for (int d = 0; d < dp; ++d) {
      for (int t = 0; t < tp; ++t) {
        const GpuId a = layout_.gpu(0, d, t), b = layout_.gpu(p_.pp - 1, d, t);
        const JobNodeIndex node = builder_.AddCollective(CollectiveOp::kAllReduce, builder_.AddGroup({std::min(a, b), std::max(a, b)}),
                                                         bytes, CommDimension::kPipeline, label);
        for (GpuId g : {a, b}) {
          builder_.AddEdge(backward_end_[static_cast<size_t>(g)], node);
          for (JobNodeIndex n : sync_done_[static_cast<size_t>(g)]) builder_.AddEdge(n, node);
        }
        for (GpuId g : {a, b}) sync_done_[static_cast<size_t>(g)].push_back(node);
        AddCommBytes(CommDimension::kPipeline, bytes);
        ++step_.collective_nodes;
      }
    }
  }
  const uint32_t optimizer_label = labels_.Get("optimizer");
  for (int s = 0; s < p_.pp; ++s) {
    const StageSteps& st = stages_[static_cast<size_t>(s)];
    const double shards_dense = p_.distributed_optimizer ? dp : 1;
    const double shards_expert = p_.distributed_optimizer ? dp / ep : 1;
    const double params = static_cast<double>(st.dense_params) / shards_dense + static_cast<double>(st.expert_params) / shards_expert;
    const Time duration = Time::FromSeconds(params * optimizer_bytes_per_param_ / t_.hbm_bytes_per_s);
    for (int local = 0; local < tp * dp; ++local) {
      const size_t g = static_cast<size_t>(Gpu(s, local));
      const JobNodeIndex node = builder_.AddCompute(static_cast<GpuId>(g), duration, 0, optimizer_label);
      builder_.AddEdge(last_[g], node);
      for (JobNodeIndex n : sync_done_[g]) builder_.AddEdge(n, node);
      last_[g] = node;
      busy_[g] += duration;
      ++step_.compute_nodes;
    }
  }
  if (p_.distributed_optimizer) {
    for (const Chain& c : chains) EmitGatherChain(c.members, c.group, c.expert, c.buckets);
  }
}

Result<TrainingStep> TrainingGraphMaker::Make() {
  const int pp = p_.pp, tp = p_.tp, dp = p_.dp, ep = p_.ep;
  const int gpus = tp * pp * dp;
  int first_layer = 0;
  for (int s = 0; s < pp; ++s) {
    const int layers = p_.stage_layers.empty() ? model_.layers / pp : p_.stage_layers[static_cast<size_t>(s)];
    stages_.push_back(stage_maker_.MakeStage(s, first_layer, layers));
    first_layer += layers;
  }
  const size_t estimate = EstimateNodes();
  if (estimate > kMaxTrainingGraphNodes) {
    std::string what = "the step would have about ";
    what += Num(static_cast<int64_t>(estimate));
    what += " nodes, more than ";
    what += Num(static_cast<int64_t>(kMaxTrainingGraphNodes));
    what += "; raise parallelism.layers_per_node (now ";
    what += Num(p_.layers_per_node);
    what += ") to merge layers";
    return FieldError("parallelism.layers_per_node", what);
  }

  for (int s = 0; s < pp; ++s) {
    tp_groups_.emplace_back();
    ep_groups_.emplace_back(static_cast<size_t>(tp));
    for (int d = 0; d < dp; ++d) {
      std::vector<GpuId> g;
      for (int t = 0; t < tp; ++t) g.push_back(layout_.gpu(s, d, t));
      tp_groups_.back().push_back(tp > 1 ? builder_.AddGroup(std::move(g)) : 0);
    }
    if (ep > 1) {
      for (int t = 0; t < tp; ++t) {
        for (int block = 0; block < dp / ep; ++block) {
          std::vector<GpuId> g;
          for (int e = 0; e < ep; ++e) g.push_back(layout_.gpu(s, block * ep + e, t));
          std::sort(g.begin(), g.end());
          ep_groups_.back()[static_cast<size_t>(t)].push_back(builder_.AddGroup(std::move(g)));
        }
      }
    }
  }

  const size_t g_count = static_cast<size_t>(gpus);
  last_.assign(g_count, kNoJobNode);
  grad_nodes_.assign(g_count, {});
  sync_done_.assign(g_count, {});
  busy_.assign(g_count, Time::Zero());
  useful_busy_.assign(g_count, Time::Zero());
  op_first_.assign(static_cast<size_t>(pp) * 2 * m_, std::vector<JobNodeIndex>(static_cast<size_t>(tp * dp), kNoJobNode));
  op_last_ = op_first_;
  for (int s = 0; s < pp; ++s) {
    for (const PipelineOp& op : OneFOneBSchedule(s, pp, m_)) EmitOp(s, op);
  }
  backward_end_ = last_;
  EmitTransfers();
  EmitGradientSync();

  for (size_t g = 0; g < g_count; ++g) {
    step_.max_gpu_compute = std::max(step_.max_gpu_compute, busy_[g]);
    step_.max_gpu_useful_compute = std::max(step_.max_gpu_useful_compute, useful_busy_[g]);
  }
  for (const StageSteps& st : stages_) {
    step_.stage_params_per_gpu.push_back(st.dense_params + st.expert_params);
  }
  Result<JobGraph> graph = std::move(builder_).Build();
  if (!graph.ok()) return Error{"internal error: training graph: " + graph.error().message};
  step_.graph = std::move(graph).value();
  return std::move(step_);
}

}  // namespace

Result<TrainingStep> BuildTrainingStep(const ModelSpec& model, const ParallelismSpec& parallelism,
                                       const TrainingSpec& training, const ClusterShape& cluster) {
  if (Status s = ValidateModel(model, "model"); !s.ok()) return s.error();
  if (Status s = ValidateParallelism(model, parallelism, cluster); !s.ok()) return s.error();
  if (Status s = ValidateTraining(parallelism, training); !s.ok()) return s.error();
  const CalibrationSpec& calibration = BuiltInCalibration();
  const double efficiency = training.compute_efficiency > 0 ? training.compute_efficiency : calibration.compute_efficiency;
  const double optimizer_bytes = training.optimizer_bytes_per_param > 0 ? training.optimizer_bytes_per_param
                                                                        : calibration.optimizer_bytes_per_param;
  const int seq = training.seq_len > 0 ? training.seq_len : model.seq_len;
  const int m = training.global_batch / (training.micro_batch * parallelism.dp);
  TrainingGraphMaker maker(model, parallelism, training, seq, m, efficiency, optimizer_bytes);
  Result<TrainingStep> step = maker.Make();
  if (!step.ok()) return step;
  step->tokens_per_step = static_cast<uint64_t>(training.global_batch) * seq;
  step->model_flops_per_step = static_cast<double>(step->tokens_per_step) * TrainingFlopsPerToken(model, seq);
  step->micro_batches = m;
  step->seq_len = seq;
  step->gpus = cluster.gpus;
  step->peak_flops_per_gpu = training.gpu_peak_tflops * 1e12;
  step->compute_efficiency = efficiency;
  return step;
}

}  // namespace aifabric
