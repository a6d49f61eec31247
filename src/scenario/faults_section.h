// The scenario's top-level `faults:` list (docs/faults.md): link_down,
// link_flap, switch_down, nic_port_down, gray_link and straggler items,
// each with `at` and optional `until`, read into Scenario::faults as
// written; names are checked against the topology when the fabric is built
// (run/fault_plan.h). Errors go to the reader's Diagnostics
// ("<file>:<line>:<col>: faults.N.<field>: ...").
#pragma once

#include "scenario/scenario.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads top-level key `faults` of `top` (possibly absent) into s.faults.
void ReadFaultsSection(const MapReader& top, Scenario& s);

}  // namespace aifabric
