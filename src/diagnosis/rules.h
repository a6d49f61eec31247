// The rules of Diagnose, one function per kind; diagnosis.h states each
// rule's condition, evidence and severity. Cause rules return candidates
// whose evidence holds only their own figures; Diagnose merges candidates
// that name or cover the same port (the more specific kind keeps it) and
// adds the port's counters. Symptom rules run last, on ports no cause
// covers. Internal to src/diagnosis; not thread-safe (reads one context).
#pragma once

#include <optional>
#include <vector>

#include "diagnosis/diagnosis_context.h"

namespace aifabric {

struct Candidate {
  Finding finding;
  // Ports this finding explains besides finding.port (e.g. every uplink of
  // an oversubscribed switch): no other finding names them.
  std::vector<PortId> covers;
  std::vector<int> transfers;  // affected transfers, indices into the observation
};

// Cause rules.
std::vector<Candidate> FindPauseCycles(const DiagnosisContext& ctx);
std::vector<Candidate> FindGrayLinks(const DiagnosisContext& ctx);
std::vector<Candidate> FindSilentGrayLinks(const DiagnosisContext& ctx);
std::vector<Candidate> FindPauseRoots(const DiagnosisContext& ctx);
std::vector<Candidate> FindIncasts(const DiagnosisContext& ctx);
std::vector<Candidate> FindOversubscribedUplinks(const DiagnosisContext& ctx);
std::vector<Candidate> FindEcmpCollisions(const DiagnosisContext& ctx);

// The ranks the others wait on (observation().ranks), as findings of
// their GPU's NIC with no port.
std::vector<Finding> FindStragglers(const DiagnosisContext& ctx);

// Symptom rules: the finding for port p if the rule applies to it.
std::optional<Candidate> SaturatedLink(const DiagnosisContext& ctx, PortId p);
std::optional<Candidate> PausedPort(const DiagnosisContext& ctx, PortId p);
std::optional<Candidate> DroppingPort(const DiagnosisContext& ctx, PortId p);

// A candidate of `kind` on p with empty evidence and the given transfers.
Candidate MakeCandidate(const DiagnosisContext& ctx, const char* kind, PortId p, double severity,
                        std::vector<int> transfers);

}  // namespace aifabric
