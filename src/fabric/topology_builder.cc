#include "fabric/topology_builder.h"

#include <string>

#include "fabric/fat_tree_builder.h"
#include "core/text_file.h"
#include "fabric/hpcc_topology_reader.h"
#include "fabric/ibnetdiscover_reader.h"
#include "fabric/leaf_spine_builder.h"
#include "fabric/lingjun_topology_reader.h"
#include "fabric/rail_optimized_builder.h"

namespace aifabric {
namespace {

constexpr TopologyType kAllTypes[] = {TopologyType::kLeafSpine, TopologyType::kFatTree,
                                      TopologyType::kRailOptimized, TopologyType::kHpccFile,
                                      TopologyType::kLingjunFile, TopologyType::kIbnetdiscoverFile};

// An ibnetdiscover dump (or ibsim net file): links without a width x speed
// run at the switch spec's port rate; the LIDs it shows are not kept (the
// run assigns its own, run/ib_routes.h).
Result<Topology> ReadIbnetdiscoverFile(const TopologySpec& spec) {
  Result<std::string> text = ReadTextFile(spec.file);
  if (!text.ok()) return text.error();
  IbnetdiscoverOptions options;
  options.default_rate = spec.switch_spec.port_rate;
  options.link_latency = spec.link_latency;
  options.switch_spec = spec.switch_spec;
  Result<IbFabric> fabric = ReadIbnetdiscover(*text, spec.file, options);
  if (!fabric.ok()) return fabric.error();
  return std::move(fabric->topology);
}

}  // namespace

Result<Topology> BuildTopology(const TopologySpec& spec) {
  switch (spec.type) {
    case TopologyType::kLeafSpine:
      return BuildLeafSpine(spec);
    case TopologyType::kFatTree:
      return BuildFatTree(spec);
    case TopologyType::kRailOptimized:
      return BuildRailOptimized(spec);
    case TopologyType::kHpccFile:
    case TopologyType::kLingjunFile:
    case TopologyType::kIbnetdiscoverFile:
      break;
  }
  if (spec.file.empty()) {
    return Error{std::string("fabric.topology.file: required for type ") + TopologyTypeName(spec.type)};
  }
  if (spec.type == TopologyType::kHpccFile) return ReadHpccTopologyFile(spec.file, spec.switch_spec);
  if (spec.type == TopologyType::kIbnetdiscoverFile) return ReadIbnetdiscoverFile(spec);
  return ReadLingjunTopologyFile(spec);
}

const char* TopologyTypeName(TopologyType type) {
  switch (type) {
    case TopologyType::kLeafSpine: return "leaf_spine";
    case TopologyType::kFatTree: return "fat_tree";
    case TopologyType::kRailOptimized: return "rail_optimized";
    case TopologyType::kHpccFile: return "hpcc";
    case TopologyType::kLingjunFile: return "lingjun";
    case TopologyType::kIbnetdiscoverFile: return "ibnetdiscover";
  }
  return "unknown";
}

Result<TopologyType> ParseTopologyType(std::string_view name) {
  std::string names;
  for (TopologyType t : kAllTypes) {
    if (name == TopologyTypeName(t)) return t;
    names += std::string(names.empty() ? "" : ", ") + TopologyTypeName(t);
  }
  return Error{"expected a topology type (" + names + "), got '" + std::string(name) + "'"};
}

}  // namespace aifabric
