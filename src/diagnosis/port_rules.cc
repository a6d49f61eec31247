// The per-port symptom rules: saturated_link and drops. See diagnosis.h.
#include <algorithm>

#include "diagnosis/rules.h"

namespace aifabric {

Candidate MakeCandidate(const DiagnosisContext& ctx, const char* kind, PortId p, double severity,
                        std::vector<int> transfers) {
  Candidate c;
  c.finding = ctx.MakeFinding(kind, p, severity);
  c.transfers = std::move(transfers);
  return c;
}

std::optional<Candidate> SaturatedLink(const DiagnosisContext& ctx, PortId p) {
  if (!ctx.IsSaturated(p)) return std::nullopt;
  Candidate c = MakeCandidate(ctx, kSaturatedLink, p, 0.5 * std::min(1.0, ctx.port(p).utilization),
                              ctx.transfers_on(p));
  c.finding.evidence["transfers"] = ctx.transfers_on(p).size();
  return c;
}

std::optional<Candidate> DroppingPort(const DiagnosisContext& ctx, PortId p) {
  if (ctx.port(p).drop_packets == 0) return std::nullopt;
  const size_t all = ctx.observation().transfers.size();
  const size_t crossing = ctx.transfers_on(p).size();
  const double severity = all == 0 ? 0.25 : 0.5 * static_cast<double>(crossing) / static_cast<double>(all);
  Candidate c = MakeCandidate(ctx, kDrops, p, severity, ctx.transfers_on(p));
  c.finding.evidence["transfers"] = crossing;
  return c;
}

}  // namespace aifabric
