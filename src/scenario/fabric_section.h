// The scenario's `fabric:` section: the fabric kind (RoCEv2 or InfiniBand),
// the topology (a builder or a file), the switch (catalog or inline), links,
// MTU, forwarding, buffers, QoS (qos_section.h), load balancing, the
// RoCEv2 (roce_section.h) and InfiniBand (ib_section.h) settings and the
// RDMA transport. docs/scenario.md lists the fields.
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Reads `fabric` into s.topology, s.packet, s.transport, s.qos_classes and
// s.ib_routing. REQUIRES: s.seed and the cluster section already read.
void ReadFabric(const SectionContext& c, const MapReader& fabric, Scenario& s);

}  // namespace aifabric
