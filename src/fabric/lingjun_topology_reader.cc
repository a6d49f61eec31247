#include "fabric/lingjun_topology_reader.h"

#include "fabric/clos_sizing.h"

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/units.h"
#include "core/text_file.h"

namespace aifabric {
namespace {

// Distinct keys numbered in order of first appearance.
template <typename Key>
class Interner {
 public:
  int Intern(const Key& key) {
    auto [it, added] = index_.emplace(key, static_cast<int>(keys_.size()));
    if (added) keys_.push_back(key);
    return it->second;
  }
  const std::vector<Key>& keys() const { return keys_; }
  size_t size() const { return keys_.size(); }

 private:
  std::map<Key, int> index_;
  std::vector<Key> keys_;
};

struct Row {
  std::string ip;
  int tor = 0;
};

}  // namespace

Result<Topology> ParseLingjunTopology(std::string_view text, const std::string& origin, const TopologySpec& spec) {
  if (spec.nic_rate.IsZero()) return Error{"cluster.nic.rate: must be > 0"};
  if (spec.switch_spec.port_rate.IsZero()) return Error{"fabric.switch.port_rate: must be > 0"};
  if (spec.link_latency < Time::Zero()) return Error{"fabric.link.latency: must be >= 0"};
  auto at = [&origin](int line) { return FileLine(origin, line); };

  const std::vector<TextLine> lines = SplitLines(text);
  const std::string_view expected_header = "ip,DSW,PSW,ASW";
  if (lines.empty()) return Error{at(1) + "expected the header '" + std::string(expected_header) + "', got an empty file"};
  {
    const auto cols = SplitTrimmed(lines[0].text, ',');
    if (cols.size() != 4 || cols[0] != "ip" || cols[1] != "DSW" || cols[2] != "PSW" || cols[3] != "ASW") {
      return Error{at(1) + "expected the header '" + std::string(expected_header) + "', got '" +
                   std::string(lines[0].text) + "'"};
    }
  }

  Interner<std::string> dsws, psws;
  Interner<std::pair<int, std::string>> tors;  // (PSW index, ASW label)
  Interner<std::pair<int, int>> psw_dsw;       // (PSW index, DSW index) links
  std::unordered_map<std::string, int> ip_line;
  std::vector<Row> rows;
  static const char* kColumns[] = {"ip", "DSW", "PSW", "ASW"};
  for (size_t i = 1; i < lines.size(); ++i) {
    const TextLine& line = lines[i];
    if (SplitWhitespace(line.text).empty()) continue;
    const auto f = SplitTrimmed(line.text, ',');
    if (f.size() != 4) {
      return Error{at(line.number) + "expected 4 comma-separated fields (ip,DSW,PSW,ASW), got " +
                   std::to_string(f.size())};
    }
    for (int c = 0; c < 4; ++c) {
      if (f[c].empty()) return Error{at(line.number) + "empty " + kColumns[c] + " field"};
    }
    Row row;
    row.ip = std::string(f[0]);
    auto [it, added] = ip_line.emplace(row.ip, line.number);
    if (!added) {
      return Error{at(line.number) + "duplicate host ip '" + row.ip + "' (first on line " +
                   std::to_string(it->second) + ")"};
    }
    const int dsw = dsws.Intern(std::string(f[1]));
    const int psw = psws.Intern(std::string(f[2]));
    row.tor = tors.Intern({psw, std::string(f[3])});
    psw_dsw.Intern({psw, dsw});
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return Error{at(lines.back().number) + "no hosts: the file has only a header"};

  Topology t;
  for (size_t r = 0; r < rows.size(); ++r) t.AddHost(rows[r].ip, static_cast<int>(r), 0);
  const int sw = t.AddSwitchSpec(spec.switch_spec);
  const NodeId first_tor = static_cast<NodeId>(t.num_nodes());
  for (const auto& [psw, asw] : tors.keys()) {
    t.SetPod(t.AddSwitch(psws.keys()[psw] + "/" + asw, 1, sw), psw);
  }
  const NodeId first_psw = static_cast<NodeId>(t.num_nodes());
  for (size_t p = 0; p < psws.size(); ++p) t.SetPod(t.AddSwitch(psws.keys()[p], 2, sw), static_cast<int>(p));
  const NodeId first_dsw = static_cast<NodeId>(t.num_nodes());
  for (const std::string& d : dsws.keys()) t.AddSwitch(d, 3, sw);

  const DataRate host_rate = Min(spec.nic_rate, spec.switch_spec.port_rate);
  const DataRate port_rate = spec.switch_spec.port_rate;
  for (size_t r = 0; r < rows.size(); ++r) {
    t.AddLink(static_cast<NodeId>(r), first_tor + rows[r].tor, host_rate, spec.link_latency);
  }
  // Parallel links sized from the oversubscription ratios (see the header).
  std::vector<int> hosts_under(tors.size(), 0);
  for (const Row& row : rows) hosts_under[row.tor]++;
  std::vector<int> psw_down_links(psws.size(), 0);
  for (size_t i = 0; i < tors.size(); ++i) {
    const int links = UplinksFor(hosts_under[i], host_rate, spec.oversubscription, port_rate);
    const int psw = tors.keys()[i].first;
    psw_down_links[psw] += links;
    for (int l = 0; l < links; ++l) {
      t.AddLink(first_tor + static_cast<NodeId>(i), first_psw + psw, port_rate, spec.link_latency);
    }
  }
  std::vector<int> dsws_of_psw(psws.size(), 0);
  for (const auto& [psw, dsw] : psw_dsw.keys()) dsws_of_psw[psw]++;
  for (const auto& [psw, dsw] : psw_dsw.keys()) {
    const int up = UplinksFor(psw_down_links[psw], port_rate, spec.agg_oversubscription, port_rate);
    const int links = CeilDiv(up, dsws_of_psw[psw]);
    for (int l = 0; l < links; ++l) t.AddLink(first_psw + psw, first_dsw + dsw, port_rate, spec.link_latency);
  }
  return t;
}

Result<Topology> ReadLingjunTopologyFile(const TopologySpec& spec) {
  Result<std::string> text = ReadTextFile(spec.file);
  if (!text) return text.error();
  return ParseLingjunTopology(*text, spec.file, spec);
}

}  // namespace aifabric
