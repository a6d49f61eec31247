// Bottleneck localization: Diagnose reads what a finished run saw of its
// fabric (FabricObservation) and names the ports that held it back, most
// severe first; FindingsJson writes them as diagnosis.json and
// FormatFindings prints a saved diagnosis.json as a table (for
// `aifabric diagnose OUTDIR`). Pure functions of their arguments and
// deterministic (ties broken by kind, then port id); safe to call from
// several threads on shared inputs.
//
// Notation: u(p) is PortObservation::utilization (bytes over line rate x
// the run's active time); phi(p) = min(1, pause_time(p) / active_time), the
// share of the run port p spent paused. Severities of causes lie in
// [0.5, 1], of symptoms in [0, 0.5], so a culprit ranks above what it
// caused. Each port is named by at most one finding. Causes (rules 0-5)
// are ranked deadlock cycle, gray link, incast, oversubscribed uplink,
// ECMP collision, pause root: when several name (or cover) one port, the
// earliest keeps it and the others' figures go into its evidence under
// their kind (a list of {node, port_peer, severity, ...}); its severity is
// the highest of theirs. So the port toward an incast receiver that rooted
// a pause tree is an `incast` finding with evidence.pfc_pause_root.
// Symptoms (rules 6-8) are reported only on ports no cause names or
// covers, the first that applies. Stragglers (rule 9), a cause that names
// a GPU rather than a port, join the list after. Rules that need tiers
// (uplinks, incast) take a switch's tier from the topology, or, when it is -1 (unknown), its
// hop distance from the nearest host.
//
// 0. gray_link, from the counters (evidence.found_by = "fcs_errors"). A
//    link whose frames were corrupted on the way
//    (PortObservation::fcs_error_packets > 0 in either direction), named
//    by the direction with the higher loss rate = FCS errors / packets
//    sent (1 when packets are not counted), covering the other. Evidence:
//    loss_rate, the reverse direction's errors and rate, bytes_resent (by
//    the transfers crossing either direction).
//    severity = 0.5 + 0.5 * min(1, loss_rate / gray_link_full_loss).
// 0b. gray_link, from the resends (found_by = "resend_tomography"): a
//    link losing packets that no counter saw (silent loss), localised by
//    loss tomography (diagnosis/loss_tomography.h) over the transfers
//    that followed one path (single_path) and crossed no port that
//    counted a loss (a drop or an FCS error could explain their resends):
//    each is the set of links (cables, both directions) of its path and
//    earlier paths, lossy when resent_bytes > 0. Each link the tomography
//    picks is a finding, named by the direction more resending transfers
//    crossed (ties: the higher share of its transfers, then the lower port
//    id), covering the other, its flows those it explained. Evidence:
//    resending_flows (explained), flows_crossing, hit_ratio, per direction
//    direction_/reverse_resending_flows and _flows, bytes_resent (by the
//    explained transfers), resent_rate = bytes_resent / the bytes of every
//    transfer crossing the link (the loss rate when only what was lost is
//    resent; higher under go-back-N and after timeouts).
//    severity = 0.5 + 0.5 * min(1, resent_rate / gray_link_full_loss).
// 1. pfc_pause_root. The pause graph has an edge paused -> cause for every
//    PauseCause (frames summed per pair). From each paused port, follow its
//    dominant cause (most frames; ties: lowest port id) until a port with no
//    cause edges: the root, the congested egress whose full buffer made the
//    pauses. One finding per root reached from at least one other port.
//    Evidence: paused_ports, tree_pause_time_ns and tree_frames (sums over
//    them), depth (longest chain), frames_caused (by the root), and up to
//    max_flows of the paused ports ("paused").
//    severity = 0.5 + 0.5 * min(1, phi(root) + sum of phi over paused ports).
// 2. pfc_deadlock_cycle. A chain of dominant causes that comes back on
//    itself (a cyclic buffer dependency, the shape of a PFC deadlock) is
//    reported once, named by its lowest port id (covering the rest of the
//    cycle), with the cycle's ports and the paused ports that lead into it.
//    severity = 1.
// 3. incast. A switch port toward a host that, at some moment, carried
//    transfers from >= incast_min_sources distinct sources at once, and is
//    saturated (u >= saturated_utilization) or shows loss or congestion
//    (drops, ECN marks, or pauses it caused). Evidence: sources (distinct),
//    concurrent_sources, bytes, pause_frames_caused.
//    severity = 0.5 + 0.5 * u.
// 4. oversubscribed_uplink. A switch's uplinks (ports to the next tier up)
//    all have u >= uplinks_together_utilization, and what its lower tier
//    offered upward exceeded their capacity: offered_ratio =
//    min(demand, ingress) > 1 with demand = the highest summed standalone
//    rate (bytes / ideal FCT; bytes at the ingress rate without one) of the
//    transfers leaving through the uplinks that were in flight at once
//    (each from its start for its ideal FCT) / uplink capacity, ingress =
//    summed rate of the ports those transfers entered by / uplink capacity.
//    Evidence: the three ratios, offered_bytes, uplink_capacity_gbps,
//    uplinks (name and utilization of each).
//    Names the most utilized uplink (ties: lowest port id) and covers the
//    others.
//    severity = 0.5 + 0.5 * (1 - 1 / offered_ratio).
// 5. ecmp_collision. An uplink with u >= saturated_utilization carrying >= 2
//    transfers while a sibling uplink of the same switch (an ECMP
//    alternative) sent less than collision_sibling_share of its bytes.
//    Evidence: transfers, siblings, idlest_sibling (its name, utilization
//    and tx_bytes).
//    severity = 0.5 + 0.5 * u * (1 - sibling bytes / its bytes).
// 6. saturated_link. Any other port with u >= saturated_utilization.
//    severity = 0.5 * u.
// 7. pfc_pause. A paused port that is not a root (phi > 0 or paused by
//    frames), with frames, depth, its dominant cause, its root (the cycle's
//    named port for a chain into a cycle; null when unknown) and
//    in_cycle_tree.
//    severity = 0.5 * phi.
// 8. drops. Any other port that dropped packets.
//    severity = 0.5 * (transfers crossing it / all transfers), 0.25 when
//    the observation has no transfers.
// 9. straggler. Not a port: a GPU of a job's run (observation.ranks) that
//    came last at some synchronisation point (workload/rank_waits.h) and
//    computed at most straggler_speed of its peers' speed (the median
//    compute of the GPUs it came last among / its own). Named by its
//    GPU's NIC, port_peer none. Evidence: gpu, compute_speed, compute_ns,
//    peer_compute_ns, step_cost_ns (how much later the points it came last
//    at started because of it alone, summed: the step time it cost),
//    others_waited_ns, sync_points.
//    severity = 0.5 + 0.5 * min(1, step_cost / the job's makespan).
// Every port finding's evidence also holds the port's own counters; `flows` are
// the affected transfers (those crossing the ports involved), capped at
// max_flows with the full count in evidence.flows_total.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "diagnosis/finding.h"
#include "diagnosis/loss_tomography.h"
#include "fabric/fabric_observation.h"
#include "fabric/topology.h"

