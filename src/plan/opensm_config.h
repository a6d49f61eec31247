// An InfiniBand fabric's subnet-manager configuration for OpenSM, with the
// routing engine and QoS the simulation used: opensm.conf (routing_engine;
// qos with the SL-to-VL table and VL arbitration of fabric.ib /
// fabric.qos), partitions.conf (the default partition) and a README saying
// how to start it. Option names are OpenSM 3.3's (opensm -c writes them
// all). Stateless; thread-safe.
#pragma once

#include <string>

#include "core/result.h"
#include "scenario/scenario.h"

namespace aifabric {

// Where the files expect to be installed (opensm.conf names the others by
// these paths; the README says how to run them in place instead).
inline constexpr const char* kOpenSmInstallDir = "/etc/opensm";

struct OpenSmFiles {
  std::string opensm_conf;
  std::string partitions_conf;
  std::string readme;
  // fabric.ib.routing {format: opensm|ibroute, file}: the forwarding tables
  // OpenSM's `file` engine loads, to be copied in as lfts.dump ("" otherwise).
  std::string lfts_source;
};

// The files for `scenario`. An Error names the field OpenSM cannot take (a
// VL arbitration weight above 255).
// REQUIRES: scenario.packet.kind == kIb.
Result<OpenSmFiles> OpenSmConfig(const Scenario& scenario);

}  // namespace aifabric
