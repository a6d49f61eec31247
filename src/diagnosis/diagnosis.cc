#include "diagnosis/diagnosis.h"

#include <algorithm>
#include <iterator>

#include "diagnosis/diagnosis_context.h"
#include "diagnosis/rules.h"

namespace aifabric {

namespace {

bool MoreSevere(const Finding& a, const Finding& b) {
  if (a.severity != b.severity) return a.severity > b.severity;
  const int ra = FindingKindRank(a.kind), rb = FindingKindRank(b.kind);
  if (ra != rb) return ra < rb;
  return a.port < b.port;
}

// Folds `other` (a less specific cause on a port `winner` covers) into it:
// its figures go under evidence[other.kind] (a list: one entry per port),
// its severity raises the winner's, its transfers join the winner's.
void Absorb(const DiagnosisContext& ctx, Candidate& winner, Candidate&& other) {
  nlohmann::ordered_json entry = ctx.PortName(other.finding.port);
  entry["severity"] = Round4(other.finding.severity);
  for (auto& [key, value] : other.finding.evidence.items()) entry[key] = std::move(value);
  winner.finding.evidence[other.finding.kind].push_back(std::move(entry));
  winner.finding.severity = std::max(winner.finding.severity, other.finding.severity);
  winner.transfers.insert(winner.transfers.end(), other.transfers.begin(), other.transfers.end());
}

}  // namespace

std::vector<Finding> Diagnose(const Topology& topology, const FabricObservation& observation,
                              const DiagnosisOptions& options) {
  const DiagnosisContext ctx(topology, observation, options);

  // Causes, most specific kind first, then by port: the first to name or
  // cover a port keeps it and absorbs the later ones there.
  std::vector<Candidate> causes;
  for (auto rule :
       {FindPauseCycles, FindGrayLinks, FindSilentGrayLinks, FindIncasts, FindOversubscribedUplinks,
        FindEcmpCollisions, FindPauseRoots}) {
    std::vector<Candidate> found = rule(ctx);
    std::move(found.begin(), found.end(), std::back_inserter(causes));
  }
  std::stable_sort(causes.begin(), causes.end(), [](const Candidate& a, const Candidate& b) {
    const int ra = FindingKindRank(a.finding.kind), rb = FindingKindRank(b.finding.kind);
    return ra != rb ? ra < rb : a.finding.port < b.finding.port;
  });
  std::vector<Candidate> kept;
  std::vector<int> owner(ctx.num_ports(), -1);  // by port: index into kept
  for (Candidate& c : causes) {
    const int holder = owner[c.finding.port];
    if (holder >= 0) {
      Absorb(ctx, kept[holder], std::move(c));
      continue;
    }
    const int index = static_cast<int>(kept.size());
    owner[c.finding.port] = index;
    for (PortId p : c.covers) {
      if (owner[p] < 0) owner[p] = index;
    }
    kept.push_back(std::move(c));
  }

  // Symptoms on the ports no cause explains: the first rule that applies.
  for (PortId p = 0; static_cast<size_t>(p) < ctx.num_ports(); ++p) {
    if (owner[p] >= 0) continue;
    for (auto rule : {SaturatedLink, PausedPort, DroppingPort}) {
      if (std::optional<Candidate> c = rule(ctx, p)) {
        kept.push_back(std::move(*c));
        break;
      }
    }
  }

  std::vector<Finding> findings;
  findings.reserve(kept.size());
  for (Candidate& c : kept) {
    ctx.SetAffected(c.finding, std::move(c.transfers));
    nlohmann::ordered_json counters = ctx.PortCounters(c.finding.port);
    for (auto& [key, value] : counters.items()) c.finding.evidence[key] = std::move(value);
    findings.push_back(std::move(c.finding));
  }
  std::vector<Finding> stragglers = FindStragglers(ctx);
  std::move(stragglers.begin(), stragglers.end(), std::back_inserter(findings));
  std::sort(findings.begin(), findings.end(), MoreSevere);
  if (findings.size() > options.max_findings) findings.resize(options.max_findings);
  return findings;
}

}  // namespace aifabric
