// The gray_link cause rule without counters: links that lose packets
// silently, localised from the transfers' resends by loss tomography
// (diagnosis/loss_tomography.h). See diagnosis.h, rule 0b.
#include <algorithm>

#include "diagnosis/loss_tomography.h"
#include "diagnosis/rules.h"

namespace aifabric {
namespace {

// Whether a counter of port p saw a loss (a drop or a corrupted frame):
// a transfer crossing it may have resent for that.
bool CountedLoss(const PortObservation& o) { return o.drop_packets > 0 || o.fcs_error_packets > 0; }

// The ports a transfer crossed: its path and those it was moved off.
std::vector<PortId> PortsCrossed(const DiagnosisContext& ctx, const TransferObservation& t) {
  std::vector<PortId> ports;
  for (const std::vector<PortId>* list : {&t.path, &t.earlier_path}) {
    for (PortId p : *list) {
      if (p >= 0 && static_cast<size_t>(p) < ctx.num_ports()) ports.push_back(p);
    }
  }
  std::sort(ports.begin(), ports.end());
  ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  return ports;
}

}  // namespace

std::vector<Candidate> FindSilentGrayLinks(const DiagnosisContext& ctx) {
  const Topology& topology = ctx.topology();
  const std::vector<TransferObservation>& transfers = ctx.observation().transfers;
  // The flows the tomography may read: one path each, and no counted loss
  // on it that could explain a resend. `ports[k]` are flow k's ports.
  std::vector<TomographyFlow> flows;
  std::vector<int> transfer_of;
  std::vector<std::vector<PortId>> ports;
  for (size_t i = 0; i < transfers.size(); ++i) {
    const TransferObservation& t = transfers[i];
    if (!t.single_path) continue;
    std::vector<PortId> crossed = PortsCrossed(ctx, t);
    if (crossed.empty()) continue;
    if (std::any_of(crossed.begin(), crossed.end(), [&](PortId p) { return CountedLoss(ctx.port(p)); })) continue;
    TomographyFlow flow;
    for (PortId p : crossed) flow.links.push_back(static_cast<int>(topology.port(p).link));
    std::sort(flow.links.begin(), flow.links.end());
    flow.links.erase(std::unique(flow.links.begin(), flow.links.end()), flow.links.end());
    flow.lossy = t.resent_bytes > 0;
    flows.push_back(std::move(flow));
    transfer_of.push_back(static_cast<int>(i));
    ports.push_back(std::move(crossed));
  }

  std::vector<Candidate> out;
  for (const TomographyPick& pick : LocaliseLoss(flows, topology.num_links(), ctx.options().gray_link_tomography)) {
    const PortId a = static_cast<PortId>(2 * pick.link), b = static_cast<PortId>(2 * pick.link + 1);
    // Per direction: the resending flows and all flows crossing it.
    size_t lossy_a = 0, lossy_b = 0, all_a = 0, all_b = 0;
    uint64_t crossing_bytes = 0;
    for (size_t k = 0; k < flows.size(); ++k) {
      const bool on_a = std::binary_search(ports[k].begin(), ports[k].end(), a);
      const bool on_b = std::binary_search(ports[k].begin(), ports[k].end(), b);
      if (!on_a && !on_b) continue;
      crossing_bytes += transfers[static_cast<size_t>(transfer_of[k])].bytes;
      all_a += on_a;
      all_b += on_b;
      lossy_a += on_a && flows[k].lossy;
      lossy_b += on_b && flows[k].lossy;
    }
    // Name the direction more resending flows crossed (ties: the higher
    // share of its flows, then the lower port id); the other is covered.
    bool a_named = lossy_a != lossy_b ? lossy_a > lossy_b : lossy_a * all_b >= lossy_b * all_a;
    const PortId named = a_named ? a : b, other = a_named ? b : a;
    std::vector<int> explained;
    uint64_t resent = 0;
    for (int k : pick.explained) {
      explained.push_back(transfer_of[static_cast<size_t>(k)]);
      resent += transfers[static_cast<size_t>(transfer_of[static_cast<size_t>(k)])].resent_bytes;
    }
    const double resent_rate =
        crossing_bytes == 0 ? 0.0 : static_cast<double>(resent) / static_cast<double>(crossing_bytes);
    const double severity = 0.5 + 0.5 * std::min(1.0, resent_rate / ctx.options().gray_link_full_loss);
    Candidate c = MakeCandidate(ctx, kGrayLink, named, severity, explained);
    c.covers.push_back(other);
    nlohmann::ordered_json& e = c.finding.evidence;
    e["found_by"] = "resend_tomography";
    e["resending_flows"] = pick.explained.size();
    e["flows_crossing"] = pick.crossing;
    e["hit_ratio"] = Round4(pick.hit_ratio);
    e["direction_resending_flows"] = a_named ? lossy_a : lossy_b;
    e["direction_flows"] = a_named ? all_a : all_b;
    e["reverse_resending_flows"] = a_named ? lossy_b : lossy_a;
    e["reverse_flows"] = a_named ? all_b : all_a;
    e["bytes_resent"] = resent;
    e["resent_rate"] = Round4(resent_rate);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace aifabric
