// The built-in model catalog: every entry parses, has a source, and has the
// parameter count its paper states; bad entries are refused naming the
// line and field.
#include "workload/model_catalog.h"

#include <gtest/gtest.h>

#include "workload/model_costs.h"
#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Contains;

TEST(ModelCatalog, BuiltInModelsHaveSourcesAndTheirShapes) {
  ASSERT_GE(BuiltInModels().size(), 4u);
  for (const ModelSpec& m : BuiltInModels()) EXPECT_FALSE(m.source.empty()) << m.name;
  Result<ModelSpec> gpt3 = FindModel("gpt3-175b");
  ASSERT_TRUE(gpt3.ok());
  EXPECT_EQ(gpt3->layers, 96);
  EXPECT_EQ(gpt3->hidden, 12288);
  EXPECT_EQ(gpt3->heads, 96);
  EXPECT_EQ(gpt3->seq_len, 2048);
  EXPECT_EQ(gpt3->vocab, 50257);
  EXPECT_FALSE(gpt3->gated_mlp);
  EXPECT_TRUE(gpt3->tied_embeddings);
  Result<ModelSpec> llama = FindModel("llama3-70b");
  ASSERT_TRUE(llama.ok());
  EXPECT_EQ(llama->kv_heads, 8);
  EXPECT_EQ(llama->ffn_hidden, 28672);
  EXPECT_EQ(llama->vocab, 128256);
  EXPECT_EQ(llama->seq_len, 8192);
  Result<ModelSpec> ds = FindModel("deepseek-v3");
  ASSERT_TRUE(ds.ok());
  EXPECT_EQ(ds->experts, 256);
  EXPECT_EQ(ds->top_k, 8);
  EXPECT_FALSE(ds->is_moe_layer(2));  // first three layers dense
  EXPECT_TRUE(ds->is_moe_layer(3));
  EXPECT_TRUE(ds->mla());
}

