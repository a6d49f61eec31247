#include "workload/model_catalog.h"

#include <cstdio>
#include <cstdlib>
#include <set>

#include "workload/model_data.h"
#include "fabric/data_fields.h"

namespace aifabric {
namespace {

Error CatalogFieldError(const std::string& path, const char* field, const std::string& what) {
  std::string message = path;
  message += ".";
  message += field;
  message += ": ";
  message += what;
  return Error{std::move(message)};
}

std::string Quoted(int64_t value, const char* rule) {
  std::string s = std::to_string(value);
  s += " ";
  s += rule;
  return s;
}

}  // namespace

Status ValidateModel(const ModelSpec& m, const std::string& path) {
  if (m.name.empty()) return CatalogFieldError(path, "name", "must not be empty");
  if (m.layers <= 0) return CatalogFieldError(path, "layers", Quoted(m.layers, "must be > 0"));
  if (m.hidden <= 0) return CatalogFieldError(path, "hidden", Quoted(m.hidden, "must be > 0"));
  if (m.heads <= 0) return CatalogFieldError(path, "heads", Quoted(m.heads, "must be > 0"));
  if (m.head_dim == 0 && m.hidden % m.heads != 0) {
    return CatalogFieldError(path, "heads", Quoted(m.heads, "must divide hidden (or give head_dim)"));
  }
  if (m.head_dim < 0) return CatalogFieldError(path, "head_dim", Quoted(m.head_dim, "must be >= 0"));
  if (m.kv_heads < 0 || m.kv_heads > m.heads || (m.kv_heads > 0 && m.heads % m.kv_heads != 0)) {
    return CatalogFieldError(path, "kv_heads", Quoted(m.kv_heads, "must divide heads"));
  }
  if (m.ffn_hidden <= 0) return CatalogFieldError(path, "ffn_hidden", Quoted(m.ffn_hidden, "must be > 0"));
  if (m.vocab <= 0) return CatalogFieldError(path, "vocab", Quoted(m.vocab, "must be > 0"));
  if (m.seq_len <= 0) return CatalogFieldError(path, "seq_len", Quoted(m.seq_len, "must be > 0"));
  if (m.q_lora_rank < 0) return CatalogFieldError(path, "q_lora_rank", Quoted(m.q_lora_rank, "must be >= 0"));
  if (m.kv_lora_rank < 0) return CatalogFieldError(path, "kv_lora_rank", Quoted(m.kv_lora_rank, "must be >= 0"));
  if (m.qk_rope_head_dim < 0) {
    return CatalogFieldError(path, "qk_rope_head_dim", Quoted(m.qk_rope_head_dim, "must be >= 0"));
  }
  if (m.v_head_dim < 0) return CatalogFieldError(path, "v_head_dim", Quoted(m.v_head_dim, "must be >= 0"));
  if (!m.mla() && (m.q_lora_rank > 0 || m.qk_rope_head_dim > 0)) {
    return CatalogFieldError(path, "kv_lora_rank", "must be > 0 when q_lora_rank or qk_rope_head_dim is set (MLA)");
  }
  if (m.experts < 0) return CatalogFieldError(path, "experts", Quoted(m.experts, "must be >= 0"));
  if (m.moe()) {
    if (m.top_k <= 0 || m.top_k > m.experts) {
      return CatalogFieldError(path, "top_k", Quoted(m.top_k, "must be in [1, experts]"));
    }
    if (m.expert_ffn_hidden <= 0) {
      return CatalogFieldError(path, "expert_ffn_hidden", Quoted(m.expert_ffn_hidden, "must be > 0"));
    }
    if (m.shared_experts < 0) return CatalogFieldError(path, "shared_experts", Quoted(m.shared_experts, "must be >= 0"));
    if (m.first_dense_layers < 0 || m.first_dense_layers >= m.layers) {
      return CatalogFieldError(path, "first_dense_layers", Quoted(m.first_dense_layers, "must be in [0, layers)"));
    }
    if (m.moe_layer_freq <= 0) return CatalogFieldError(path, "moe_layer_freq", Quoted(m.moe_layer_freq, "must be > 0"));
  } else if (m.top_k != 0 || m.shared_experts != 0 || m.expert_ffn_hidden != 0) {
    return CatalogFieldError(path, "experts", "must be > 0 when top_k, shared_experts or expert_ffn_hidden is set");
  }
  return Status::Ok();
}

Result<ModelSpec> ReadModelSpec(const YAML::Node& node, const std::string& origin, const std::string& path) {
  if (!node.IsMap()) {
    return Error{origin + ":" + std::to_string(node.Mark().line + 1) + ": " + path + ": expected a map of fields"};
  }
  DataFields f(node, origin, path);
  f.CheckKeys({"name", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden", "mlp", "vocab", "seq_len",
               "tied_embeddings", "position_embedding", "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim",
               "v_head_dim", "experts", "shared_experts", "top_k", "expert_ffn_hidden", "first_dense_layers",
               "moe_layer_freq", "source"});
  constexpr int64_t kBig = int64_t{1} << 40;
  ModelSpec m;
  m.name = f.String("name");
  m.layers = static_cast<int>(f.Int("layers", 1, 100000));
  m.hidden = f.Int("hidden", 1, kBig);
  m.heads = static_cast<int>(f.Int("heads", 1, 100000));
  m.kv_heads = static_cast<int>(f.OptionalInt("kv_heads", 1, 100000, 0));
  m.head_dim = static_cast<int>(f.OptionalInt("head_dim", 1, 100000, 0));
  m.ffn_hidden = f.Int("ffn_hidden", 1, kBig);
  m.gated_mlp = f.OptionalChoice("mlp", {"gelu", "swiglu"}, "swiglu") == "swiglu";
  m.vocab = f.Int("vocab", 1, kBig);
  m.seq_len = static_cast<int>(f.Int("seq_len", 1, 100000000));
  m.tied_embeddings = f.OptionalBool("tied_embeddings", false);
  m.learned_positions = f.OptionalChoice("position_embedding", {"rope", "learned"}, "rope") == "learned";
  m.q_lora_rank = static_cast<int>(f.OptionalInt("q_lora_rank", 0, 1000000, 0));
  m.kv_lora_rank = static_cast<int>(f.OptionalInt("kv_lora_rank", 0, 1000000, 0));
  m.qk_rope_head_dim = static_cast<int>(f.OptionalInt("qk_rope_head_dim", 0, 100000, 0));
  m.v_head_dim = static_cast<int>(f.OptionalInt("v_head_dim", 0, 100000, 0));
  m.experts = static_cast<int>(f.OptionalInt("experts", 0, 1000000, 0));
  m.shared_experts = static_cast<int>(f.OptionalInt("shared_experts", 0, 1000000, 0));
  m.top_k = static_cast<int>(f.OptionalInt("top_k", 0, 1000000, 0));
  m.expert_ffn_hidden = f.OptionalInt("expert_ffn_hidden", 0, kBig, 0);
  m.first_dense_layers = static_cast<int>(f.OptionalInt("first_dense_layers", 0, 100000, 0));
  m.moe_layer_freq = static_cast<int>(f.OptionalInt("moe_layer_freq", 1, 100000, 1));
  m.source = f.Has("source") ? f.String("source") : "";
  if (!f.ok()) return f.error();
  if (Status s = ValidateModel(m, path); !s.ok()) {
    return Error{origin + ":" + std::to_string(node.Mark().line + 1) + ": " + s.error().message};
  }
  return m;
}

YAML::Node ModelSpecNode(const ModelSpec& m) {
  YAML::Node n;
  n["name"] = m.name;
  n["layers"] = m.layers;
  n["hidden"] = m.hidden;
  n["heads"] = m.heads;
  if (m.kv_heads > 0) n["kv_heads"] = m.kv_heads;
  if (m.head_dim > 0) n["head_dim"] = m.head_dim;
  n["ffn_hidden"] = m.ffn_hidden;
  n["mlp"] = m.gated_mlp ? "swiglu" : "gelu";
  n["vocab"] = m.vocab;
  n["seq_len"] = m.seq_len;
  n["tied_embeddings"] = m.tied_embeddings;
  n["position_embedding"] = m.learned_positions ? "learned" : "rope";
  n["q_lora_rank"] = m.q_lora_rank;
  n["kv_lora_rank"] = m.kv_lora_rank;
  n["qk_rope_head_dim"] = m.qk_rope_head_dim;
  n["v_head_dim"] = m.v_head_dim;
  n["experts"] = m.experts;
  n["shared_experts"] = m.shared_experts;
  n["top_k"] = m.top_k;
  n["expert_ffn_hidden"] = m.expert_ffn_hidden;
  n["first_dense_layers"] = m.first_dense_layers;
  n["moe_layer_freq"] = m.moe_layer_freq;
  if (!m.source.empty()) n["source"] = m.source;
  return n;
}

Result<std::vector<ModelSpec>> ParseModelCatalog(const std::string& yaml_text, const std::string& origin) {
  std::vector<ModelSpec> models;
  try {
    const YAML::Node root = YAML::Load(yaml_text);
    const YAML::Node list = root.IsMap() ? root["models"] : YAML::Node();
    if (!list || !list.IsSequence()) return Error{origin + ":1: expected a map with a 'models' list"};
    std::set<std::string> names;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string path = "models[";
      path += std::to_string(i);
      path += "]";
      if (list[i].IsMap() && !list[i]["source"]) {
        return Error{origin + ":" + std::to_string(list[i].Mark().line + 1) + ": " + path +
                     ".source: required field is missing"};
      }
      Result<ModelSpec> m = ReadModelSpec(list[i], origin, path);
      if (!m.ok()) return m.error();
      if (!names.insert(m->name).second) {
        return Error{origin + ":" + std::to_string(list[i].Mark().line + 1) + ": " + path + ".name: duplicate model '" +
                     m->name + "'"};
      }
      models.push_back(std::move(m).value());
    }
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
  return models;
}

const std::vector<ModelSpec>& BuiltInModels() {
  // Immutable data, parsed once.
  static const std::vector<ModelSpec> kModels = [] {
    Result<std::vector<ModelSpec>> r = ParseModelCatalog(kBuiltInModelsYaml, "data/models.yaml");
    if (!r.ok()) {
      // The file is checked by model_catalog_test; reaching this is a build error.
      std::fprintf(stderr, "internal error: built-in models: %s\n", r.error().message.c_str());
      std::abort();
    }
    return std::move(r).value();
  }();
  return kModels;
}

Result<ModelSpec> FindModel(const std::string& name) {
  std::string known;
  for (const ModelSpec& m : BuiltInModels()) {
    if (m.name == name) return m;
    if (!known.empty()) known += ", ";
    known += m.name;
  }
  std::string message = "unknown model '";
  message += name;
  message += "' (built-in models: ";
  message += known;
  message += ")";
  return Error{std::move(message)};
}

}  // namespace aifabric
