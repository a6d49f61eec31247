// NameTenants makes a shared run's diagnosis name jobs (docs/multi_tenant.md):
// each finding on a port gets the tenants whose traffic crosses it (with
// their bytes) and the one it slows most, and a tenant that spends much of
// its time waiting on the network gets a `network_bound_job` finding on its
// busiest link when no finding names that link yet. Works at every
// fidelity: it reads per-tenant port bytes, not the model. Pure function;
// thread-safe on separate findings.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "diagnosis/finding.h"
#include "fabric/topology.h"

namespace aifabric {

inline constexpr char kNetworkBoundJob[] = "network_bound_job";

// What the diagnosis knows of one tenant of a shared run.
struct TenantLoad {
  std::string name;
  std::vector<uint64_t> port_bytes;  // by port id: the bytes it puts on each port
  double slowdown = 1;               // shared over alone
  // Of its step, the share it waited on the network (exposed communication
  // over step time); 0 for what is not a job.
  double network_share = 0;
};

// A job is network-bound when at least this share of its step is exposed
// communication.
inline constexpr double kNetworkBoundShare = 0.2;

// For every finding whose port some tenant crosses: evidence.tenants =
// [{name, bytes}] most bytes first (ties: name), owners = their names
// (sorted, merged with the owners found), evidence.slows_most = the one of
// them with the highest slowdown above 1 (ties: more bytes, then name;
// absent if none slowed down). Then, per network-bound tenant in order, its
// busiest port — of the ports it crosses, the one whose bytes of all
// tenants take longest to send, sum_u bytes_u(p) x 8 / line rate (ties:
// lowest port id) — gets a network_bound_job finding unless a finding
// already names it: severity 0.5 x network_share, evidence {tenant,
// network_share, busy_s (that sum's time), tier (of the port's sender: 0 a NIC), nic (the
// host's name when the port leaves or enters one)} and the tenants as above.
void NameTenants(const Topology& topology, std::span<const TenantLoad> tenants, std::vector<Finding>& findings);

}  // namespace aifabric
