#include "fabric/ibnetdiscover_reader.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/text_file.h"
#include "fabric/host_distance.h"

namespace aifabric {
namespace {

struct RawPort {
  int port = 0;
  std::string peer_id;
  int peer_port = 0;
  uint64_t port_guid = 0;    // CA ports: "(guid)" after the local port
  bool has_port_guid = false;
  std::optional<DataRate> rate;
  int64_t own_lid = 0;       // CA ports: "# lid N" before the peer's description
  int line = 0;
};

struct RawNode {
  bool is_switch = false;
  std::string id;
  std::string desc;
  int num_ports = 0;
  uint64_t guid = 0;
  bool has_guid = false;
  int64_t lid = 0;           // switches: "port 0 lid N"
  int line = 0;
  std::vector<RawPort> ports;
};

// A cursor over one line, for the small grammar above.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  void SkipSpace() {
    while (!s_.empty() && (s_.front() == ' ' || s_.front() == '\t')) s_.remove_prefix(1);
  }
  bool Eat(char c) {
    if (s_.empty() || s_.front() != c) return false;
    s_.remove_prefix(1);
    return true;
  }
  bool Int(int64_t& out) {
    size_t n = 0;
    while (n < s_.size() && std::isdigit(static_cast<unsigned char>(s_[n]))) ++n;
    if (n == 0 || n > 9 || !ParseInt64(s_.substr(0, n), out)) return false;
    s_.remove_prefix(n);
    return true;
  }
  // Text up to (not including) `end`, which is consumed.
  bool Until(char end, std::string_view& out) {
    const size_t at = s_.find(end);
    if (at == std::string_view::npos) return false;
    out = s_.substr(0, at);
    s_.remove_prefix(at + 1);
    return true;
  }
  // "(hex)" if present.
  bool OptionalGuid(uint64_t& out, bool& present, bool& ok) {
    present = false;
    ok = true;
    if (!Eat('(')) return true;
    std::string_view hex;
    present = true;
    ok = Until(')', hex) && ParseIbHex(hex, out);
    return ok;
  }
  std::string_view rest() const { return s_; }

 private:
  std::string_view s_;
};

// "S-0002c903004ae1c0" / "H-..." / "R-...": the GUID in an ibnetdiscover id.
bool GuidFromId(std::string_view id, uint64_t& guid) {
  if (id.size() < 3 || id[1] != '-' || (id[0] != 'S' && id[0] != 'H' && id[0] != 'R')) return false;
  return ParseIbHex(id.substr(2), guid);
}

// The number after the first "lid " in `s`; 0 if none.
int64_t LidAfter(std::string_view s) {
  const size_t at = s.find("lid ");
  if (at == std::string_view::npos) return 0;
  Cursor c(s.substr(at + 4));
  c.SkipSpace();
  int64_t lid = 0;
  return c.Int(lid) ? lid : 0;
}

// A "4xHDR"-looking token among the words of `s` (the last one), or empty.
std::string_view RateToken(std::string_view s) {
  std::string_view found;
  for (std::string_view w : SplitWhitespace(s)) {
    const size_t x = w.find('x');
    if (x == 0 || x == std::string_view::npos || x + 1 >= w.size()) continue;
    bool digits = true;
    for (size_t i = 0; i < x; ++i) digits &= std::isdigit(static_cast<unsigned char>(w[i])) != 0;
    if (digits && std::isupper(static_cast<unsigned char>(w[x + 1]))) found = w;
  }
  return found;
}

class Parser {
 public:
  explicit Parser(const std::string& origin) : origin_(origin) {}

  std::optional<Error> Line(const TextLine& line) {
    std::string_view text = line.text;
    Cursor trimmed(text);
    trimmed.SkipSpace();
    text = trimmed.rest();
    if (text.empty() || text.front() == '#') return std::nullopt;
    if (text.starts_with("switchguid") || text.starts_with("caguid") || text.starts_with("hcaguids")) {
      return GuidLine(line, text);
    }
    if (text.starts_with("Switch")) return Header(line, text.substr(6), true);
    if (text.starts_with("Hca")) return Header(line, text.substr(3), false);
    if (text.starts_with("Ca")) return Header(line, text.substr(2), false);
    if (text.starts_with("Rt")) return Err(line, "IB routers ('Rt' blocks) are not supported");
    if (text.front() == '[') return PortLine(line, text);
    const size_t eq = text.find('=');
    if (eq != std::string_view::npos && eq > 0 && text.substr(0, eq).find_first_of(" \t\"") == std::string_view::npos) {
      return std::nullopt;  // vendid=, devid=, sysimgguid=, ...: not needed
    }
    return Err(line, "expected a 'Switch' or 'Ca' header, a '[port]' line or 'key=value', got " + Quote(line.text));
  }

