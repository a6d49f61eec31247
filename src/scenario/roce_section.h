// fabric.roce: PFC (with its headroom and watchdog), ECN marking and the
// congestion control (DCQCN, HPCC); the defaults are a common RoCEv2
// deployment (PFC on priorities 3 and 4, ECN, DCQCN).
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads fabric.roce into s.packet and s.transport (an error if it is given
// on an InfiniBand fabric, whose congestion control is fabric.ib's).
void ReadRoce(const SectionContext& c, const MapReader& fabric, Scenario& s);

}  // namespace aifabric
