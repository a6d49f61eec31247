#include "scenario/job_sections.h"

namespace aifabric {
namespace {

// recompute: none | selective | full, or the older boolean (true = full).
Recompute ReadRecompute(const MapReader& m) {
  std::optional<YAML::Node> v = m.Get("recompute");
  if (!v) return Recompute::kNone;
  if (v->IsScalar()) {
    const std::string& text = v->Scalar();
    if (text == "none" || text == "false") return Recompute::kNone;
    if (text == "selective") return Recompute::kSelective;
    if (text == "full" || text == "true") return Recompute::kFull;
  }
  m.FailAt("recompute", "expected none, selective or full (or true = full, false = none), got " + Describe(*v));
  return Recompute::kNone;
}

}  // namespace

// workload: - training: {model, tp, pp, dp, ...}: one LLM training step
// (workload/training_step.h; docs/training.md). GPU peak and HBM come from
// cluster.gpu.
void ReadTraining(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"model", "tp", "pp", "dp", "ep", "sequence_parallel", "distributed_optimizer", "zero", "parallelism",
               "gpus", "bucket", "overlap", "global_batch", "micro_batch", "seq_len", "recompute",
               "compute_efficiency", "layers_per_node", "checkpoint", "dataset"});
  RequireKeys(m, {"model", "global_batch"});
  if (!c.d.ok()) return;
  Scenario::Training t;
  t.path = path;
  const YAML::Node model = value["model"];
  if (model.IsMap()) {
    Result<ModelSpec> spec = ReadModelSpec(model, c.d.origin(), m.Path("model"));
    if (!spec.ok()) {
      c.d.FailWith(spec.error());
      return;
    }
    t.model = *spec;
  } else {
    Result<ModelSpec> spec = FindModel(m.String("model", ""));
    if (!spec.ok()) {
      m.FailAt("model", spec.error().message);
      return;
    }
    t.model = *spec;
  }
  ParallelismSpec& p = t.parallelism;
  p.tp = static_cast<int>(m.Int("tp", 1, 1, 1 << 20));
  p.pp = static_cast<int>(m.Int("pp", 1, 1, 1 << 20));
  p.dp = static_cast<int>(m.Int("dp", 1, 1, 1 << 24));
  p.ep = static_cast<int>(m.Int("ep", 1, 1, 1 << 20));
  p.sequence_parallel = m.Bool("sequence_parallel", false);
  p.distributed_optimizer = m.Bool("distributed_optimizer", false);
  // zero: 0..3, default 1 with the distributed optimizer; ZeRO 1 and 2 run
  // as the distributed optimizer, 3 is refused by `aifabric run`.
  t.memory.zero_stage = static_cast<int>(m.Int("zero", p.distributed_optimizer ? 1 : 0, 0, 3));
  if (m.Has("zero") && m.Has("distributed_optimizer") && p.distributed_optimizer != (t.memory.zero_stage >= 1)) {
    m.FailAt("zero", "zero: " + std::to_string(t.memory.zero_stage) + " contradicts distributed_optimizer: " +
                         (p.distributed_optimizer ? "true" : "false") + " (ZeRO >= 1 is the distributed optimizer)");
  }
  p.distributed_optimizer = t.memory.zero_stage >= 1;
  if (m.Has("parallelism")) {
    if (m.String("parallelism", "") != "auto") m.FailAt("parallelism", "expected auto");
    for (const char* key : {"tp", "pp", "dp", "ep"}) {
      if (m.Has(key)) m.FailAt(key, "not with parallelism: auto (the search chooses it)");
    }
    t.auto_parallelism = true;
  }
  t.gpus = static_cast<int>(m.Int("gpus", 0, 1, 1 << 24));
  if (m.Has("gpus") && !t.auto_parallelism) m.FailAt("gpus", "only with parallelism: auto (else tp x pp x dp GPUs)");
  p.bucket_bytes = m.Size("bucket", p.bucket_bytes, 1, kMaxBytes);
  p.overlap_grad_reduce = m.Bool("overlap", true);
  p.layers_per_node = static_cast<int>(m.Int("layers_per_node", 1, 1, 1 << 20));
  TrainingSpec& tr = t.training;
  tr.global_batch = static_cast<int>(m.Int("global_batch", 0, 1, 1 << 28));
  tr.micro_batch = static_cast<int>(m.Int("micro_batch", 1, 1, 1 << 20));
  tr.seq_len = static_cast<int>(m.Int("seq_len", 0, 0, 1 << 24));
  t.memory.recompute = ReadRecompute(m);
  tr.recompute = t.memory.recompute == Recompute::kFull;
  tr.compute_efficiency =
      m.Number("compute_efficiency", 0, [](double x) { return x >= 0 && x <= 1; }, "a number in [0, 1] (0: the calibration file's)");
  MapReader ck = m.Map("checkpoint");
  ck.AllowOnly({"storage_servers", "bytes", "priority", "every"});
  if (m.Has("checkpoint")) RequireKeys(ck, {"storage_servers"});
  t.storage_servers = static_cast<int>(ck.Int("storage_servers", 0, 0, 1 << 20));
  t.checkpoint_bytes = ck.Size("bytes", 0, 0, kMaxBytes);
  t.checkpoint_priority = static_cast<uint8_t>(ck.Int("priority", 1, 0, kNumPriorities - 1));
  t.checkpoint_every = static_cast<int>(ck.Int("every", 1, 1, kMaxInt));
  // dataset: {storage_servers, bytes, priority}: the next step's batch read
  // from storage; storage_servers defaults to the checkpoint's.
  MapReader ds = m.Map("dataset");
  ds.AllowOnly({"storage_servers", "bytes", "priority"});
  if (m.Has("dataset") && t.storage_servers == 0) RequireKeys(ds, {"storage_servers"});
  if (m.Has("dataset")) t.dataset_servers = static_cast<int>(ds.Int("storage_servers", t.storage_servers, 1, 1 << 20));
  t.dataset_bytes = ds.Size("bytes", 0, 0, kMaxBytes);
  t.dataset_priority = static_cast<uint8_t>(ds.Int("priority", 1, 0, kNumPriorities - 1));
  tr.gpu_peak_tflops = s.gpu.bf16_dense_tflops;
  tr.hbm_bytes_per_s = s.gpu.hbm_tbps * 1e12;
  if (c.d.ok()) s.trainings.push_back(std::move(t));
}

}  // namespace aifabric
