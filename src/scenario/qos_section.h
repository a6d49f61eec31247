// fabric.qos: strict-priority queues, DWRR weights and named traffic
// classes (each on a priority, strict or weighted, lossless or lossy).
#pragma once

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// fabric.qos.strict (and fabric.roce.pfc.lossless): a list of distinct
// priorities 0..7, each marked in packet.queues[p].strict.
void ReadStrict(const SectionContext& c, const YAML::Node& list, const std::string& path, PacketConfig& packet);

// Reads `qos` into s.packet's queues and PFC mask and s.qos_classes, and
// fills c.classes by name.
void ReadQos(const SectionContext& c, const MapReader& qos, Scenario& s);

}  // namespace aifabric
