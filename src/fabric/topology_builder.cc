#include "fabric/topology_builder.h"

#include <string>

#include "fabric/fat_tree_builder.h"
#include "fabric/hpcc_topology_reader.h"
#include "fabric/leaf_spine_builder.h"
#include "fabric/lingjun_topology_reader.h"
#include "fabric/rail_optimized_builder.h"

namespace aifabric {
namespace {

constexpr TopologyType kAllTypes[] = {TopologyType::kLeafSpine, TopologyType::kFatTree,
                                      TopologyType::kRailOptimized, TopologyType::kHpccFile,
                                      TopologyType::kLingjunFile};

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
      break;
  }
  if (spec.file.empty()) {
    return Error{std::string("fabric.topology.file: required for type ") + TopologyTypeName(spec.type)};
  }
  if (spec.type == TopologyType::kHpccFile) return ReadHpccTopologyFile(spec.file, spec.switch_spec);
  return ReadLingjunTopologyFile(spec);
}

const char* TopologyTypeName(TopologyType type) {
  switch (type) {
    case TopologyType::kLeafSpine: return "leaf_spine";
    case TopologyType::kFatTree: return "fat_tree";
    case TopologyType::kRailOptimized: return "rail_optimized";
    case TopologyType::kHpccFile: return "hpcc";
    case TopologyType::kLingjunFile: return "lingjun";
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
