// The interference table of a shared run (docs/multi_tenant.md): how much
// of each tenant's slowdown comes from each other tenant's traffic on the
// links they share. Pure function of per-tenant link bytes; thread-safe.
//
// With a_t(p) the bytes tenant t puts on port p when it runs alone (its
// alone run's counters: the same transfers on the same paths as in the
// shared run), the victim v's links are the ports with a_v(p) > 0, and the
// foreign load on one of them is F_v(p) = sum of a_u(p) over the tenants
// u != v that compete with v: those whose class's scheduling tier is at
// least v's (run/fabric_setup.h SchedulingTier). A tenant in a strictly
// lower tier is served only when v's queue is empty, so it does not slow v
// (but for at most one of its packets in flight per hop at packet level,
// which the table neglects); v still slows it. Its
// bottleneck links B_v are those of its links where the foreign bytes take
// the longest to send, F_v(p) / rate(p) (all that tie for the maximum).
// Then
//   share(v, u) = sum_{p in B_v} a_u(p) / sum_{p in B_v} F_v(p)
// (over the aggressors u, the shares of v sum to 1), and the part of v's
// slowdown due to u is share(v, u) x (slowdown_v - 1), at least 0. A
// victim none of whose links carries competing foreign bytes has no
// entries (every share 0).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace aifabric {

struct InterferenceEntry {
  size_t victim = 0;
  size_t aggressor = 0;
  double share = 0;           // of the victim's slowdown, 0..1
  double slowdown_part = 0;   // share x (victim's slowdown - 1), >= 0
  uint64_t shared_bytes = 0;  // the aggressor's bytes on the victim's bottleneck links
};

// `alone_bytes[t][p]`: tenant t's bytes on port p; `rate_bps[p]`: the
// port's line rate; `slowdown[t]`: shared over alone headline time;
// `tier[t]`: its class's scheduling tier (empty: all in one tier).
// Entries by victim, then aggressor; aggressors with no competing bytes
// there are left out. REQUIRES: every alone_bytes[t] and rate_bps of one
// size; tier empty or of alone_bytes' size.
std::vector<InterferenceEntry> Interference(const std::vector<std::vector<uint64_t>>& alone_bytes,
                                            std::span<const uint64_t> rate_bps, std::span<const double> slowdown,
                                            std::span<const int> tier = {});

// Tenant v's bottleneck links B_v (as above), ascending; empty without
// competing foreign bytes on its links.
std::vector<size_t> BottleneckPorts(const std::vector<std::vector<uint64_t>>& alone_bytes,
                                    std::span<const uint64_t> rate_bps, size_t victim, std::span<const int> tier = {});

}  // namespace aifabric
