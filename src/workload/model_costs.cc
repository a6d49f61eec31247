#include "workload/model_costs.h"

namespace aifabric {
namespace {

int64_t MlpMatrices(const ModelSpec& m) { return m.gated_mlp ? 3 : 2; }

// Widths of one head's query/key and value vectors.
int64_t QkHeadWidth(const ModelSpec& m) { return m.head_dim_or_default() + m.qk_rope_head_dim; }
int64_t VHeadWidth(const ModelSpec& m) { return m.v_head_dim > 0 ? m.v_head_dim : m.head_dim_or_default(); }

}  // namespace

int64_t AttentionParams(const ModelSpec& m) {
  const int64_t h = m.hidden;
  const int64_t heads = m.heads;
  const int64_t d = m.head_dim_or_default();
  if (!m.mla()) {
    const int64_t kv = static_cast<int64_t>(m.kv_heads_or_default()) * d;
    return h * heads * d + 2 * h * kv + heads * d * h;
  }
  // MLA (DeepSeek-V2 arXiv:2405.04434 section 2.1): queries through an
  // optional low-rank bottleneck, keys/values from a shared latent plus a
  // decoupled RoPE key, then the output projection.
  const int64_t qk = QkHeadWidth(m);
  const int64_t q = m.q_lora_rank > 0 ? h * m.q_lora_rank + int64_t{m.q_lora_rank} * heads * qk : h * heads * qk;
  const int64_t kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + int64_t{m.kv_lora_rank} * heads * (d + VHeadWidth(m));
  const int64_t o = heads * VHeadWidth(m) * h;
  return q + kv + o;
}

int64_t DenseMlpParams(const ModelSpec& m) { return MlpMatrices(m) * m.hidden * m.ffn_hidden; }
int64_t ExpertParams(const ModelSpec& m) { return MlpMatrices(m) * m.hidden * m.expert_ffn_hidden; }
int64_t RouterParams(const ModelSpec& m) { return m.hidden * m.experts; }
int64_t NormParams(const ModelSpec& m) { return 2 * m.hidden; }

int64_t EmbeddingParams(const ModelSpec& m) {
  return m.vocab * m.hidden + (m.learned_positions ? int64_t{m.seq_len} * m.hidden : 0);
}

int64_t OutputParams(const ModelSpec& m) { return m.tied_embeddings ? 0 : m.vocab * m.hidden; }

ParameterCount CountParameters(const ModelSpec& m) {
  ParameterCount c;
  c.total = c.active = EmbeddingParams(m) + OutputParams(m) + m.hidden;  // + the final norm
  for (int l = 0; l < m.layers; ++l) {
    const int64_t common = AttentionParams(m) + NormParams(m);
    c.total += common;
    c.active += common;
    if (m.is_moe_layer(l)) {
      c.total += RouterParams(m) + int64_t{m.experts + m.shared_experts} * ExpertParams(m);
      c.active += RouterParams(m) + int64_t{m.top_k + m.shared_experts} * ExpertParams(m);
    } else {
      c.total += DenseMlpParams(m);
      c.active += DenseMlpParams(m);
    }
  }
  return c;
}

double AttentionForwardFlopsPerToken(const ModelSpec& m, int seq) {
  const double scores = 2.0 * seq * m.heads * static_cast<double>(QkHeadWidth(m) + VHeadWidth(m));
  return 2.0 * static_cast<double>(AttentionParams(m)) + scores;
}

double MlpForwardFlopsPerToken(const ModelSpec& m, int layer) {
  if (!m.is_moe_layer(layer)) return 2.0 * static_cast<double>(DenseMlpParams(m));
  return 2.0 * static_cast<double>(RouterParams(m) + int64_t{m.top_k + m.shared_experts} * ExpertParams(m));
}

double HeadForwardFlopsPerToken(const ModelSpec& m) { return 2.0 * static_cast<double>(m.hidden * m.vocab); }

double TrainingFlopsPerToken(const ModelSpec& m, int seq) {
  double forward = HeadForwardFlopsPerToken(m);
  for (int l = 0; l < m.layers; ++l) forward += AttentionForwardFlopsPerToken(m, seq) + MlpForwardFlopsPerToken(m, l);
  return 3.0 * forward;
}

}  // namespace aifabric
