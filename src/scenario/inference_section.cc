#include "scenario/job_sections.h"

namespace aifabric {
namespace {

// The serving model's description from a catalog model (the two share
// their names; docs/inference.md). MLA serves as multi-head attention with
// its cached width; moe_layer_freq > 1 is refused.
Result<InferenceModel> ServingModel(const ModelSpec& m) {
  if (m.moe() && m.moe_layer_freq != 1) return Error{"MoE layers every " + std::to_string(m.moe_layer_freq) +
                                                      " layers are not modelled for serving"};
  InferenceModel s;
  s.name = m.name;
  s.layers = m.layers;
  s.hidden = static_cast<int32_t>(m.hidden);
  s.heads = m.heads;
  s.kv_heads = m.kv_heads_or_default();
  s.head_dim = m.head_dim;
  s.ffn_hidden = static_cast<int32_t>(m.ffn_hidden);
  s.vocab = static_cast<int32_t>(m.vocab);
  s.mlp_matrices = m.gated_mlp ? 3 : 2;
  s.tied_embeddings = m.tied_embeddings;
  s.experts = m.experts;
  s.top_k = m.top_k;
  s.expert_ffn = static_cast<int32_t>(m.expert_ffn_hidden);
  s.shared_experts = m.shared_experts;
  s.dense_layers = m.first_dense_layers;
  return s;
}

}  // namespace

// workload: - inference: {model, tp, pp, replicas, rate, requests, ...}:
// LLM serving under load (workload/inference_server.h; docs/inference.md).
void ReadInference(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"model", "tp", "pp", "replicas", "disaggregated", "prefill_replicas", "decode_replicas",
               "max_num_batched_tokens", "max_num_seqs", "chunked_prefill", "router", "rate", "requests",
               "input_tokens", "output_tokens", "ttft_slo", "tpot_slo", "layers_per_block", "compute_efficiency"});
  RequireKeys(m, {"model"});
  if (!c.d.ok()) return;
  Scenario::Inference inf;
  inf.path = path;
  InferenceSpec& sp = inf.spec;
  Result<ModelSpec> model = FindModel(m.String("model", ""));
  if (!model.ok()) {
    m.FailAt("model", model.error().message);
    return;
  }
  Result<InferenceModel> serving = ServingModel(*model);
  if (!serving.ok()) {
    m.FailAt("model", serving.error().message);
    return;
  }
  sp.model = *serving;
  sp.gpu.peak_flops = s.gpu.bf16_dense_tflops * 1e12;
  sp.gpu.hbm_bytes_per_s = s.gpu.hbm_tbps * 1e12;
  sp.gpu.hbm_bytes = static_cast<double>(s.gpu.hbm_bytes);
  sp.gpu.compute_efficiency =
      m.Number("compute_efficiency", sp.gpu.compute_efficiency, [](double x) { return x > 0 && x <= 1; }, "a number in (0, 1]");
  sp.tp = static_cast<int32_t>(m.Int("tp", sp.tp, 1, 1 << 16));
  sp.pp = static_cast<int32_t>(m.Int("pp", sp.pp, 1, 1 << 16));
  sp.replicas = static_cast<int32_t>(m.Int("replicas", sp.replicas, 1, 1 << 20));
  sp.disaggregated = m.Bool("disaggregated", false);
  sp.prefill_replicas = static_cast<int32_t>(m.Int("prefill_replicas", sp.prefill_replicas, 1, 1 << 20));
  sp.decode_replicas = static_cast<int32_t>(m.Int("decode_replicas", sp.decode_replicas, 1, 1 << 20));
  sp.max_num_batched_tokens = static_cast<uint32_t>(m.Int("max_num_batched_tokens", sp.max_num_batched_tokens, 1, 1 << 24));
  sp.max_num_seqs = static_cast<uint32_t>(m.Int("max_num_seqs", sp.max_num_seqs, 1, 1 << 20));
  sp.chunked_prefill = m.Bool("chunked_prefill", false);
  sp.router = m.Enum<InferenceRouter>("router", InferenceRouter::kRoundRobin,
                                      {{"round_robin", InferenceRouter::kRoundRobin},
                                       {"least_loaded", InferenceRouter::kLeastLoaded}});
  sp.rate_per_s = m.Number("rate", sp.rate_per_s, IsPositive, "requests per second > 0");
  sp.num_requests = static_cast<uint32_t>(m.Int("requests", sp.num_requests, 1, 1'000'000));
  for (const char* key : {"input_tokens", "output_tokens"}) {
    MapReader t = m.Map(key);
    t.AllowOnly({"min", "max"});
    const bool input = std::string(key) == "input_tokens";
    uint32_t& lo = input ? sp.input_tokens_min : sp.output_tokens_min;
    uint32_t& hi = input ? sp.input_tokens_max : sp.output_tokens_max;
    lo = static_cast<uint32_t>(t.Int("min", lo, 1, 1 << 24));
    hi = static_cast<uint32_t>(t.Int("max", std::max<int64_t>(lo, hi), 1, 1 << 24));
    if (hi < lo) t.FailAt("max", "must be >= min");
  }
  sp.ttft_slo_ms = m.TimeValue("ttft_slo", Time::FromMs(2000)).seconds() * 1e3;
  sp.tpot_slo_ms = m.TimeValue("tpot_slo", Time::FromMs(200)).seconds() * 1e3;
  sp.layers_per_block = static_cast<int32_t>(m.Int("layers_per_block", 1, 1, 1 << 16));
  if (c.d.ok()) s.inferences.push_back(std::move(inf));
}

}  // namespace aifabric
