// fabric.ib: InfiniBand's routing (OpenSM's engines or imported tables),
// adaptive routing, VL buffers, SL-to-VL mapping, VL arbitration and
// congestion control (FECN/BECN with a CCT).
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads fabric.ib into s.packet, s.transport and s.ib_routing (an error if
// it is given on a RoCEv2 fabric).
void ReadIb(const SectionContext& c, const MapReader& fabric, Scenario& s);

}  // namespace aifabric
