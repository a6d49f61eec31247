// The scenario's `cluster:` section: servers, GPUs (from the catalog),
// NVLink inside a server and the NICs (a rate or a catalog model, and how
// many per GPU). docs/scenario.md lists the fields.
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads `cluster` into s.server, s.gpu, s.nic_model, s.nics_per_gpu and the
// servers and NICs of s.topology.
void ReadCluster(const SectionContext& c, const MapReader& cluster, Scenario& s);

}  // namespace aifabric
