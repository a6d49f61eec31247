// The job items of the scenario's `workload:` list: `training` (one LLM
// training step: workload/training_step.h, docs/training.md), `inference`
// (LLM serving: workload/inference_server.h, docs/inference.md) and
// `chakra` (Chakra execution traces, docs/chakra.md) and `collective` (one
// collective repeated, docs/multi_tenant.md). Each appends to its
// list of the Scenario when the item reads without error.
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// REQUIRES: the cluster section already read (GPU figures come from
// cluster.gpu). `path` is the item's, e.g. "workload.0.training".
void ReadTraining(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s);
void ReadInference(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s);
void ReadChakra(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s);
void ReadCollective(const SectionContext& c, const YAML::Node& value, const std::string& path, Scenario& s);

}  // namespace aifabric
