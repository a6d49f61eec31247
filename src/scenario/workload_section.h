// The scenario's `workload:` list: flow workloads (explicit flows, HPCC
// flow files, permutation, incast, all-to-all, Poisson) into s.workload,
// and jobs (training, chakra, inference: job_sections.h) into their own
// lists.
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads the top-level `workload` list. REQUIRES: the fabric section
// already read (for `class:` names).
void ReadWorkload(const SectionContext& c, const MapReader& top, Scenario& s);

}  // namespace aifabric
