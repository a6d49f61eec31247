#include "run/chakra_run.h"

#include "chakra/chakra_reader.h"

namespace aifabric {

Result<JobGraph> ReadChakraJob(const Scenario& scenario, const Scenario::ChakraJob& job, int* ranks) {
  ChakraOptions options;
  // Kernels given only as num_ops run at the GPU's peak (the traces carry
  // measured durations where they have them).
  options.peak_flops_per_s = scenario.gpu.bf16_dense_tflops * 1e12;
  options.skip_cpu_ops = job.skip_cpu_ops;
  if (!job.comm_groups.empty()) {
    auto groups = ReadChakraCommGroups(job.comm_groups);
    if (!groups.ok()) return Error{job.path + ": " + groups.error().message};
    options.comm_groups = std::move(groups).value();
  }
  Result<std::vector<std::string>> files = FindChakraTraceFiles(job.prefix);
  if (!files.ok()) return Error{job.path + ": " + files.error().message};
  Result<JobGraph> graph = ReadChakraTraces(*files, options);
  if (!graph.ok()) return Error{job.path + ": " + graph.error().message};
  if (ranks != nullptr) *ranks = static_cast<int>(files->size());
  return graph;
}

Result<ChakraRunResult> RunChakraJob(const Scenario& scenario, const Scenario::ChakraJob& job, const RunHooks& hooks) {
  int ranks = 0;
  Result<JobGraph> graph = ReadChakraJob(scenario, job, &ranks);
  if (!graph.ok()) return graph.error();
  Result<JobRunResult> run = RunJob(scenario, *graph, job.path, 0, 0, hooks);
  if (!run.ok()) return run.error();
  ChakraRunResult r;
  r.run = std::move(run).value();
  r.ranks = ranks;
  r.nodes = graph->size();
  return r;
}

}  // namespace aifabric
