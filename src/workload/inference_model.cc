#include "workload/inference_model.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace aifabric {
namespace {

std::string ModelFieldMessage(const char* field, const std::string& what) {
  std::string m = "model.";
  m += field;
  m += ": ";
  m += what;
  return m;
}

}  // namespace

double InferenceModel::attention_params() const {
  const double h = hidden, d = head_dim_or_default();
  return 2.0 * h * heads * d + 2.0 * h * kv_heads * d;
}

double InferenceModel::mlp_params() const { return static_cast<double>(mlp_matrices) * hidden * ffn_hidden; }

double InferenceModel::expert_params() const { return static_cast<double>(mlp_matrices) * hidden * expert_ffn; }

double InferenceModel::layer_params(int32_t layer) const {
  if (!is_moe_layer(layer)) return attention_params() + mlp_params();
  return attention_params() + static_cast<double>(hidden) * experts +
         static_cast<double>(experts + shared_experts) * expert_params();
}

double InferenceModel::total_params() const {
  double p = embedding_params() * (tied_embeddings ? 1 : 2);
  for (int32_t l = 0; l < layers; ++l) p += layer_params(l);
  return p;
}

uint64_t InferenceModel::kv_bytes_per_token_layer() const {
  return 2ull * static_cast<uint64_t>(kv_heads) * static_cast<uint64_t>(head_dim_or_default()) *
         static_cast<uint64_t>(dtype_bytes);
}

InferenceModel Llama3_70B() { return InferenceModel{}; }

Status ValidateInferenceModel(const InferenceModel& m) {
  const struct {
    const char* field;
    int32_t value;
  } positive[] = {{"layers", m.layers},       {"hidden", m.hidden}, {"heads", m.heads},
                  {"kv_heads", m.kv_heads},   {"vocab", m.vocab},   {"dtype_bytes", m.dtype_bytes},
                  {"mlp_matrices", m.mlp_matrices}};
  for (const auto& p : positive) {
    if (p.value <= 0) return Error{ModelFieldMessage(p.field, "must be positive, got " + std::to_string(p.value))};
  }
  if (m.head_dim < 0) return Error{ModelFieldMessage("head_dim", "must be >= 0 (0: hidden / heads)")};
  if (m.head_dim == 0 && m.hidden % m.heads != 0) {
    return Error{ModelFieldMessage("heads", std::to_string(m.heads) + " does not divide hidden " + std::to_string(m.hidden))};
  }
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0) {
    return Error{ModelFieldMessage("kv_heads", std::to_string(m.kv_heads) + " must divide heads " + std::to_string(m.heads))};
  }
  if (m.experts == 0) {
    if (m.ffn_hidden <= 0) return Error{ModelFieldMessage("ffn_hidden", "must be positive for a dense model")};
    return Status::Ok();
  }
  if (m.experts < 0) return Error{ModelFieldMessage("experts", "must be >= 0")};
  if (m.top_k <= 0 || m.top_k > m.experts) {
    return Error{ModelFieldMessage("top_k", "must be in 1.." + std::to_string(m.experts) + ", got " + std::to_string(m.top_k))};
  }
  if (m.expert_ffn <= 0) return Error{ModelFieldMessage("expert_ffn", "must be positive for an MoE model")};
  if (m.shared_experts < 0) return Error{ModelFieldMessage("shared_experts", "must be >= 0")};
  if (m.dense_layers < 0 || m.dense_layers > m.layers) {
    return Error{ModelFieldMessage("dense_layers", "must be in 0.." + std::to_string(m.layers))};
  }
  if (m.dense_layers > 0 && m.ffn_hidden <= 0) return Error{ModelFieldMessage("ffn_hidden", "must be positive for dense layers")};
  return Status::Ok();
}

Time RooflineTime(const KernelCost& cost, const InferenceGpu& gpu) {
  const double compute_s = cost.flops / (gpu.peak_flops * gpu.compute_efficiency);
  const double memory_s = cost.bytes / (gpu.hbm_bytes_per_s * gpu.memory_efficiency);
  return Time::FromSeconds(std::max(compute_s, memory_s));
}

void BatchWork::AddDecode(uint64_t context) {
  tokens += 1;
  attended += static_cast<double>(context + 1);
  kv_tokens += context + 1;
  logits += 1;
  sequences += 1;
}

void BatchWork::AddPrefill(uint64_t prior, uint64_t chunk, bool completes) {
  const double p = static_cast<double>(prior), c = static_cast<double>(chunk);
  tokens += chunk;
  attended += c * p + c * (c + 1) / 2;
  kv_tokens += prior + chunk;
  logits += completes ? 1 : 0;
  sequences += 1;
}

int32_t KvHeadsPerRank(const InferenceModel& model, int32_t tp) { return std::max(1, model.kv_heads / tp); }

uint64_t KvBytesPerTokenPerRank(const InferenceModel& model, int32_t layers, int32_t tp) {
  return 2ull * static_cast<uint64_t>(layers) * static_cast<uint64_t>(KvHeadsPerRank(model, tp)) *
         static_cast<uint64_t>(model.head_dim_or_default()) * static_cast<uint64_t>(model.dtype_bytes);
}

KernelCost AttentionCost(const InferenceModel& model, const BatchWork& batch, int32_t tp) {
  const double d = model.head_dim_or_default(), dtype = model.dtype_bytes, t = tp;
  KernelCost c;
  c.flops = (2.0 * model.attention_params() * static_cast<double>(batch.tokens) +
             4.0 * model.heads * d * batch.attended) / t;
  c.bytes = model.attention_params() * dtype / t +
            static_cast<double>(batch.kv_tokens) * 2.0 * KvHeadsPerRank(model, tp) * d * dtype;
  return c;
}

KernelCost MlpCost(const InferenceModel& model, const BatchWork& batch, int32_t tp) {
  KernelCost c;
  c.flops = 2.0 * model.mlp_params() * static_cast<double>(batch.tokens) / tp;
  c.bytes = model.mlp_params() * model.dtype_bytes / tp;
  return c;
}

KernelCost MoeCost(const InferenceModel& model, const BatchWork& batch, int32_t tp) {
  const double e = model.experts, k = model.top_k, shared = model.shared_experts;
  const double router = static_cast<double>(model.hidden) * e;
  const double touched = e * (1.0 - std::pow(1.0 - k / e, static_cast<double>(batch.tokens)));
  KernelCost c;
  c.flops = 2.0 * (router + (k + shared) * model.expert_params()) * static_cast<double>(batch.tokens) / tp;
  c.bytes = (router + (touched + shared) * model.expert_params()) * model.dtype_bytes / tp;
  return c;
}

KernelCost LmHeadCost(const InferenceModel& model, const BatchWork& batch, int32_t tp) {
  if (batch.logits == 0) return {};
  const double hv = static_cast<double>(model.hidden) * model.vocab;
  KernelCost c;
  c.flops = 2.0 * hv * static_cast<double>(batch.logits) / tp;
  c.bytes = hv * model.dtype_bytes / tp;
  return c;
}

double StageWeightBytesPerRank(const InferenceModel& model, int32_t first, int32_t count, int32_t tp,
                               bool first_stage, bool last_stage) {
  double params = 0;
  for (int32_t l = first; l < first + count; ++l) params += model.layer_params(l);
  if (first_stage) params += model.embedding_params();
  if (last_stage && !(model.tied_embeddings && first_stage)) params += model.embedding_params();
  return params * model.dtype_bytes / tp;
}

}  // namespace aifabric
