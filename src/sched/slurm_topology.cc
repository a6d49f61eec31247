#include "sched/slurm_topology.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>
#include <tuple>

namespace aifabric {
namespace {

// A name split as prefix + trailing decimal number (digits = 0: no number).
struct SplitName {
  std::string prefix;
  int digits = 0;
  uint64_t number = 0;
  std::string whole;
};

SplitName Split(const std::string& name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  // Very long digit runs would overflow; treat the name as having no number.
  if (name.size() - i > 18) i = name.size();
  SplitName s;
  s.prefix = name.substr(0, i);
  s.whole = name;
  s.digits = static_cast<int>(name.size() - i);
  for (size_t k = i; k < name.size(); ++k) s.number = s.number * 10 + static_cast<uint64_t>(name[k] - '0');
  return s;
}

std::string Padded(uint64_t n, int digits) {
  std::string s = std::to_string(n);
  if (static_cast<int>(s.size()) < digits) s.insert(0, static_cast<size_t>(digits) - s.size(), '0');
  return s;
}

bool ValidSlurmName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '=' || c == '#') return false;
  }
  return true;
}

}  // namespace

Status NodeNamer::Validate() const {
  if (prefix.empty()) return Error{"node namer: prefix is empty; expected lowercase letters, digits and '-'"};
  for (char c : prefix) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) {
      return Error{"node namer: prefix \"" + prefix + "\" holds '" + std::string(1, c) +
                   "'; expected lowercase letters, digits and '-'"};
    }
  }
  if (prefix.front() == '-') return Error{"node namer: prefix \"" + prefix + "\" starts with '-'; expected a letter or digit"};
  if (prefix.back() >= '0' && prefix.back() <= '9') {
    return Error{"node namer: prefix \"" + prefix + "\" ends in a digit; expected it to end in a letter or '-'"};
  }
  if (digits < 1 || digits > 9) return Error{"node namer: digits is " + std::to_string(digits) + "; expected 1 to 9"};
  if (first_number < 0) return Error{"node namer: first_number is " + std::to_string(first_number) + "; expected >= 0"};
  return Status::Ok();
}

std::string NodeNamer::Name(int server) const {
  assert(server >= 0);
  return prefix + Padded(static_cast<uint64_t>(server) + static_cast<uint64_t>(first_number), digits);
}

std::string CompressHostlist(const std::vector<std::string>& names) {
  std::vector<SplitName> split;
  split.reserve(names.size());
  for (const std::string& n : names) split.push_back(Split(n));
  // Zero-padded widths seen per prefix ("n08": width 2).
  std::set<std::pair<std::string, int>> padded;
  for (const SplitName& s : split) {
    if (s.digits > 1 && s.whole[s.prefix.size()] == '0') padded.insert({s.prefix, s.digits});
  }
  // (prefix, width) -> numbers; width 0 = unpadded. An unpadded number joins
  // a padded group of its own digit count ("n10" with "n08", "n09").
  std::map<std::pair<std::string, int>, std::set<uint64_t>> groups;
  for (const SplitName& s : split) {
    if (s.digits == 0) {
      groups[{s.whole, -1}];  // no number: the key is the whole name
    } else if (padded.count({s.prefix, s.digits})) {
      groups[{s.prefix, s.digits}].insert(s.number);
    } else {
      groups[{s.prefix, 0}].insert(s.number);
    }
  }
  std::string out;
  for (const auto& [key, numbers] : groups) {
    if (!out.empty()) out += ',';
    const auto& [prefix, digits] = key;
    out += prefix;
    if (digits < 0) continue;
    if (numbers.size() == 1) {
      out += Padded(*numbers.begin(), digits);
      continue;
    }
    out += '[';
    bool first = true;
    for (auto it = numbers.begin(); it != numbers.end();) {
      const uint64_t lo = *it;
      uint64_t hi = lo;
      ++it;
      while (it != numbers.end() && *it == hi + 1) hi = *it++;
      if (!first) out += ',';
      first = false;
      out += Padded(lo, digits);
      if (hi != lo) out += '-' + Padded(hi, digits);
    }
    out += ']';
  }
  return out;
}

Result<std::vector<NodeId>> ServerHomeLeaves(const Topology& topology, const ClusterLayout& layout) {
  std::vector<NodeId> leaves(static_cast<size_t>(layout.servers()), kNoNode);
  for (int s = 0; s < layout.servers(); ++s) {
    const NodeId nic = layout.nics(s).front();
    for (PortId p : topology.node(nic).ports) {
      const NodeId peer = topology.port(p).peer;
      if (topology.node(peer).kind == NodeKind::kSwitch) {
        leaves[static_cast<size_t>(s)] = peer;
        break;
      }
    }
    if (leaves[static_cast<size_t>(s)] == kNoNode) {
      return Error{"topology: host \"" + topology.node(nic).name + "\" (server " + std::to_string(s) +
                   ", rail 0) links to no switch; every server must attach to a switch"};
    }
  }
  return leaves;
}

