// Finding is one thing Diagnose (diagnosis.h) found wrong with a run's
// fabric: a kind, the directed port it names (node -> port_peer), how much
// it cost (severity, 0..1), the figures behind it and the transfers and
// owners it touched. A plain value; not thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ids.h"

namespace aifabric {

// The kinds, most specific first: when two rules name one port, the kind
// listed earlier keeps it (FindingKindRank). A cause that says why a port
// congested (incast, oversubscription, collision) is more specific than
// the pause tree the congestion grew, which is more specific than a
// symptom. A link that corrupts frames explains its losses better than
// any congestion there; a straggler names a GPU, not a port.
inline constexpr char kPfcDeadlockCycle[] = "pfc_deadlock_cycle";
inline constexpr char kStraggler[] = "straggler";
inline constexpr char kGrayLink[] = "gray_link";
inline constexpr char kIncast[] = "incast";
inline constexpr char kOversubscribedUplink[] = "oversubscribed_uplink";
inline constexpr char kEcmpCollision[] = "ecmp_collision";
inline constexpr char kPfcPauseRoot[] = "pfc_pause_root";
inline constexpr char kSaturatedLink[] = "saturated_link";
inline constexpr char kPfcPause[] = "pfc_pause";
inline constexpr char kDrops[] = "drops";

// Position of `kind` in the list above (0 first); the list's size for an
// unknown kind. Breaks severity ties: a cause before its symptoms.
int FindingKindRank(const std::string& kind);

struct Finding {
  std::string kind;
  NodeId node = kNoNode;        // the port's sender (a straggler: its GPU's NIC)
  PortId port = kNoPort;        // the port: node -> port_peer (kNoPort for a straggler)
  NodeId port_peer = kNoNode;   // the port's receiver (kNoNode for a straggler)
  double severity = 0;          // 0..1; each kind's formula is in diagnosis.h
  nlohmann::ordered_json evidence = nlohmann::ordered_json::object();
  std::vector<FlowId> flows;           // affected transfers, ascending, capped
  std::vector<std::string> owners;     // distinct non-empty owners, sorted
};

}  // namespace aifabric
