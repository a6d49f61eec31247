// ModelSpec is the shape of a decoder-only transformer (dense or
// mixture-of-experts) as the training-step generator needs it, and the
// built-in catalog of them (data/models.yaml, compiled into the binary).
// Plain values; the catalog is immutable and safe to share between threads.
// The parameter and FLOP counts derived from a shape are in model_costs.h.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace aifabric {

struct ModelSpec {
  std::string name;
  int layers = 0;
  int64_t hidden = 0;
  int heads = 0;
  int kv_heads = 0;        // key/value heads (GQA); 0 = heads
  int head_dim = 0;        // query/key width per head (MLA: the no-RoPE part); 0 = hidden / heads
  int64_t ffn_hidden = 0;  // dense MLP width
  bool gated_mlp = true;   // SwiGLU (3 matrices) vs GeLU (2)
  int64_t vocab = 0;
  int seq_len = 0;         // pre-training sequence length
  bool tied_embeddings = false;
  bool learned_positions = false;  // a seq_len x hidden position table (GPT-2/3)
  // Multi-head latent attention (DeepSeek-V2/V3); all 0 = standard attention.
  int q_lora_rank = 0;       // 0 with MLA: queries projected directly
  int kv_lora_rank = 0;      // > 0 turns MLA on
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;        // 0 = head_dim
  // Mixture of experts; experts = 0 is a dense model.
  int experts = 0;           // routed experts per MoE layer
  int shared_experts = 0;    // always-active experts per MoE layer
  int top_k = 0;             // routed experts per token
  int64_t expert_ffn_hidden = 0;
  int first_dense_layers = 0;  // leading layers with a dense MLP
  int moe_layer_freq = 1;      // every n-th layer after those is MoE
  std::string source;          // where the figures come from

  int kv_heads_or_default() const { return kv_heads > 0 ? kv_heads : heads; }
  int head_dim_or_default() const { return head_dim > 0 ? head_dim : static_cast<int>(hidden / heads); }
  bool moe() const { return experts > 0; }
  bool mla() const { return kv_lora_rank > 0; }
  // REQUIRES: 0 <= layer < layers.
  bool is_moe_layer(int layer) const {
    return moe() && layer >= first_dense_layers && (layer - first_dense_layers) % moe_layer_freq == 0;
  }
};

// Checks a model's fields; errors read "<path>.<field>: ...", e.g.
// "model.heads: 0 must be > 0".
Status ValidateModel(const ModelSpec& model, const std::string& path);

// Reads one model from a YAML map in the data/models.yaml format (also the
// form of an inline model in a scenario), then validates it. Errors read
// "<origin>:<line>: <path>.<field>: ...".
Result<ModelSpec> ReadModelSpec(const YAML::Node& node, const std::string& origin, const std::string& path);

// The model as the map ReadModelSpec reads (every field, so the map stands
// alone as an inline model of a scenario).
YAML::Node ModelSpecNode(const ModelSpec& model);

// Parses a whole catalog (`models:` list); names must be unique.
Result<std::vector<ModelSpec>> ParseModelCatalog(const std::string& yaml_text, const std::string& origin);

// The models compiled in from data/models.yaml.
const std::vector<ModelSpec>& BuiltInModels();

// A built-in model by name ("gpt3-175b", "llama3-70b", "llama3-8b",
// "deepseek-v3"); the error lists the known names.
Result<ModelSpec> FindModel(const std::string& name);

}  // namespace aifabric