TEST(ModelCatalog, ParameterCountsMatchThePapers) {
  // GPT-3: 96 x (12 h^2 + 2h) + V h + 2048 h (learned positions) + h
  //      = 96 x 1,811,963,904 + 617,558,016 + 25,165,824 + 12,288 = 174,591,270,912 (paper: 175B).
  EXPECT_EQ(CountParameters(*FindModel("gpt3-175b")).total, 174'591'270'912);
  // Llama 3 8B: 32 x (attention 41,943,040 + MLP 176,160,768 + norms 8,192)
  //   + 2 x 128256 x 4096 (untied) + 4096 = 8,030,261,248 (the released 8.03B).
  EXPECT_EQ(CountParameters(*FindModel("llama3-8b")).total, 8'030'261'248);
  // Llama 3 70B: 80 x (attention 150,994,944 + MLP 704,643,072 + norms 16,384) + 2 x 128256 x 8192 + 8192 = 70,553,706,496.
  EXPECT_EQ(CountParameters(*FindModel("llama3-70b")).total, 70'553'706'496);
  // DeepSeek-V3: 671B total, 37B activated (arXiv:2412.19437); MLA attention per
  // layer 7168x1536 + 1536x128x192 + 7168x576 + 512x128x256 + 128x128x7168 = 187,105,280.
  const ModelSpec ds = *FindModel("deepseek-v3");
  EXPECT_EQ(AttentionParams(ds), 187'105'280);
  const ParameterCount c = CountParameters(ds);
  EXPECT_NEAR(static_cast<double>(c.total), 671e9, 1e9);
  EXPECT_NEAR(static_cast<double>(c.active), 37.5e9, 0.6e9);
}

TEST(ModelCatalog, UnknownModelListsTheKnownOnes) {
  Result<ModelSpec> m = FindModel("gpt5");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(Contains(m.error().message, "unknown model 'gpt5'"));
  EXPECT_TRUE(Contains(m.error().message, "llama3-8b"));
}

TEST(ModelCatalog, BadEntriesNameLineAndField) {
  const std::string head = "models:\n  - name: x\n    layers: 2\n    hidden: 64\n    heads: 4\n";
  const std::string rest = "    ffn_hidden: 256\n    vocab: 100\n    seq_len: 16\n    source: test\n";
  auto error = [](const std::string& text) {
    Result<std::vector<ModelSpec>> r = ParseModelCatalog(text, "m.yaml");
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(error(head + rest), "ok");
  EXPECT_TRUE(Contains(error(head + "    kv_heads: 3\n" + rest), "models[0].kv_heads: 3 must divide heads"));
  EXPECT_TRUE(Contains(error(head + "    layerz: 3\n" + rest), "m.yaml:6: models[0]: unknown field 'layerz'"));
  EXPECT_TRUE(Contains(error(head + "    mlp: relu\n" + rest), "models[0].mlp: expected one of gelu, swiglu"));
  EXPECT_TRUE(Contains(error(head + "    experts: 8\n" + rest), "models[0].top_k"));
  std::string words = head + rest;
  words.replace(words.find("layers: 2"), 9, "layers: two");
  EXPECT_TRUE(Contains(error(words), "m.yaml:3: models[0].layers: expected an integer in [1, 100000], got 'two'"));
  EXPECT_TRUE(Contains(error(head + "    ffn_hidden: 256\n    vocab: 100\n    seq_len: 16\n"),
                       "models[0].source: required field is missing"));
  const std::string two = "models:\n" + head.substr(8) + rest + head.substr(8) + rest;
  EXPECT_TRUE(Contains(error(two), "models[1].name: duplicate model 'x'"));
}

TEST(ModelCatalog, AnInlineModelReadsLikeACatalogEntry) {
  const YAML::Node node = YAML::Load("{name: mine, layers: 4, hidden: 256, heads: 8, ffn_hidden: 1024, vocab: 1000, seq_len: 128}");
  Result<ModelSpec> m = ReadModelSpec(node, "scenario.yaml", "workload[0].training.model");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->head_dim_or_default(), 32);
  EXPECT_TRUE(m->gated_mlp);  // default swiglu
  const YAML::Node bad = YAML::Load("{name: mine, layers: 0, hidden: 256, heads: 8, ffn_hidden: 1024, vocab: 1000, seq_len: 128}");
  Result<ModelSpec> e = ReadModelSpec(bad, "scenario.yaml", "workload[0].training.model");
  ASSERT_FALSE(e.ok());
  EXPECT_TRUE(Contains(e.error().message, "workload[0].training.model.layers")) << e.error().message;
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

// Every built-in model written as a map reads back field for field (so a
// written model is the same model: the planner's scaled copies use it).
TEST(ModelCatalog, AWrittenModelReadsBackTheSame) {
  for (const ModelSpec& m : BuiltInModels()) {
    SCOPED_TRACE(m.name);
    Result<ModelSpec> back = ReadModelSpec(ModelSpecNode(m), "written", "model");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->name, m.name);
    EXPECT_EQ(back->layers, m.layers);
    EXPECT_EQ(back->hidden, m.hidden);
    EXPECT_EQ(back->heads, m.heads);
    EXPECT_EQ(back->kv_heads, m.kv_heads);
    EXPECT_EQ(back->head_dim, m.head_dim);
    EXPECT_EQ(back->ffn_hidden, m.ffn_hidden);
    EXPECT_EQ(back->gated_mlp, m.gated_mlp);
    EXPECT_EQ(back->vocab, m.vocab);
    EXPECT_EQ(back->seq_len, m.seq_len);
    EXPECT_EQ(back->tied_embeddings, m.tied_embeddings);
    EXPECT_EQ(back->learned_positions, m.learned_positions);
    EXPECT_EQ(back->q_lora_rank, m.q_lora_rank);
    EXPECT_EQ(back->kv_lora_rank, m.kv_lora_rank);
    EXPECT_EQ(back->qk_rope_head_dim, m.qk_rope_head_dim);
    EXPECT_EQ(back->v_head_dim, m.v_head_dim);
    EXPECT_EQ(back->experts, m.experts);
    EXPECT_EQ(back->shared_experts, m.shared_experts);
    EXPECT_EQ(back->top_k, m.top_k);
    EXPECT_EQ(back->expert_ffn_hidden, m.expert_ffn_hidden);
    EXPECT_EQ(back->first_dense_layers, m.first_dense_layers);
    EXPECT_EQ(back->moe_layer_freq, m.moe_layer_freq);
    EXPECT_EQ(back->source, m.source);
    EXPECT_EQ(CountParameters(*back).total, CountParameters(m).total);
  }
}

}  // namespace
}  // namespace aifabric
