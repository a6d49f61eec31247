#include "scenario/job_sections.h"

namespace aifabric {

// workload: - training: {model, tp, pp, dp, ...}: one LLM training step
// (workload/training_step.h; docs/training.md). GPU peak and HBM come from
// cluster.gpu.
void ReadTraining(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"model", "tp", "pp", "dp", "ep", "sequence_parallel", "distributed_optimizer", "bucket", "overlap",
               "global_batch", "micro_batch", "seq_len", "recompute", "compute_efficiency", "layers_per_node",
               "checkpoint"});
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
  p.bucket_bytes = m.Size("bucket", p.bucket_bytes, 1, kMaxBytes);
  p.overlap_grad_reduce = m.Bool("overlap", true);
  p.layers_per_node = static_cast<int>(m.Int("layers_per_node", 1, 1, 1 << 20));
  TrainingSpec& tr = t.training;
  tr.global_batch = static_cast<int>(m.Int("global_batch", 0, 1, 1 << 28));
  tr.micro_batch = static_cast<int>(m.Int("micro_batch", 1, 1, 1 << 20));
  tr.seq_len = static_cast<int>(m.Int("seq_len", 0, 0, 1 << 24));
  tr.recompute = m.Bool("recompute", false);
  tr.compute_efficiency =
      m.Number("compute_efficiency", 0, [](double x) { return x >= 0 && x <= 1; }, "a number in [0, 1] (0: the calibration file's)");
  MapReader ck = m.Map("checkpoint");
  ck.AllowOnly({"storage_servers", "bytes", "priority"});
  if (m.Has("checkpoint")) RequireKeys(ck, {"storage_servers"});
  t.storage_servers = static_cast<int>(ck.Int("storage_servers", 0, 0, 1 << 20));
  t.checkpoint_bytes = ck.Size("bytes", 0, 0, kMaxBytes);
  t.checkpoint_priority = static_cast<uint8_t>(ck.Int("priority", 1, 0, kNumPriorities - 1));
  tr.gpu_peak_tflops = s.gpu.bf16_dense_tflops;
  tr.hbm_bytes_per_s = s.gpu.hbm_tbps * 1e12;
  if (c.d.ok()) s.trainings.push_back(std::move(t));
}

}  // namespace aifabric
