#include "fabric/hpcc_topology_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/text_file.h"
#include "core/units.h"
#include "fabric/host_distance.h"

namespace aifabric {
namespace {

struct LinkLine {
  NodeId a, b;
  DataRate rate;
  Time delay;
};

}  // namespace

Result<Topology> ParseHpccTopology(std::string_view text, const std::string& origin,
                                   const SwitchSpec& switch_spec) {
  std::vector<TextLine> lines;
  for (const TextLine& l : SplitLines(text)) {
    if (!SplitWhitespace(l.text).empty()) lines.push_back(l);
  }
  auto at = [&origin](int line) { return FileLine(origin, line); };
  if (lines.empty()) return Error{at(1) + "expected 'nodes switches links' (three integers), got an empty file"};

  // Line 1: counts.
  const TextLine& header = lines[0];
  const auto counts = SplitWhitespace(header.text);
  int64_t nodes = 0, switches = 0, num_links = 0;
  if (counts.size() != 3 || !ParseInt64(counts[0], nodes) || !ParseInt64(counts[1], switches) ||
      !ParseInt64(counts[2], num_links)) {
    return Error{at(header.number) + "expected 'nodes switches links' (three integers), got " + Quote(header.text)};
  }
  if (nodes < 0 || switches < 0 || num_links < 0) {
    return Error{at(header.number) + "counts must be >= 0, got " + Quote(header.text)};
  }
  if (nodes > 10000000 || num_links > 100000000) {
    return Error{at(header.number) + "counts too large: " + Quote(header.text)};
  }
  if (switches > nodes) {
    return Error{at(header.number) + std::to_string(switches) + " switches declared, but only " +
                 std::to_string(nodes) + " nodes"};
  }
  const auto node_id = [&](std::string_view field, int line, const char* role, NodeId& out) -> std::optional<Error> {
    int64_t v;
    if (!ParseInt64(field, v)) return Error{at(line) + "expected a node id for the " + role + ", got " + Quote(field)};
    if (v < 0 || v >= nodes) {
      return Error{at(line) + std::string(role) + " node " + std::to_string(v) + ", but the file declares only " +
                   std::to_string(nodes) + " nodes (ids 0.." + std::to_string(nodes - 1) + ")"};
    }
    out = static_cast<NodeId>(v);
    return std::nullopt;
  };

  // Line 2: switch ids.
  std::vector<bool> is_switch(nodes, false);
  size_t next = 1;
  if (switches > 0) {
    if (next >= lines.size()) {
      return Error{at(header.number + 1) + "expected " + std::to_string(switches) + " switch ids, got end of file"};
    }
    const TextLine& line = lines[next++];
    const auto ids = SplitWhitespace(line.text);
    if (static_cast<int64_t>(ids.size()) != switches) {
      return Error{at(line.number) + "expected " + std::to_string(switches) + " switch ids (line 1), got " +
                   std::to_string(ids.size())};
    }
    for (std::string_view field : ids) {
      NodeId id;
      if (auto e = node_id(field, line.number, "switch", id)) return *e;
      if (is_switch[id]) return Error{at(line.number) + "duplicate switch id " + std::to_string(id)};
      is_switch[id] = true;
    }
  }

  // Then the links.
  std::vector<LinkLine> links;
  // No more than the lines left can hold: a short file declaring 10^8
  // links must not reserve gigabytes.
  links.reserve(std::min(static_cast<size_t>(num_links), lines.size() - next));
  for (; next < lines.size(); ++next) {
    const TextLine& line = lines[next];
    if (static_cast<int64_t>(links.size()) == num_links) {
      return Error{at(line.number) + "more links than the " + std::to_string(num_links) + " declared on line " +
                   std::to_string(header.number)};
    }
    const auto f = SplitWhitespace(line.text);
    if (f.size() != 4 && f.size() != 5) {
      return Error{at(line.number) + "expected 'src dst rate delay [error_rate]' (4 or 5 fields), got " +
                   std::to_string(f.size())};
    }
    LinkLine l;
    if (auto e = node_id(f[0], line.number, "link from", l.a)) return *e;
    if (auto e = node_id(f[1], line.number, "link to", l.b)) return *e;
    if (l.a == l.b) return Error{at(line.number) + "link from node " + std::to_string(l.a) + " to itself"};
    Result<DataRate> rate = ParseRate(f[2]);
    if (!rate) return Error{at(line.number) + "link rate: " + rate.error().message};
    l.rate = *rate;
    Result<Time> delay = ParseTime(f[3]);
    if (!delay) return Error{at(line.number) + "link delay: " + delay.error().message};
    l.delay = *delay;
    if (f.size() == 5) {
      const std::string e(f[4]);
      char* end = nullptr;
      const double error_rate = std::strtod(e.c_str(), &end);
      if (end == e.c_str() || *end != '\0' || !(error_rate >= 0 && error_rate <= 1)) {
        return Error{at(line.number) + "expected an error rate between 0 and 1 in field 5, got " + Quote(f[4])};
      }
    }
    links.push_back(l);
  }
  if (static_cast<int64_t>(links.size()) != num_links) {
    const int last = lines.back().number;
    return Error{at(last) + "the file ends after " + std::to_string(links.size()) + " links, but line " +
                 std::to_string(header.number) + " declares " + std::to_string(num_links)};
  }

  // Every node has a link: a node without one cannot send or forward, and
  // a 10-byte file declaring 10^7 nodes must not build them.
  std::vector<bool> linked(static_cast<size_t>(nodes), false);
  for (const LinkLine& l : links) linked[l.a] = linked[l.b] = true;
  if (auto lonely = std::find(linked.begin(), linked.end(), false); lonely != linked.end()) {
    return Error{at(header.number) + "node " + std::to_string(lonely - linked.begin()) + " of the " +
                 std::to_string(nodes) + " declared has no link"};
  }

  Topology t;
  const int spec = t.AddSwitchSpec(switch_spec);
  int host_count = 0;
  for (NodeId n = 0; n < nodes; ++n) {
    if (is_switch[n]) {
      t.AddSwitch("sw" + std::to_string(n), -1, spec);
    } else {
      t.AddHost("h" + std::to_string(n), host_count++, 0);
    }
  }
  for (const LinkLine& l : links) t.AddLink(l.a, l.b, l.rate, l.delay);
  SetTiersFromHostDistance(t);
  return t;
}

Result<Topology> ReadHpccTopologyFile(const std::string& path, const SwitchSpec& switch_spec) {
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  return ParseHpccTopology(*text, path, switch_spec);
}

std::string WriteHpccTopology(const Topology& topology) {
  std::string out;
  const std::vector<NodeId> switches = topology.switches();
  out += std::to_string(topology.num_nodes()) + " " + std::to_string(switches.size()) + " " +
         std::to_string(topology.num_links()) + "\n";
  for (size_t i = 0; i < switches.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(switches[i]);
  }
  out += "\n";
  char buf[64];
  for (size_t p = 0; p < topology.ports().size(); p += 2) {
    const Port& port = topology.ports()[p];
    std::snprintf(buf, sizeof buf, "%.12g", port.rate.gbps());
    out += std::to_string(port.node) + " " + std::to_string(port.peer) + " " + buf + "Gbps ";
    std::snprintf(buf, sizeof buf, "%.12g", port.latency.ns_f());
    out += std::string(buf) + "ns 0\n";
  }
  return out;
}

}  // namespace aifabric
