#include "observe/observed_topology.h"

#include "fabric/topology_builder.h"
#include "fabric/topology_spec.h"

namespace aifabric {

Result<Topology> ReadObservedTopology(const std::string& path, const std::string& format) {
  TopologySpec spec;
  if (format == "hpcc") {
    spec.type = TopologyType::kHpccFile;
  } else if (format == "lingjun") {
    spec.type = TopologyType::kLingjunFile;
  } else if (format == "ibnetdiscover") {
    spec.type = TopologyType::kIbnetdiscoverFile;
  } else {
    return Error{"--format: expected hpcc, lingjun or ibnetdiscover, got '" + format + "'"};
  }
  spec.file = path;
  spec.switch_spec.name = "observed";
  spec.switch_spec.port_rate = DataRate::Gbps(400);  // links a file gives no rate (see the header)
  spec.nic_rate = DataRate::Gbps(400);
  Result<Topology> topology = BuildTopology(spec);
  if (!topology.ok()) return Error{"--topology " + topology.error().message};
  if (topology->ports().empty()) return Error{"--topology " + path + ": the fabric has no links"};
  return topology;
}

}  // namespace aifabric
