// DiagnosisContext holds what every rule of Diagnose reads, indexed once:
// the observation's ports by port id, the transfers crossing each port,
// each node's tier, the resolved pause forest, and which ports a finding
// already names. Internal to src/diagnosis; built and used by one call of
// Diagnose, not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diagnosis/diagnosis.h"
#include "diagnosis/pause_forest.h"

namespace aifabric {

class DiagnosisContext {
 public:
  DiagnosisContext(const Topology& topology, const FabricObservation& observation,
                   const DiagnosisOptions& options);
  DiagnosisContext(const DiagnosisContext&) = delete;
  DiagnosisContext& operator=(const DiagnosisContext&) = delete;

  const Topology& topology() const { return topology_; }
  const FabricObservation& observation() const { return observation_; }
  const DiagnosisOptions& options() const { return options_; }
  const PauseForest& pauses() const { return pauses_; }
  size_t num_ports() const { return ports_.size(); }

  const PortObservation& port(PortId p) const { return ports_[p]; }
  // Indices into observation().transfers of the transfers crossing p, ascending.
  const std::vector<int>& transfers_on(PortId p) const { return transfers_on_[p]; }
  // The node's tier (see diagnosis.h: hop distance from a host when unknown).
  int tier(NodeId n) const { return tiers_[n]; }
  bool IsHost(NodeId n) const { return topology_.node(n).kind == NodeKind::kHost; }
  // Ports of switch n toward a higher tier, ascending.
  std::vector<PortId> Uplinks(NodeId n) const;
  // min(1, pause_time / active_time); 0 when the run had no active time.
  double PausedShare(PortId p) const;
  bool IsSaturated(PortId p) const { return ports_[p].utilization >= options_.saturated_utilization; }

  // "node" -> "peer" names of port p, as JSON {"node":..., "port_peer":...}.
  nlohmann::ordered_json PortName(PortId p) const;
  // A finding of `kind` on p with empty evidence.
  Finding MakeFinding(const char* kind, PortId p, double severity) const;
  // The port's own counters, as evidence.
  nlohmann::ordered_json PortCounters(PortId p) const;
  // Sets finding.flows (capped at max_flows), .owners and evidence
  // "flows_total" from transfer indices (any order, duplicates allowed).
  void SetAffected(Finding& finding, std::vector<int> transfer_indices) const;

 private:
  // Fixed at construction.
  const Topology& topology_;
  const FabricObservation& observation_;
  const DiagnosisOptions options_;
  std::vector<PortObservation> ports_;
  std::vector<std::vector<int>> transfers_on_;
  std::vector<int> tiers_;
  PauseForest pauses_;
};

// x rounded to 4 decimals, so figures print the same on every machine.
double Round4(double x);

}  // namespace aifabric
