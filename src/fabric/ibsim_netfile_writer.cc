#include "fabric/ibsim_netfile_writer.h"

#include <cinttypes>
#include <cstdio>
#include <set>

namespace aifabric {
namespace {

bool SuitsIbsim(const std::string& name) {
  if (name.empty() || name.size() > 40) return false;
  for (char c : name) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '#' || c == '@') return false;
  }
  return true;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

}  // namespace

std::vector<std::string> IbsimNodeIds(const Topology& topology) {
  std::set<std::string> seen, taken;
  for (const Node& n : topology.nodes()) {
    if (!seen.insert(n.name).second) taken.insert(n.name);  // duplicates
  }
  std::vector<std::string> ids;
  ids.reserve(topology.num_nodes());
  std::set<std::string> used;
  for (const Node& n : topology.nodes()) {
    std::string id = n.name;
    if (!SuitsIbsim(id) || taken.count(id)) id = "node" + std::to_string(n.id);
    while (!used.insert(id).second) id += "_";
    ids.push_back(std::move(id));
  }
  return ids;
}

std::string WriteIbsimNetFile(const Topology& topology) {
  return WriteIbsimNetFile(topology, IbLidMap::ForTopology(topology));
}

std::string WriteIbsimNetFile(const Topology& topology, const IbLidMap& map) {
  const std::vector<std::string> ids = IbsimNodeIds(topology);
  std::string out = "# aifabric fabric: " + std::to_string(topology.hosts().size()) + " hosts, " +
                    std::to_string(topology.num_nodes() - topology.hosts().size()) + " switches, " +
                    std::to_string(topology.num_links()) + " links (ibsim net file)\n\n";
  auto write_node = [&](const Node& n) {
    const bool is_switch = n.kind == NodeKind::kSwitch;
    out += is_switch ? "switchguid=" : "caguid=";
    out += Hex(map.node_guid(n.id));
    out += '\n';
    out += is_switch ? "Switch\t" : "Hca\t";
    out += std::to_string(std::max(1, map.MaxIbPort(n.id)));
    out += " \"";
    out += ids[n.id];
    out += "\"\t# \"";
    out += ids[n.id];
    out += "\"\n";
    for (int ib = 1; ib <= map.MaxIbPort(n.id); ++ib) {
      const PortId p = map.PortAt(n.id, ib);
      if (p == kNoPort) continue;
      const Port& port = topology.port(p);
      out += '[';
      out += std::to_string(ib);
      out += "]\t\"";
      out += ids[port.peer];
      out += "\"[";
      out += std::to_string(map.IbPort(port.reverse()));
      out += "]\t# \"";
      out += ids[port.peer];
      out += '"';
      const std::string rate = IbLinkRateName(port.rate);
      if (!rate.empty()) {
        out += " lid 0 ";
        out += rate;
      }
      out += '\n';
    }
    out += '\n';
  };
  for (NodeId h : topology.hosts()) write_node(topology.node(h));
  for (const Node& n : topology.nodes()) {
    if (n.kind == NodeKind::kSwitch) write_node(n);
  }
  return out;
}

}  // namespace aifabric