namespace aifabric {

struct DiagnosisOptions {
  double saturated_utilization = 0.9;        // a port at or above this is saturated
  double uplinks_together_utilization = 0.8; // oversubscribed: every uplink at least this
  double collision_sibling_share = 0.5;      // collision: the sibling sent less than this share
  int incast_min_sources = 4;                // incast: distinct sources at once
  // gray_link: the loss rate at which severity reaches 1: past 1% loss
  // a go-back-N RoCEv2 transport's relative throughput drops to nearly
  // zero (Wang et al., "Error Recovery of RDMA Packets in Data Center
  // Networks", ICCCN 2019, abstract).
  double gray_link_full_loss = 0.01;
  // gray_link from the resends: the tomography's thresholds.
  TomographyOptions gray_link_tomography;
  // straggler: a rank is one when it computed at most this fraction of
  // its peers' speed (peers' compute / its compute). Our threshold, not a
  // published one: ranks doing the same work differ by far less.
  double straggler_speed = 0.9;
  size_t max_findings = 50;                  // keep the most severe
  size_t max_flows = 20;                     // flows listed per finding
};

// The findings of one run, most severe first (ties: kind order of
// finding.h, then port id), at most options.max_findings. Ports, causes
// and path entries that are not ports of `topology` are ignored.
// `observation.ports` is indexed by PortObservation::port (by position when
// that is kNoPort).
std::vector<Finding> Diagnose(const Topology& topology, const FabricObservation& observation,
                              const DiagnosisOptions& options = {});

// {"findings": [{"kind", "node", "port_peer", "severity", "evidence",
// "flows", "owners"}, ...]} in the given order, nodes by their topology
// names (port_peer null for a straggler); severity rounded to 4 decimals.
nlohmann::ordered_json FindingsJson(const Topology& topology, const std::vector<Finding>& findings);

// A plain-text table of a diagnosis.json document: one row per finding
// (rank, severity, kind, node -> port_peer, flow count, owners) and an
// indented line of its scalar evidence as key=value. An error when the
// document has no "findings" array or a finding lacks kind/node/port_peer.
Result<std::string> FormatFindings(const nlohmann::ordered_json& diagnosis);

}  // namespace aifabric
