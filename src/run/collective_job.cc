#include "run/collective_job.h"

#include <algorithm>

#include "workload/collective_sweep.h"

namespace aifabric {

CollectiveRequest CollectiveJobRequest(const Scenario::CollectiveJob& job) {
  CollectiveRequest r;
  r.op = job.op;
  r.algorithm = job.algorithm;
  r.protocol = job.protocol;
  r.sizes = {job.size};
  r.gpus = job.gpus;
  return r;
}

Result<JobGraph> CollectiveJobGraph(const Scenario::CollectiveJob& job, CollectiveAlgorithm algorithm) {
  JobGraphBuilder b;
  std::vector<GpuId> gpus;
  for (GpuId g = 0; g < job.gpus; ++g) gpus.push_back(g);
  const uint32_t group = b.AddGroup(std::move(gpus));
  const uint32_t label = b.AddLabel(std::string(CollectiveOpName(job.op)));
  b.AddCollective(job.op, group, SizesFor(job.op, job.size, job.gpus).bytes, CommDimension::kOther, label,
                  ResolveAlgorithm(job.op, algorithm));
  Result<JobGraph> graph = std::move(b).Build();
  if (!graph.ok()) return Error{job.path + ": " + graph.error().message};
  return graph;
}

Result<PreparedCollectiveJob> PrepareCollectiveJob(const Scenario& scenario, const Scenario::CollectiveJob& job) {
  PreparedCollectiveJob p;
  CollectiveChoice& c = p.choice;
  c.op = job.op;
  c.size = job.size;
  c.bytes = SizesFor(job.op, job.size, job.gpus).bytes;
  c.ranks = job.gpus;
  if (job.algorithm && job.protocol) {
    c.algorithm = *job.algorithm;
    c.protocol = *job.protocol;
    // What the sweep would refuse: an algorithm the op or the GPUs do not take.
    CollectiveOptions o;
    o.op = job.op;
    o.algorithm = c.algorithm;
    o.ranks = job.gpus;
    o.ranks_per_server = std::min(job.gpus, scenario.server.gpus_per_server);
    o.bytes = c.bytes;
    o.channels = o.ranks_per_server;
    if (Status st = CheckCollectiveOptions(o); !st.ok()) return Error{job.path + ".algo: " + st.error().message};
  } else {
    // The choice `aifabric collective` makes, on the idle fabric.
    Scenario idle = scenario;
    idle.faults.clear();
    idle.telemetry.enabled = false;
    Result<CollectiveSweepResult> sweep = RunCollectiveSweep(idle, CollectiveJobRequest(job));
    if (!sweep.ok()) return Error{job.path + ": " + sweep.error().message};
    c.algorithm = sweep->algorithms.at(0);
    c.protocol = sweep->protocols.at(0);
  }
  c.algorithm = ResolveAlgorithm(job.op, c.algorithm);
  c.protocol_spec = GetProtocolSpec(c.protocol, scenario.calibration_spec());
  Result<JobGraph> graph = CollectiveJobGraph(job, c.algorithm);
  if (!graph.ok()) return graph.error();
  p.graph = std::move(graph).value();
  return p;
}

}  // namespace aifabric
