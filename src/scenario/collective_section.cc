#include "scenario/job_sections.h"

namespace aifabric {
namespace {

// `key` of `m` as a name `parse` accepts, or "auto" (unset).
template <typename E, typename Parse>
std::optional<E> ReadAutoOr(const MapReader& m, const std::string& key, Parse parse) {
  const std::string text = m.String(key, "auto");
  if (text == "auto") return std::nullopt;
  Result<E> parsed = parse(text);
  if (!parsed.ok()) {
    m.FailAt(key, parsed.error().message + " or auto");
    return std::nullopt;
  }
  return *parsed;
}

}  // namespace

// workload: - collective: {op, size, gpus, algo, proto}: one collective as
// `aifabric collective` runs it at one size (docs/collectives.md), repeated
// as the item's `steps` (docs/multi_tenant.md).
void ReadCollective(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"op", "size", "gpus", "algo", "proto"});
  RequireKeys(m, {"op", "size"});
  if (!c.d.ok()) return;
  Scenario::CollectiveJob job;
  job.path = path;
  Result<CollectiveOp> op = ParseCollectiveOp(m.String("op", ""));
  if (!op.ok()) {
    m.FailAt("op", op.error().message);
    return;
  }
  job.op = *op;
  job.size = m.Size("size", 0, 1, kMaxBytes);
  const int per_server = s.server.gpus_per_server;
  const int64_t cluster = int64_t{s.topology.servers} * per_server;
  job.gpus = static_cast<int32_t>(m.Int("gpus", cluster, 1, kMaxInt));
  if (job.gpus > cluster) {
    m.FailAt("gpus", std::to_string(job.gpus) + " GPUs, more than the cluster's " + std::to_string(cluster));
  } else if (job.gpus > per_server && job.gpus % per_server != 0) {
    m.FailAt("gpus", std::to_string(job.gpus) + " GPUs do not fill whole servers of " + std::to_string(per_server) +
                         " (a collective over several servers takes the same GPUs of each)");
  }
  job.algorithm = ReadAutoOr<CollectiveAlgorithm>(m, "algo", ParseCollectiveAlgorithm);
  job.protocol = ReadAutoOr<CollectiveProtocol>(m, "proto", ParseCollectiveProtocol);
  if (c.d.ok()) s.collective_jobs.push_back(std::move(job));
}

}  // namespace aifabric
