// The incast rule: many senders at once into one host's link. See diagnosis.h.
#include <algorithm>
#include <map>
#include <tuple>

#include "diagnosis/rules.h"

namespace aifabric {
namespace {

// The most distinct sources with a transfer in flight at one moment.
// Ends sort before starts at the same instant (back-to-back is not overlap).
int PeakConcurrentSources(const DiagnosisContext& ctx, const std::vector<int>& transfers) {
  std::vector<std::tuple<int64_t, int, NodeId>> events;
  events.reserve(2 * transfers.size());
  for (int t : transfers) {
    const TransferObservation& tr = ctx.observation().transfers[t];
    events.emplace_back(tr.start.ps(), +1, tr.src);
    events.emplace_back(std::max(tr.start, tr.finish).ps(), -1, tr.src);
  }
  std::sort(events.begin(), events.end());
  std::map<NodeId, int> in_flight;
  int sources = 0, peak = 0;
  for (const auto& [time, delta, src] : events) {
    int& n = in_flight[src];
    if (delta > 0 && n++ == 0) peak = std::max(peak, ++sources);
    if (delta < 0 && --n == 0) --sources;
  }
  return peak;
}

}  // namespace

std::vector<Candidate> FindIncasts(const DiagnosisContext& ctx) {
  std::vector<Candidate> out;
  const Topology& topo = ctx.topology();
  for (PortId p = 0; static_cast<size_t>(p) < ctx.num_ports(); ++p) {
    const Port& port = topo.port(p);
    if (ctx.IsHost(port.node) || !ctx.IsHost(port.peer)) continue;
    const PortObservation& o = ctx.port(p);
    const bool congested =
        ctx.IsSaturated(p) || o.drop_packets > 0 || o.ecn_marks > 0 || ctx.pauses().frames_caused[p] > 0;
    const std::vector<int>& on = ctx.transfers_on(p);
    if (!congested || on.size() < static_cast<size_t>(ctx.options().incast_min_sources)) continue;
    const int concurrent = PeakConcurrentSources(ctx, on);
    if (concurrent < ctx.options().incast_min_sources) continue;
    std::vector<NodeId> sources;
    uint64_t bytes = 0;
    for (int t : on) {
      sources.push_back(ctx.observation().transfers[t].src);
      bytes += ctx.observation().transfers[t].bytes;
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    Candidate c = MakeCandidate(ctx, kIncast, p, 0.5 + 0.5 * std::min(1.0, o.utilization), on);
    c.finding.evidence["sources"] = sources.size();
    c.finding.evidence["concurrent_sources"] = concurrent;
    c.finding.evidence["bytes"] = bytes;
    c.finding.evidence["pause_frames_caused"] = ctx.pauses().frames_caused[p];
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace aifabric