Result<std::vector<SlurmSwitchLine>> BuildSlurmTree(const Topology& topology, const ClusterLayout& layout,
                                                    const SlurmTopologyOptions& options) {
  if (Status st = options.namer.Validate(); !st.ok()) return st.error();
  Result<std::vector<NodeId>> home = ServerHomeLeaves(topology, layout);
  if (!home.ok()) return home.error();

  // Switches in output order: tier, then id.
  std::vector<NodeId> switches = topology.switches();
  for (NodeId sw : switches) {
    const Node& n = topology.node(sw);
    if (!ValidSlurmName(n.name)) {
      return Error{"topology: switch " + std::to_string(sw) + " is named \"" + n.name +
                   "\"; expected a non-empty name without spaces, ',', '[', ']', '=' or '#'"};
    }
    if (n.tier < 1) {
      return Error{"topology: switch \"" + n.name + "\" has tier " + std::to_string(n.tier) +
                   "; expected 1 (leaf), 2 (spine) or 3 (core)"};
    }
  }
  std::stable_sort(switches.begin(), switches.end(),
                   [&](NodeId a, NodeId b) { return std::tie(topology.node(a).tier, a) < std::tie(topology.node(b).tier, b); });

  std::map<NodeId, std::vector<int>> servers_of;  // home leaf -> servers
  for (int s = 0; s < layout.servers(); ++s) servers_of[(*home)[static_cast<size_t>(s)]].push_back(s);

  std::vector<int> server_of_nic(topology.num_nodes(), -1);  // by NodeId
  for (int s = 0; s < layout.servers(); ++s) {
    for (NodeId nic : layout.nics(s)) server_of_nic[static_cast<size_t>(nic)] = s;
  }

  std::vector<SlurmSwitchLine> lines;
  std::set<NodeId> listed;
  for (NodeId sw : switches) {
    const Node& n = topology.node(sw);
    SlurmSwitchLine line;
    line.node = sw;
    line.name = n.name;
    line.tier = n.tier;
    uint64_t fastest_bps = 0;
    if (auto it = servers_of.find(sw); it != servers_of.end()) {
      for (int s : it->second) line.nodes.push_back(options.namer.Name(s));
    }
    std::set<NodeId> children;
    for (PortId p : n.ports) {
      const Port& port = topology.port(p);
      const Node& peer = topology.node(port.peer);
      bool child = false;
      if (peer.kind == NodeKind::kHost) {
        const int s = server_of_nic[static_cast<size_t>(peer.id)];
        child = s >= 0 && (*home)[static_cast<size_t>(s)] == sw;
      } else if (peer.tier < n.tier && listed.count(peer.id)) {
        child = true;
        children.insert(peer.id);
      }
      if (child) fastest_bps = std::max<uint64_t>(fastest_bps, port.rate.bps());
    }
    for (NodeId c : children) line.switches.push_back(topology.node(c).name);
    if (line.nodes.empty() && line.switches.empty()) continue;  // nothing to list: left out
    line.link_speed_gbps = static_cast<int>(fastest_bps / 1000000000ull);
    listed.insert(sw);
    lines.push_back(std::move(line));
  }
  return lines;
}

Result<std::string> FormatSlurmTopologyConf(const Topology& topology, const ClusterLayout& layout,
                                            const SlurmTopologyOptions& options) {
  Result<std::vector<SlurmSwitchLine>> lines = BuildSlurmTree(topology, layout, options);
  if (!lines.ok()) return lines.error();
  std::string out;
  if (options.header) {
    out += "# topology.conf for Slurm's topology/tree plugin, written by aifabric (" +
           std::to_string(layout.servers()) + " servers, " + std::to_string(lines->size()) + " switches)\n";
  }
  for (const SlurmSwitchLine& l : *lines) {
    out += "SwitchName=" + l.name;
    if (!l.nodes.empty()) out += " Nodes=" + CompressHostlist(l.nodes);
    if (!l.switches.empty()) out += " Switches=" + CompressHostlist(l.switches);
    if (options.link_speed) out += " LinkSpeed=" + std::to_string(l.link_speed_gbps);
    out += '\n';
  }
  return out;
}

}  // namespace aifabric
