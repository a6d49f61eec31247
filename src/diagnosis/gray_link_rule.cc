// The gray_link cause rule, from the FCS counters: a link that corrupts
// frames. See diagnosis.h.
#include <algorithm>

#include "diagnosis/rules.h"

namespace aifabric {
namespace {

// Lost frames over frames sent; with no packet count (a counter source
// without one), the errors alone say nothing of the rate: 1.
double LossRate(const PortObservation& o) {
  if (o.tx_packets == 0) return o.fcs_error_packets > 0 ? 1.0 : 0.0;
  return std::min(1.0, static_cast<double>(o.fcs_error_packets) / static_cast<double>(o.tx_packets));
}

uint64_t ResentBytes(const DiagnosisContext& ctx, const std::vector<int>& transfers) {
  uint64_t sum = 0;
  for (int t : transfers) sum += ctx.observation().transfers[static_cast<size_t>(t)].resent_bytes;
  return sum;
}

}  // namespace

std::vector<Candidate> FindGrayLinks(const DiagnosisContext& ctx) {
  std::vector<Candidate> out;
  const Topology& topology = ctx.topology();
  for (size_t link = 0; link < topology.num_links(); ++link) {
    const PortId a = static_cast<PortId>(2 * link), b = static_cast<PortId>(2 * link + 1);
    if (static_cast<size_t>(b) >= ctx.num_ports()) break;
    const PortObservation& pa = ctx.port(a);
    const PortObservation& pb = ctx.port(b);
    if (pa.fcs_error_packets == 0 && pb.fcs_error_packets == 0) continue;
    // Name the direction that lost more (ties: the lower port id); the
    // other is the same cable, covered.
    const bool a_named = LossRate(pa) >= LossRate(pb);
    const PortId named = a_named ? a : b, other = a_named ? b : a;
    const double loss = LossRate(ctx.port(named));
    std::vector<int> transfers = ctx.transfers_on(named);
    const std::vector<int>& back = ctx.transfers_on(other);
    transfers.insert(transfers.end(), back.begin(), back.end());
    std::sort(transfers.begin(), transfers.end());
    transfers.erase(std::unique(transfers.begin(), transfers.end()), transfers.end());
    const double severity = 0.5 + 0.5 * std::min(1.0, loss / ctx.options().gray_link_full_loss);
    Candidate c = MakeCandidate(ctx, kGrayLink, named, severity, transfers);
    c.covers.push_back(other);
    c.finding.evidence["found_by"] = "fcs_errors";
    c.finding.evidence["loss_rate"] = Round4(loss);
    c.finding.evidence["reverse_fcs_error_packets"] = ctx.port(other).fcs_error_packets;
    c.finding.evidence["reverse_loss_rate"] = Round4(LossRate(ctx.port(other)));
    c.finding.evidence["bytes_resent"] = ResentBytes(ctx, transfers);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace aifabric
