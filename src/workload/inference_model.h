// InferenceModel is the little a serving cost model needs to know of a
// decoder-only transformer (dense or mixture-of-experts), and InferenceGpu
// the little it needs of a GPU; BatchWork sums up one batch iteration, and
// the *Cost functions give each kernel's FLOPs and HBM bytes on one
// tensor-parallel rank, timed by a roofline (RooflineTime). Plain values and
// pure functions; thread-safe. docs/inference.md gives the formulas and
// their sources.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "core/time.h"

namespace aifabric {

struct InferenceModel {
  std::string name = "llama3-70b";
  int32_t layers = 80;
  int32_t hidden = 8192;        // h (d_model)
  int32_t heads = 64;           // query heads
  int32_t kv_heads = 8;         // K/V heads (GQA); = heads for plain multi-head attention
  int32_t head_dim = 0;         // 0: hidden / heads
  int32_t ffn_hidden = 28672;   // dense MLP inner size
  int32_t vocab = 128256;
  int32_t mlp_matrices = 3;     // 3: gated MLP (SwiGLU: gate, up, down); 2: GPT (up, down)
  bool tied_embeddings = false; // LM head shares the input embedding's weights
  // Mixture of experts (experts == 0: dense). The first `dense_layers`
  // layers keep the dense MLP; the others have `experts` routed experts of
  // inner size `expert_ffn` (each token goes to `top_k`) plus
  // `shared_experts` always-on ones of the same size.
  int32_t experts = 0;
  int32_t top_k = 0;
  int32_t expert_ffn = 0;
  int32_t shared_experts = 0;
  int32_t dense_layers = 0;
  int32_t dtype_bytes = 2;      // weights, activations and KV cache (BF16)

  int32_t head_dim_or_default() const { return head_dim > 0 ? head_dim : hidden / heads; }
  bool is_moe_layer(int32_t layer) const { return experts > 0 && layer >= dense_layers; }
  // Parameter counts (weights, not bytes).
  double attention_params() const;  // Wq, Wk, Wv, Wo of one layer
  double mlp_params() const;        // one dense MLP
  double expert_params() const;     // one expert (routed or shared)
  double layer_params(int32_t layer) const;  // attention + MLP or router + all experts
  double embedding_params() const { return static_cast<double>(vocab) * hidden; }
  double total_params() const;      // layers + embedding (+ LM head unless tied)
  // K and V of one token in one layer, all heads: 2 * kv_heads * head_dim * dtype.
  uint64_t kv_bytes_per_token_layer() const;
};

// Llama 3 70B (Meta's config.json: 80 layers, hidden 8192, 64 heads, 8 KV
// heads, intermediate 28672, vocab 128256, untied embeddings, BF16).
InferenceModel Llama3_70B();

// Checks sizes are positive and the MoE fields consistent; errors name the
// field ("model.kv_heads: ...").
Status ValidateInferenceModel(const InferenceModel& model);

struct InferenceGpu {
  double peak_flops = 989.4e12;     // dense BF16 FLOP/s (H100 SXM, REFERENCES.md 7)
  double hbm_bytes_per_s = 3.35e12; // HBM bandwidth (H100 SXM HBM3)
  double hbm_bytes = 80e9;          // HBM capacity
  // Achieved fractions of peak: matrix-multiply throughput, and streaming
  // bandwidth for weight and KV-cache reads. Assumptions, not measurements.
  double compute_efficiency = 0.6;
  double memory_efficiency = 0.8;
  // Share of HBM the server may use for weights + KV cache (vLLM's
  // gpu_memory_utilization default, 0.9); the rest is activations, CUDA
  // graphs, fragmentation.
  double memory_utilization = 0.9;
};

// A kernel's work on one GPU.
struct KernelCost {
  double flops = 0;
  double bytes = 0;  // HBM bytes read or written
};

// Roofline: max(flops / (peak * compute_efficiency), bytes / (bandwidth *
// memory_efficiency)), rounded to the picosecond.
Time RooflineTime(const KernelCost& cost, const InferenceGpu& gpu);

// One iteration's batch, summed over its sequences.
struct BatchWork {
  uint64_t tokens = 0;     // new tokens: one per decoding sequence, a chunk per prefill
  double attended = 0;     // sum over new tokens of the positions each attends to (causal)
  uint64_t kv_tokens = 0;  // tokens whose K/V are read or written: cached context + new
  uint64_t logits = 0;     // sequences that sample a token at the end of the iteration
  uint64_t sequences = 0;

  // A decoding sequence with `context` tokens cached: 1 new token that
  // attends to context + 1 positions; samples a token.
  void AddDecode(uint64_t context);
  // A prefill chunk of `chunk` tokens after `prior` cached ones: token i
  // (1-based) attends to prior + i positions; samples a token iff
  // `completes` (the chunk ends the prompt).
  void AddPrefill(uint64_t prior, uint64_t chunk, bool completes);
};

// Per tensor-parallel rank of `tp` (weights split tp ways; KV heads split,
// or replicated when kv_heads < tp), for one layer:
// Attention block: QKV and output projections, scores and weighted values.
//   flops = (2 * attention_params * tokens + 4 * heads * head_dim * attended) / tp
//   bytes = attention_params * dtype / tp + kv_tokens * 2 * kv_heads_per_rank * head_dim * dtype
KernelCost AttentionCost(const InferenceModel& model, const BatchWork& batch, int32_t tp);
// Dense MLP: flops = 2 * mlp_params * tokens / tp; bytes = mlp_params * dtype / tp.
KernelCost MlpCost(const InferenceModel& model, const BatchWork& batch, int32_t tp);
// MoE layer on one rank of an expert-parallel group of `tp` (experts / tp
// experts each, tokens balanced): router, routed experts, shared experts.
//   flops = 2 * (hidden * experts + (top_k + shared) * expert_params) * tokens / tp
//   bytes = (hidden * experts + touched * expert_params + shared * expert_params) * dtype / tp,
//   touched = experts * (1 - (1 - top_k / experts)^tokens), the expected
//   number of distinct experts a batch routes to (uniform routing).
KernelCost MoeCost(const InferenceModel& model, const BatchWork& batch, int32_t tp);
// LM head (vocabulary-parallel): flops = 2 * hidden * vocab * logits / tp;
// bytes = hidden * vocab * dtype / tp (0 if no sequence samples).
KernelCost LmHeadCost(const InferenceModel& model, const BatchWork& batch, int32_t tp);

// KV heads each rank of `tp` holds: kv_heads / tp, at least 1.
int32_t KvHeadsPerRank(const InferenceModel& model, int32_t tp);
// KV cache bytes of one token on one rank holding `layers` layers.
uint64_t KvBytesPerTokenPerRank(const InferenceModel& model, int32_t layers, int32_t tp);
// Weight bytes on one rank of a stage holding layers [first, first + count),
// plus the input embedding on the first stage and the LM head on the last
// (vocabulary-parallel, split tp ways).
double StageWeightBytesPerRank(const InferenceModel& model, int32_t first, int32_t count, int32_t tp,
                               bool first_stage, bool last_stage);

}  // namespace aifabric
