#include "scenario/job_sections.h"

#include <filesystem>

namespace aifabric {

// workload: - chakra: {traces: PREFIX, comm_groups: FILE, skip_cpu_ops}:
// Chakra execution traces PREFIX.0.et, PREFIX.1.et, ... (docs/chakra.md).
void ReadChakra(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"traces", "comm_groups", "skip_cpu_ops"});
  RequireKeys(m, {"traces"});
  if (!c.d.ok()) return;
  Scenario::ChakraJob job;
  job.path = path;
  namespace fs = std::filesystem;
  fs::path prefix(m.String("traces", ""));
  if (prefix.is_relative()) prefix = fs::path(c.base_dir.empty() ? "." : c.base_dir) / prefix;
  job.prefix = prefix.lexically_normal().string();
  std::error_code ec;
  if (!fs::is_regular_file(job.prefix + ".0.et", ec)) {
    m.FailAt("traces", "no trace file " + job.prefix + ".0.et (expected PREFIX.0.et, PREFIX.1.et, ...)");
    return;
  }
  if (m.Has("comm_groups")) job.comm_groups = ResolveFile(c, m, "comm_groups");
  job.skip_cpu_ops = m.Bool("skip_cpu_ops", false);
  if (c.d.ok()) s.chakras.push_back(std::move(job));
}

}  // namespace aifabric