  std::vector<RawNode>& nodes() { return nodes_; }

 private:
  Error Err(const TextLine& line, const std::string& what) const { return Error{FileLine(origin_, line.number) + what}; }

  std::optional<Error> GuidLine(const TextLine& line, std::string_view text) {
    Cursor c(text);
    std::string_view key;
    c.Until('=', key);
    std::string_view value = c.rest();
    value = value.substr(0, std::min(value.find('('), value.find_first_of(" \t")));
    if (!ParseIbHex(value, pending_guid_)) {
      return Err(line, "expected a hex GUID after '" + std::string(key) + "=', got " + Quote(value));
    }
    has_pending_guid_ = true;
    return std::nullopt;
  }

  std::optional<Error> Header(const TextLine& line, std::string_view rest, bool is_switch) {
    RawNode n;
    n.is_switch = is_switch;
    n.line = line.number;
    Cursor c(rest);
    c.SkipSpace();
    int64_t ports = 0;
    std::string_view id;
    if (!c.Int(ports) || (c.SkipSpace(), !c.Eat('"')) || !c.Until('"', id) || id.empty()) {
      return Err(line, std::string("expected '") + (is_switch ? "Switch" : "Ca") +
                           " <ports> \"<id>\"', got " + Quote(line.text));
    }
    if (ports < 1 || ports > 255) return Err(line, "a node has 1..255 ports, got " + std::to_string(ports));
    n.num_ports = static_cast<int>(ports);
    n.id = std::string(id);
    std::string_view comment = c.rest();
    const size_t hash = comment.find('#');
    comment = hash == std::string_view::npos ? std::string_view() : comment.substr(hash + 1);
    Cursor cc(comment);
    cc.SkipSpace();
    std::string_view desc;
    if (cc.Eat('"')) {
      if (!cc.Until('"', desc)) return Err(line, "unterminated node description in " + Quote(line.text));
    }
    n.desc = std::string(desc);
    if (is_switch) n.lid = LidAfter(cc.rest());
    if (has_pending_guid_) {
      n.guid = pending_guid_;
      n.has_guid = true;
    } else {
      n.has_guid = GuidFromId(n.id, n.guid);
    }
    has_pending_guid_ = false;
    if (index_.count(n.id)) {
      return Err(line, "node \"" + n.id + "\" is described twice (first on line " +
                           std::to_string(nodes_[index_[n.id]].line) + ")");
    }
    index_[n.id] = nodes_.size();
    nodes_.push_back(std::move(n));
    return std::nullopt;
  }

  std::optional<Error> PortLine(const TextLine& line, std::string_view text) {
    if (nodes_.empty()) return Err(line, "a '[port]' line before any 'Switch' or 'Ca' header");
    RawNode& n = nodes_.back();
    RawPort p;
    p.line = line.number;
    Cursor c(text);
    int64_t port = 0, peer_port = 0;
    std::string_view peer;
    const std::string expected = "expected '[<port>] \"<peer id>\"[<peer port>]', got " + Quote(line.text);
    bool present = false, ok = true;
    if (!c.Eat('[') || !c.Int(port) || !c.Eat(']')) return Err(line, expected);
    c.OptionalGuid(p.port_guid, present, ok);
    if (!ok) return Err(line, "expected '(<hex port guid>)' after the port number in " + Quote(line.text));
    p.has_port_guid = present;
    c.SkipSpace();
    if (!c.Eat('"') || !c.Until('"', peer) || peer.empty() || !c.Eat('[') || !c.Int(peer_port) || !c.Eat(']')) {
      return Err(line, expected);
    }
    uint64_t ignored = 0;
    c.OptionalGuid(ignored, present, ok);
    if (!ok) return Err(line, "expected '(<hex port guid>)' after the peer port in " + Quote(line.text));
    if (port < 1 || port > n.num_ports) {
      return Err(line, "port " + std::to_string(port) + " of \"" + n.id + "\", which has ports 1.." +
                           std::to_string(n.num_ports) + " (line " + std::to_string(n.line) + ")");
    }
    if (peer_port < 1 || peer_port > 255) return Err(line, "peer port must be 1..255, got " + std::to_string(peer_port));
    for (const RawPort& other : n.ports) {
      if (other.port == port) {
        return Err(line, "port " + std::to_string(port) + " of \"" + n.id + "\" is listed twice (line " +
                             std::to_string(other.line) + ")");
      }
    }
    p.port = static_cast<int>(port);
    p.peer_id = std::string(peer);
    p.peer_port = static_cast<int>(peer_port);
    std::string_view comment = c.rest();
    const size_t hash = comment.find('#');
    comment = hash == std::string_view::npos ? std::string_view() : comment.substr(hash + 1);
    if (!n.is_switch) p.own_lid = LidAfter(comment.substr(0, comment.find('"')));
    const size_t last_quote = comment.rfind('"');
    const std::string_view token = RateToken(last_quote == std::string_view::npos ? comment : comment.substr(last_quote + 1));
    if (!token.empty()) {
      Result<DataRate> rate = ParseIbLinkRate(token);
      if (!rate) return Err(line, rate.error().message);
      p.rate = *rate;
    }
    n.ports.push_back(std::move(p));
    return std::nullopt;
  }

