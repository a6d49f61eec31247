// The configuration an operator loads on the switches of a fabric design,
// with the values the simulation used: DIR/<switch>/config_db.json per
// RoCEv2 switch (SONiC: sonic_config_db.h), DIR/opensm/ for InfiniBand
// (opensm_config.h), and DIR/cabling.csv for both (cabling_plan.h).
// `aifabric validate --config DIR` writes it, and so does the planner for
// the design it picks. Stateless; thread-safe (distinct dirs).
#pragma once

#include <string>

#include "core/result.h"
#include "plan/cabling_plan.h"
#include "run/fabric_setup.h"
#include "scenario/scenario.h"

namespace aifabric {

struct SwitchConfigOptions {
  // The cable type of each link in cabling.csv (the hardware catalog's
  // cables once wired in); DefaultCableType's rule table by default.
  CableTypeRule cable_type = DefaultCableType;
  // The length of each link; from its latency when empty (the planner
  // passes its per-tier cable lengths).
  CableLengthRule cable_length;
};

// Writes the files into `dir` through an OutputFolder: each to a
// temporary name, all renamed into place at the end, so a failure leaves
// none of them (and no folder this call created). Errors name the
// scenario field whose value the configuration cannot express, or the file
// that could not be written.
Status WriteSwitchConfig(const Scenario& scenario, const BuiltFabric& fabric, const std::string& dir,
                         const SwitchConfigOptions& options = {});

}  // namespace aifabric
