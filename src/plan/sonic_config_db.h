// One Ethernet switch's SONiC configuration, config_db.json, with the
// values the simulation used for it: ports, buffer pools, profiles and
// priority groups (the PFC headroom from PfcHeadroomBytes, the
// packet model's own calculation), the QoS maps from the scenario's
// classes, ECN/WRED, schedulers and the PFC watchdog. Table and key formats
// follow SONiC's schema (sonic-net/sonic-buildimage
// src/sonic-yang-models/doc/Configuration.md); docs/switch_config.md says
// where each value comes from. Stateless; thread-safe.
#pragma once

#include <string>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/topology.h"
#include "scenario/scenario.h"

namespace aifabric {

// config_db.json of switch `sw` (keys sorted, 4-space indent, a final
// newline). An Error names the scenario field whose value SONiC cannot
// express (an alpha that is not 2^n, a drop probability that is not a whole
// percent, a watchdog time outside SONiC's range, a weight above 100).
// REQUIRES: scenario.packet.kind == kRoce; `sw` is a switch of `topology`.
Result<std::string> SonicConfigDb(const Scenario& scenario, const Topology& topology, NodeId sw);

}  // namespace aifabric
