#include "server/topology_json.h"

#include <filesystem>

#include "report/output_folder.h"
#include "run/fabric_setup.h"

namespace aifabric {

nlohmann::ordered_json TopologyJson(const Topology& topology) {
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const Node& n : topology.nodes()) {
    nlohmann::ordered_json j;
    j["name"] = n.name;
    j["kind"] = n.kind == NodeKind::kHost ? "host" : "switch";
    j["tier"] = n.tier;
    j["server"] = n.server;
    j["rail"] = n.rail;
    j["pod"] = n.pod;
    nodes.push_back(std::move(j));
  }
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (size_t link = 0; link < topology.num_links(); ++link) {
    const Port& forward = topology.port(static_cast<PortId>(2 * link));
    nlohmann::ordered_json j;
    j["id"] = link;
    j["a"] = topology.node(forward.node).name;
    j["b"] = topology.node(forward.peer).name;
    j["rate_gbps"] = forward.rate.gbps();
    j["latency_ns"] = forward.latency.ns();
    links.push_back(std::move(j));
  }
  return nlohmann::ordered_json{{"nodes", std::move(nodes)}, {"links", std::move(links)}};
}

Status WriteRunTopology(const Scenario& scenario, const std::string& dir) {
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{dir + ": " + ec.message()};
  return WriteFileAtomically(dir + "/" + kRunTopologyFile, TopologyJson(*topology).dump() + "\n");
}

}  // namespace aifabric
