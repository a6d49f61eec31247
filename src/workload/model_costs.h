// Parameter and FLOP counts of a ModelSpec: what a layer holds and what a
// token costs it. Counts are of matrix multiplications (Megatron's and
// PaLM's convention, REFERENCES.md 8): a weight matrix of P entries costs
// 2P FLOPs per token forward; attention scores cost 2 s d per token and head
// width d for QK^T and again for AV, over the full s x s score matrix (the
// causal mask is not discounted, as Megatron and PaLM count it); norms,
// softmax, activations and biases add time but no counted FLOPs. Backward is
// twice forward. Pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "workload/model_catalog.h"

namespace aifabric {

// Parameters of one layer's blocks (whole layer, before any split).
int64_t AttentionParams(const ModelSpec& m);   // Q, K, V, O projections (MLA: its down/up projections)
int64_t DenseMlpParams(const ModelSpec& m);    // (gated ? 3 : 2) * hidden * ffn_hidden
int64_t ExpertParams(const ModelSpec& m);      // one expert: (gated ? 3 : 2) * hidden * expert_ffn_hidden
int64_t RouterParams(const ModelSpec& m);      // hidden * experts
int64_t NormParams(const ModelSpec& m);        // 2 * hidden (two norms per layer)
int64_t EmbeddingParams(const ModelSpec& m);   // vocab * hidden (+ seq_len * hidden if learned positions)
int64_t OutputParams(const ModelSpec& m);      // vocab * hidden, 0 if tied

struct ParameterCount {
  int64_t total = 0;   // every weight, counted once
  int64_t active = 0;  // the weights a token uses (MoE: top_k routed + shared experts)
};
ParameterCount CountParameters(const ModelSpec& m);

// Forward FLOPs per token of layer `layer` (0-based), sequence length `seq`:
// 2 x (attention + MLP or router + (top_k + shared) experts) parameters + scores.
double AttentionForwardFlopsPerToken(const ModelSpec& m, int seq);  // projections + scores
double MlpForwardFlopsPerToken(const ModelSpec& m, int layer);      // dense MLP or the MoE block
// The output layer (logits): 2 * hidden * vocab.
double HeadForwardFlopsPerToken(const ModelSpec& m);

// Model FLOPs of one training token (forward + backward = 3 x forward), the
// numerator of MFU: 6 N_matmul + 12 l s h for a dense model with standard
// attention (PaLM, arXiv:2204.02311 App. B).
double TrainingFlopsPerToken(const ModelSpec& m, int seq);

}  // namespace aifabric