  const std::string& origin_;
  std::vector<RawNode> nodes_;
  std::unordered_map<std::string, size_t> index_;
  uint64_t pending_guid_ = 0;
  bool has_pending_guid_ = false;
};

}  // namespace

Result<IbFabric> ReadIbnetdiscover(std::string_view text, const std::string& origin,
                                   const IbnetdiscoverOptions& options) {
  Parser parser(origin);
  int last_line = 1;
  for (const TextLine& line : SplitLines(text)) {
    last_line = line.number;
    if (std::optional<Error> e = parser.Line(line)) return *e;
  }
  std::vector<RawNode>& nodes = parser.nodes();
  if (nodes.empty()) return Error{FileLine(origin, last_line) + "expected at least one 'Switch' or 'Ca' block"};

  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i].id] = static_cast<int>(i);
  // Each (node, port) pair's peer, filled from both ends.
  struct End {
    int node, port;
    auto operator<=>(const End&) const = default;
  };
  struct LinkEnds {
    End a, b;
    std::optional<DataRate> rate;
    int line = 0;  // where it was first listed
  };
  std::map<End, std::pair<End, int>> peer_of;  // end -> (peer end, line that said so)
  std::vector<LinkEnds> links;
  std::map<End, size_t> link_of;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const RawPort& p : nodes[i].ports) {
      auto it = index.find(p.peer_id);
      if (it == index.end()) {
        return Error{FileLine(origin, p.line) + "peer \"" + p.peer_id + "\" is not described in the file"};
      }
      const End self{static_cast<int>(i), p.port}, peer{it->second, p.peer_port};
      if (peer.node == self.node) return Error{FileLine(origin, p.line) + "a link from \"" + p.peer_id + "\" to itself"};
      if (peer.port > nodes[peer.node].num_ports) {
        return Error{FileLine(origin, p.line) + "peer port " + std::to_string(peer.port) + " of \"" + p.peer_id +
                     "\", which has ports 1.." + std::to_string(nodes[peer.node].num_ports)};
      }
      auto back = peer_of.find(peer);
      if (back != peer_of.end() && !(back->second.first == self)) {
        const End other = back->second.first;
        return Error{FileLine(origin, p.line) + "\"" + nodes[i].id + "\"[" + std::to_string(p.port) + "] says it links to \"" +
                     p.peer_id + "\"[" + std::to_string(peer.port) + "], but line " + std::to_string(back->second.second) +
                     " links that port to \"" + nodes[other.node].id + "\"[" + std::to_string(other.port) + "]"};
      }
      peer_of[self] = {peer, p.line};
      auto existing = link_of.find(peer);
      if (existing != link_of.end()) {
        LinkEnds& l = links[existing->second];
        const End other = l.a == peer ? l.b : l.a;
        if (!(other == self)) {
          return Error{FileLine(origin, p.line) + "\"" + p.peer_id + "\"[" + std::to_string(peer.port) +
                       "] is already linked to \"" + nodes[other.node].id + "\"[" + std::to_string(other.port) +
                       "] (line " + std::to_string(l.line) + ")"};
        }
        if (p.rate) l.rate = l.rate ? Min(*l.rate, *p.rate) : *p.rate;
        continue;
      }
      if (auto mine = link_of.find(self); mine != link_of.end()) {
        const LinkEnds& l = links[mine->second];
        const End other = l.a == self ? l.b : l.a;
        return Error{FileLine(origin, p.line) + "\"" + nodes[i].id + "\"[" + std::to_string(p.port) +
                     "] is listed on line " + std::to_string(l.line) + " as linked to \"" + nodes[other.node].id +
                     "\"[" + std::to_string(other.port) + "]"};
      }
      link_of[self] = links.size();
      link_of[peer] = links.size();
      links.push_back({self, peer, p.rate, p.line});
    }
  }

  // Node order: CAs then switches, each by GUID (nodes without one last, in
  // file order).
  std::vector<int> order(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const RawNode& x = nodes[a];
    const RawNode& y = nodes[b];
    if (x.is_switch != y.is_switch) return !x.is_switch;
    if (x.has_guid != y.has_guid) return x.has_guid;
    return x.has_guid && x.guid < y.guid;
  });
  std::unordered_map<uint64_t, int> guid_seen;
  for (int i : order) {
    if (!nodes[i].has_guid) continue;
    auto [it, inserted] = guid_seen.emplace(nodes[i].guid, i);
    if (!inserted) {
      return Error{FileLine(origin, nodes[i].line) + "node \"" + nodes[i].id + "\" has the same GUID as \"" +
                   nodes[it->second].id + "\" (line " + std::to_string(nodes[it->second].line) + ")"};
    }
  }
  std::vector<NodeId> id_of(nodes.size());
  for (size_t k = 0; k < order.size(); ++k) id_of[order[k]] = static_cast<NodeId>(k);

  std::unordered_map<std::string, int> desc_count;
  for (const RawNode& n : nodes) {
    if (!n.desc.empty()) ++desc_count[n.desc];
  }

  IbFabric fabric;
  Topology& t = fabric.topology;
  const int spec = t.AddSwitchSpec(options.switch_spec);
  int host_count = 0;
  for (int i : order) {
    const RawNode& n = nodes[i];
    std::string name = !n.desc.empty() && desc_count[n.desc] == 1 ? n.desc : n.id;
    if (n.is_switch) {
      t.AddSwitch(std::move(name), -1, spec);
    } else {
      t.AddHost(std::move(name), host_count, 0);
      ++host_count;
    }
  }
  // Links in node order, each node's ports by IB port number, so a node's
  // `ports` list follows its IB port numbers where it created the link.
  std::vector<LinkId> link_id(links.size(), -1);
  std::vector<std::vector<std::pair<int, size_t>>> by_node(nodes.size());  // (port, link)
  for (size_t k = 0; k < links.size(); ++k) {
    by_node[links[k].a.node].push_back({links[k].a.port, k});
    by_node[links[k].b.node].push_back({links[k].b.port, k});
  }
  for (int i : order) {
    std::sort(by_node[i].begin(), by_node[i].end());
    for (auto [port, k] : by_node[i]) {
      if (link_id[k] >= 0) continue;
      const LinkEnds& l = links[k];
      const End& self = l.a.node == i && l.a.port == port ? l.a : l.b;
      const End& other = &self == &l.a ? l.b : l.a;
      link_id[k] = t.AddLink(id_of[self.node], id_of[other.node], l.rate.value_or(options.default_rate),
                             options.link_latency);
    }
  }
  SetTiersFromHostDistance(t);

  IbLidMap& map = fabric.lids;
  map = IbLidMap::Empty(t);
  for (size_t k = 0; k < links.size(); ++k) {
    const PortId forward = 2 * link_id[k];
    const Port& fp = t.port(forward);
    const End& at_sender = id_of[links[k].a.node] == fp.node ? links[k].a : links[k].b;
    const End& at_receiver = &at_sender == &links[k].a ? links[k].b : links[k].a;
    map.SetIbPort(t, forward, at_sender.port);
    map.SetIbPort(t, forward + 1, at_receiver.port);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const RawNode& n = nodes[i];
    const NodeId id = id_of[i];
    if (n.has_guid) map.SetNodeGuid(id, n.guid);
    if (n.is_switch && n.lid > 0) {
      if (n.lid > 0xFFFF) return Error{FileLine(origin, n.line) + "LID " + std::to_string(n.lid) + " is too large"};
      if (Status s = map.SetLid(static_cast<uint16_t>(n.lid), {id, 0}); !s) {
        return Error{FileLine(origin, n.line) + s.error().message};
      }
    }
    if (n.is_switch) continue;
    for (const RawPort& p : n.ports) {
      if (p.has_port_guid) {
        map.SetPortGuid({id, p.port}, p.port_guid);
      } else if (n.has_guid) {
        map.SetPortGuid({id, p.port}, n.guid + static_cast<uint64_t>(p.port));  // ibsim's rule
      }
      if (p.own_lid > 0) {
        if (p.own_lid > 0xFFFF) return Error{FileLine(origin, p.line) + "LID " + std::to_string(p.own_lid) + " is too large"};
        if (Status s = map.SetLid(static_cast<uint16_t>(p.own_lid), {id, p.port}); !s) {
          return Error{FileLine(origin, p.line) + s.error().message};
        }
      }
    }
  }
  return fabric;
}

}  // namespace aifabric
