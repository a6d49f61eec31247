#include "workload/training_stage.h"

#include <algorithm>

#include "workload/model_costs.h"

namespace aifabric {

uint32_t StepLabels::Get(const std::string& name) {
  auto [it, inserted] = ids_.try_emplace(name, 0);
  if (inserted) it->second = builder_.AddLabel(name);
  return it->second;
}

// Forward of one layer (Megatron, arXiv:2104.04473 section 2.3): attention,
// then the MLP or the MoE block, each followed by a TP all-reduce of its
// b x s x h output; with sequence parallelism an all-gather before and a
// reduce-scatter after instead. MoE: dispatch all-to-all, experts, combine.
void StageStepsMaker::AppendLayerForward(int layer, bool recompute, std::vector<StageStep>& out) {
  const std::string phase = recompute ? "recompute" : "fwd";
  std::string where = phase;
  where += " L";
  where += std::to_string(layer);
  const double attn = AttentionForwardFlopsPerToken(model_, seq_) * tokens_ / p_.tp;
  const double mlp = MlpForwardFlopsPerToken(model_, layer) * tokens_ / p_.tp;
  const double a2a_bytes = static_cast<double>(act_bytes_) * model_.top_k / p_.tp;
  for (const char* part : {" attn", " mlp"}) {
    if (sp_) out.push_back(Comm(StageStepKind::kTensor, CollectiveOp::kAllGather, act_bytes_,
                                TpLabel(CollectiveOp::kAllGather, where + part)));
    const bool is_attn = part[1] == 'a';
    if (is_attn) {
      out.push_back(Compute(attn, recompute ? 0 : attn, where + part));
    } else if (model_.is_moe_layer(layer)) {
      if (p_.ep > 1) out.push_back(Comm(StageStepKind::kExpert, CollectiveOp::kAllToAll, static_cast<uint64_t>(a2a_bytes),
                                        "ep alltoall " + where + " dispatch"));
      out.push_back(Compute(mlp, recompute ? 0 : mlp, where + " experts"));
      if (p_.ep > 1) out.push_back(Comm(StageStepKind::kExpert, CollectiveOp::kAllToAll, static_cast<uint64_t>(a2a_bytes),
                                        "ep alltoall " + where + " combine"));
    } else {
      out.push_back(Compute(mlp, recompute ? 0 : mlp, where + part));
    }
    if (p_.tp > 1) {
      const CollectiveOp op = sp_ ? CollectiveOp::kReduceScatter : CollectiveOp::kAllReduce;
      out.push_back(Comm(StageStepKind::kTensor, op, act_bytes_, TpLabel(op, where + part)));
    }
  }
}

// Backward of one layer: MLP (or MoE) then attention, each at twice its
// forward FLOPs, each followed by the TP all-reduce of its input gradient
// (Megatron's "f" operator); with sequence parallelism all-gather before,
// reduce-scatter after. The compute nodes complete their weights' gradients.
void StageStepsMaker::AppendLayerBackward(int layer, std::vector<StageStep>& out) {
  std::string where = "bwd L";
  where += std::to_string(layer);
  const double attn = 2 * AttentionForwardFlopsPerToken(model_, seq_) * tokens_ / p_.tp;
  const double mlp = 2 * MlpForwardFlopsPerToken(model_, layer) * tokens_ / p_.tp;
  const double a2a_bytes = static_cast<double>(act_bytes_) * model_.top_k / p_.tp;
  for (const char* part : {" mlp", " attn"}) {
    if (sp_) out.push_back(Comm(StageStepKind::kTensor, CollectiveOp::kAllGather, act_bytes_,
                                TpLabel(CollectiveOp::kAllGather, where + part)));
    const bool is_attn = part[1] == 'a';
    if (is_attn) {
      StageStep s = Compute(attn, attn, where + part);
      s.dense_grads = AttentionParams(model_) / p_.tp + NormParams(model_);
      out.push_back(s);
    } else if (model_.is_moe_layer(layer)) {
      if (p_.ep > 1) out.push_back(Comm(StageStepKind::kExpert, CollectiveOp::kAllToAll, static_cast<uint64_t>(a2a_bytes),
                                        "ep alltoall " + where + " combine"));
      StageStep s = Compute(mlp, mlp, where + " experts");
      s.dense_grads = model_.shared_experts * ExpertParams(model_) / p_.tp + RouterParams(model_);
      s.expert_grads = (model_.experts / p_.ep) * ExpertParams(model_) / p_.tp;
      out.push_back(s);
      if (p_.ep > 1) out.push_back(Comm(StageStepKind::kExpert, CollectiveOp::kAllToAll, static_cast<uint64_t>(a2a_bytes),
                                        "ep alltoall " + where + " dispatch"));
    } else {
      StageStep s = Compute(mlp, mlp, where + part);
      s.dense_grads = DenseMlpParams(model_) / p_.tp;
      out.push_back(s);
    }
    if (p_.tp > 1) {
      const CollectiveOp op = sp_ ? CollectiveOp::kReduceScatter : CollectiveOp::kAllReduce;
      out.push_back(Comm(StageStepKind::kTensor, op, act_bytes_, TpLabel(op, where + part)));
    }
  }
}

// Coarsening: one compute step carrying all the block's compute, then one
// collective per (kind, op), in order of first appearance, carrying the sum
// of their bytes.
std::vector<StageStep> StageStepsMaker::Merge(const std::vector<StageStep>& steps, const std::string& name) {
  std::vector<StageStep> out;
  StageStep compute = Compute(0, 0, name);
  for (const StageStep& s : steps) {
    if (s.kind != StageStepKind::kCompute) continue;
    compute.hw_flops += s.hw_flops;
    compute.useful_flops += s.useful_flops;
    compute.dense_grads += s.dense_grads;
    compute.expert_grads += s.expert_grads;
  }
  out.push_back(compute);
  for (const StageStep& s : steps) {
    if (s.kind == StageStepKind::kCompute) continue;
    auto same = [&](const StageStep& o) { return o.kind == s.kind && o.op == s.op; };
    auto it = std::find_if(out.begin() + 1, out.end(), same);
    if (it != out.end()) {
      it->bytes += s.bytes;
      continue;
    }
    std::string label = s.kind == StageStepKind::kTensor ? "tp " : "ep ";
    label += CollectiveOpName(s.op);
    label += " ";
    label += name;
    out.push_back(Comm(s.kind, s.op, s.bytes, label));
  }
  return out;
}

void StageStepsMaker::AppendBlock(const std::vector<StageStep>& block, const char* phase, int a, int b,
                                     std::vector<StageStep>& out) {
  if (b - a == 1) {
    out.insert(out.end(), block.begin(), block.end());
    return;
  }
  std::string name = phase;
  name += " L";
  name += std::to_string(a);
  name += "-";
  name += std::to_string(b - 1);
  const std::vector<StageStep> merged = Merge(block, name);
  out.insert(out.end(), merged.begin(), merged.end());
}

StageSteps StageStepsMaker::MakeStage(int stage, int first_layer, int layers) {
  StageSteps st;
  st.first_layer = first_layer;
  st.layers = layers;
  const bool first = stage == 0;
  const bool last = stage == p_.pp - 1;
  const CollectiveOp tp_out = sp_ ? CollectiveOp::kReduceScatter : CollectiveOp::kAllReduce;
  const double head = HeadForwardFlopsPerToken(model_) * tokens_ / p_.tp;

  // Forward: the vocab-parallel embedding's TP all-reduce (reduce-scatter with
  // SP), the layers, the output layer (its input all-gathered with SP).
  if (first && p_.tp > 1) st.forward.push_back(Comm(StageStepKind::kTensor, tp_out, act_bytes_, TpLabel(tp_out, "fwd embedding")));
  const int k = p_.layers_per_node;
  for (int a = first_layer; a < first_layer + layers; a += k) {
    const int b = std::min(a + k, first_layer + layers);
    std::vector<StageStep> block;
    for (int l = a; l < b; ++l) AppendLayerForward(l, false, block);
    AppendBlock(block, "fwd", a, b, st.forward);
  }
  if (last) {
    if (sp_) st.forward.push_back(Comm(StageStepKind::kTensor, CollectiveOp::kAllGather, act_bytes_,
                                       TpLabel(CollectiveOp::kAllGather, "fwd head")));
    st.forward.push_back(Compute(head, head, "fwd head"));
  }

  // Backward: the output layer (its input gradient all-reduced, or
  // reduce-scattered with SP), the layers in reverse (each after its
  // recomputed forward with full recompute), the embedding's SP all-gather.
  if (last) {
    StageStep s = Compute(2 * head, 2 * head, "bwd head");
    const int64_t output = model_.tied_embeddings ? (p_.pp > 1 ? model_.vocab * model_.hidden : 0) : OutputParams(model_);
    s.dense_grads = output / p_.tp + model_.hidden;  // + the final norm
    st.backward.push_back(s);
    if (p_.tp > 1) st.backward.push_back(Comm(StageStepKind::kTensor, tp_out, act_bytes_, TpLabel(tp_out, "bwd head")));
  }
  std::vector<int> block_starts;
  for (int a = first_layer; a < first_layer + layers; a += k) block_starts.push_back(a);
  for (auto it = block_starts.rbegin(); it != block_starts.rend(); ++it) {
    const int a = *it;
    const int b = std::min(a + k, first_layer + layers);
    std::vector<StageStep> block;
    for (int l = b - 1; l >= a; --l) {
      if (t_.recompute) AppendLayerForward(l, true, block);
      AppendLayerBackward(l, block);
    }
    AppendBlock(block, "bwd", a, b, st.backward);
  }
  if (first) {
    const int64_t embedding = model_.vocab * model_.hidden / p_.tp +
                              (model_.learned_positions ? int64_t{model_.seq_len} * model_.hidden : 0);
    for (auto it = st.backward.rbegin(); it != st.backward.rend(); ++it) {
      if (it->kind == StageStepKind::kCompute) {
        it->dense_grads += embedding;
        break;
      }
    }
    if (sp_) st.backward.push_back(Comm(StageStepKind::kTensor, CollectiveOp::kAllGather, act_bytes_,
                                        TpLabel(CollectiveOp::kAllGather, "bwd embedding")));
  }
  for (std::vector<StageStep>* list : {&st.forward, &st.backward}) {
    for (StageStep& s : *list) {
      if (s.kind == StageStepKind::kCompute) s.duration = Duration(s.hw_flops);
      st.dense_params += s.dense_grads;
      st.expert_params += s.expert_grads;
    }
  }
  return st;
}

}  // namespace aifabric
