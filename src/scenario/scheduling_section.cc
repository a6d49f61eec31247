#include "scenario/scheduling_section.h"

#include <climits>
#include <optional>
#include <string>

#include "sched/job_profile.h"

namespace aifabric {
namespace {

// ValidateReplayOptions's bound (sched/cluster_replay.cc).
constexpr int64_t kMaxPhasesPerJob = 1'000'000;

// The reader already refuses what is not a finite number; the ranges are
// ValidateJobModelOptions's.
bool AnyNumber(double) {
  return true;
}

// scheduling.jobs: JobModelOptions, the GPU figures defaulting to cluster.gpu's.
void ReadJobModel(const MapReader& m, const GpuSpec& gpu, JobModelOptions& o) {
  m.AllowOnly({"tokens_per_gpu", "gpu_peak_tflops", "compute_efficiency", "gpu_memory_gib", "grad_bytes",
               "overlap_fraction", "nvlink_gbps_per_dir", "checkpoint_interval"});
  o.tokens_per_gpu = m.Unsigned("tokens_per_gpu", 0);
  o.gpu_peak_tflops = m.Number("gpu_peak_tflops", gpu.bf16_dense_tflops, AnyNumber, "a number");
  o.compute_efficiency = m.Number("compute_efficiency", 0, AnyNumber, "a number");
  o.gpu_memory_gib = m.Number("gpu_memory_gib", static_cast<double>(gpu.hbm_bytes) / (1ull << 30), AnyNumber, "a number");
  o.grad_bytes = static_cast<int>(m.Int("grad_bytes", 4, 0, INT_MAX));
  o.overlap_fraction = m.Number("overlap_fraction", 0.5, AnyNumber, "a number");
  o.nvlink_gbps_per_dir = m.Number("nvlink_gbps_per_dir", gpu.nvlink_gbps_per_dir, AnyNumber, "a number");
  o.checkpoint_interval_s = m.TimeValue("checkpoint_interval", Time::Zero()).seconds();
  if (!m.diagnostics().ok()) return;
  // Its errors read "scheduling.jobs.<field>: <what>": placed at the field.
  Status valid = ValidateJobModelOptions(o);
  if (valid.ok()) return;
  const std::string& message = valid.error().message;
  const std::string prefix = m.path() + ".";
  const size_t colon = message.find(": ");
  if (message.rfind(prefix, 0) == 0 && colon != std::string::npos) {
    m.FailAt(message.substr(prefix.size(), colon - prefix.size()), message.substr(colon + 2));
  } else {
    m.diagnostics().FailWith(Error{m.diagnostics().origin() + ": " + message});
  }
}

// A built topology knows its server count now; a topology file only once
// read (schedule_run checks it then). Checkpoints need somewhere to go.
void CheckStorageServers(const MapReader& m, const Scenario& s) {
  const bool built = s.topology.type == TopologyType::kLeafSpine || s.topology.type == TopologyType::kFatTree ||
                     s.topology.type == TopologyType::kRailOptimized;
  const int storage = s.scheduling.storage_servers;
  if (built && storage >= s.topology.servers) {
    m.FailAt("storage_servers", "expected fewer than cluster.servers (" + std::to_string(s.topology.servers) +
                                    ") so that a server is left for jobs, got " + std::to_string(storage));
  }
  if (storage == 0 && s.scheduling.jobs.checkpoint_interval_s > 0) {
    m.Map("jobs").FailAt("checkpoint_interval", "checkpoints need storage servers (scheduling.storage_servers >= 1)");
  }
}

// scheduling.link_failures: [{between: [SWITCH, SWITCH], at: TIME, for: TIME}].
void ReadLinkFailures(const MapReader& m, Scenario::Scheduling& sched) {
  const std::optional<YAML::Node> list = m.Get("link_failures");
  if (!list) return;
  const std::string path = m.Path("link_failures");
  if (!list->IsSequence()) {
    m.diagnostics().Fail(*list, path, "expected a list of {between: [SWITCH, SWITCH], at, for}, got " + Describe(*list));
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    MapReader f(m.diagnostics(), (*list)[i], path + "." + std::to_string(i));
    f.AllowOnly({"between", "at", "for"});
    Scenario::Scheduling::LinkFailure failure;
    failure.path = f.path();
    const std::optional<YAML::Node> between = f.Get("between");
    if (!between) {
      f.Fail("between", "missing; expected the two switches the link joins, e.g. between: [leaf0, spine1]");
      continue;
    }
    if (!between->IsSequence() || between->size() != 2 || !(*between)[0].IsScalar() || !(*between)[1].IsScalar()) {
      f.FailAt("between", "expected two switch names, e.g. [leaf0, spine1], got " + Describe(*between));
      continue;
    }
    failure.a = (*between)[0].Scalar();
    failure.b = (*between)[1].Scalar();
    if (!f.Has("at")) f.Fail("at", "missing; expected the time the link fails, e.g. at: 3600s");
    failure.at_s = f.TimeValue("at", Time::Zero()).seconds();
    failure.for_s = f.TimeValue("for", Time::Zero()).seconds();
    sched.link_failures.push_back(std::move(failure));
  }
}

}  // namespace

void ReadSchedulingSection(const MapReader& m, Scenario& s) {
  m.AllowOnly({"policy", "storage_servers", "max_phases_per_job", "load_window", "jobs", "link_failures"});
  Scenario::Scheduling& sched = s.scheduling;
  if (m.Has("policy")) {
    Result<PolicySpec> spec = ParsePolicySpec(m.String("policy", ""));
    if (spec.ok()) {
      sched.policy = std::move(spec).value();
    } else {
      m.FailAt("policy", spec.error().message);
    }
  }
  sched.storage_servers = static_cast<int>(m.Int("storage_servers", 0, 0, INT_MAX));
  sched.max_phases_per_job = static_cast<int>(m.Int("max_phases_per_job", 256, 1, kMaxPhasesPerJob));
  const Time window = m.TimeValue("load_window", Time::FromMs(60'000));
  if (m.Has("load_window") && window == Time::Zero()) m.FailAt("load_window", "expected a time > 0, got 0");
  sched.load_window_s = window.seconds();
  ReadJobModel(m.Map("jobs"), s.gpu, sched.jobs);
  ReadLinkFailures(m, sched);
  if (m.diagnostics().ok()) CheckStorageServers(m, s);
}

}  // namespace aifabric
