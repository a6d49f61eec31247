#include "plan/cabling_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "plan/switch_port_names.h"

namespace aifabric {

std::string DefaultCableType(DataRate rate, double length_m) {
  // Reaches (IEEE 802.3 optics; passive copper and AOC from NVIDIA's LinkX
  // guides):
  //  - DAC 3 m: NVIDIA LinkX 100G-PAM4 DAC "reach is up to 3 meters"
  //    (docs.nvidia.com/networking/display/400g100gpam4ovpub).
  //  - AOC 30 m: our cut-over to pluggable optics; AOCs are used "from 3
  //    meters to about 100 meters" (docs.nvidia.com/networking/display/cablemanagfaq).
  //  - SR 100 m: 400GBASE-SR8 on OM4, 0.5 to 100 m (IEEE 802.3cm clause 138;
  //    tiafotc.org 400GBASE-SR8 overview).
  //  - DR 500 m, FR 2 km, LR 10 km: 400GBASE-DR4 / FR4 / LR4 (IEEE 802.3bs
  //    and the 100G Lambda MSA; flexoptix.net "The 400G overview", 2018;
  //    400GBASE-LR8 "at least 10 km", tiafotc.org).
  //  - ZR beyond: coherent 80 km class optics (cablemanagfaq above).
  const char* type = length_m <= 3     ? "DAC"
                     : length_m <= 30  ? "AOC"
                     : length_m <= 100 ? "SR"
                     : length_m <= 500 ? "DR"
                     : length_m <= 2000 ? "FR"
                     : length_m <= 10000 ? "LR"
                                         : "ZR";
  return fmt::format("{:g}G-{}", rate.gbps(), type);
}

namespace {

struct End {
  NodeId node = kNoNode;
  size_t position = 0;  // in the node's ports list
};

struct Row {
  End first, second;
  DataRate rate;
  Time latency;
};

}  // namespace

std::string CablingCsv(const Topology& topology, FabricKind kind, const CableTypeRule& cable_type,
                       const CableLengthRule& length) {
  // Position of each directed port in its sender's list.
  std::vector<size_t> position(topology.ports().size(), 0);
  for (const Node& n : topology.nodes()) {
    for (size_t i = 0; i < n.ports.size(); ++i) position[static_cast<size_t>(n.ports[i])] = i;
  }
  // Which end goes first: a switch before a host; of two switches the lower
  // tier, then the lower id.
  auto before = [&](NodeId a, NodeId b) {
    const Node& x = topology.node(a);
    const Node& y = topology.node(b);
    const bool xs = x.kind == NodeKind::kSwitch, ys = y.kind == NodeKind::kSwitch;
    if (xs != ys) return xs;
    if (x.tier != y.tier) return x.tier < y.tier;
    return a < b;
  };
  std::vector<Row> rows;
  rows.reserve(topology.num_links());
  for (size_t link = 0; link < topology.num_links(); ++link) {
    const Port& ab = topology.port(static_cast<PortId>(2 * link));
    const Port& ba = topology.port(static_cast<PortId>(2 * link + 1));
    End a{ab.node, position[static_cast<size_t>(ab.id)]};
    End b{ba.node, position[static_cast<size_t>(ba.id)]};
    if (!before(a.node, b.node)) std::swap(a, b);
    rows.push_back(Row{a, b, ab.rate, ab.latency});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    if (x.first.node != y.first.node) return x.first.node < y.first.node;
    return x.first.position < y.first.position;
  });

  std::string out = "switch,port,peer,peer_port,cable_type,reach_m\n";
  auto name = [&](const End& e) {
    const Node& n = topology.node(e.node);
    return CablingPortName(kind, n.kind == NodeKind::kSwitch, e.position);
  };
  for (const Row& r : rows) {
    int64_t dm = 0;
    double length_m = 0;
    if (length) {
      const int lower = topology.node(r.first.node).tier, upper = topology.node(r.second.node).tier;
      length_m = length(std::min(lower, upper), std::max(lower, upper), r.latency);
      dm = static_cast<int64_t>(std::ceil(length_m * 10 - 1e-6));
    } else {
      length_m = CableLengthM(r.latency);
      // Rounded up to 0.1 m in integers: decimetres = ceil(ps x 1.98e8 / 1e11).
      const int64_t ps = r.latency.ps();
      dm = (ps * 198 + 99'999) / 100'000;
    }
    out += fmt::format("{},{},{},{},{},{}.{}\n", topology.node(r.first.node).name, name(r.first),
                       topology.node(r.second.node).name, name(r.second), cable_type(r.rate, length_m), dm / 10,
                       dm % 10);
  }
  return out;
}

}  // namespace aifabric
