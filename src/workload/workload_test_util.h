// Helpers shared by the workload tests (test-only; not part of the
// library): a small dense model, parallelism specs, microseconds and a
// substring check.
#pragma once

#include <cstdint>
#include <string>

#include "core/time.h"
#include "workload/model_catalog.h"
#include "workload/training_step.h"

namespace aifabric::workload_testing {

inline bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline constexpr Time Us(int64_t us) { return Time::FromUs(us); }

// A small dense model: 8 layers, h 1024, 16 heads, GeLU FFN 4096, vocab
// 32000 (untied), seq 512. Per layer: attention 4h^2 = 4,194,304, MLP 2 x
// 1024 x 4096 = 8,388,608, norms 2h = 2,048.
inline ModelSpec Tiny() {
  ModelSpec m;
  m.name = "tiny";
  m.layers = 8;
  m.hidden = 1024;
  m.heads = 16;
  m.ffn_hidden = 4096;
  m.gated_mlp = false;
  m.vocab = 32000;
  m.seq_len = 512;
  return m;
}

inline ParallelismSpec Par(int tp, int pp, int dp, int ep = 1) {
  ParallelismSpec p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.ep = ep;
  return p;
}

}  // namespace aifabric::workload_testing
