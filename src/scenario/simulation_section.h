// The scenario's `simulation:` section: the network model, how collectives
// run, the horizon and the telemetry settings.
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

void ReadSimulation(const MapReader& sim, Scenario& s);

}  // namespace aifabric
