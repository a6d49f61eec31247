// The scenario's `scheduling:` section: how `aifabric schedule` replays a job
// trace on the cluster (the policy spec, the storage servers, the replay's
// bounds and the job model of sched/job_profile.h). The scenario loader
// calls it after `cluster` and `fabric`, since the job model's GPU figures
// default to cluster.gpu's; errors go to the reader's Diagnostics
// ("<file>:<line>:<col>: scheduling.<field>: ...") like every other section.
// docs/scenario.md lists the fields.
#pragma once

#include "scenario/scenario.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads `section` (the top-level `scheduling` map, possibly absent) into
// s.scheduling. REQUIRES: s.gpu and s.topology already read.
void ReadSchedulingSection(const MapReader& section, Scenario& s);

}  // namespace aifabric
