// The packet-level window of a scheduling replay (`aifabric schedule
// --packet-window START,DURATION`): the flows the flow-level replay had on
// the fabric in [START, START + DURATION) (ReplayResult::window_flows: the
// coflows in flight with what they had left, and those starting inside),
// run again at packet level on the same cluster, with its PFC, ECN, queues
// and drops, and every observability file of `aifabric run`. Not
// thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "run/scenario_run.h"
#include "scenario/scenario.h"
#include "core/result.h"
#include "core/time.h"
#include "sched/cluster_replay.h"

namespace aifabric {

// The longest window and the most flows a packet-level window may take:
// packet simulation costs events per packet, so a window is milliseconds.
inline constexpr Time kMaxPacketWindow = Time::FromMs(100);
inline constexpr size_t kMaxPacketWindowFlows = 1'000'000;
// The folder of the schedule's output folder the window's files go to.
inline constexpr const char* kPacketWindowFolder = "packet_window";

struct PacketWindow {
  Time start;     // trace time, >= 0
  Time duration;  // > 0, at most kMaxPacketWindow
};

// "START,DURATION", each a time with a unit ("36000s,2ms"). Errors read
// "--packet-window: ...".
Result<PacketWindow> ParsePacketWindow(std::string_view text);

// The scenario of the window: `cluster` at packet level, run for the
// window's duration, its workload the window's flows (priority 3, starts
// relative to the window), named "<cluster name>-packet-window". Errors
// when there are more than kMaxPacketWindowFlows flows.
Result<Scenario> PacketWindowScenario(const Scenario& cluster, const ReplayResult& replay,
                                      const PacketWindow& window);

// Prepares and executes that scenario. Errors name the scenario field at
// fault, after "packet window: ".
Result<std::unique_ptr<ScenarioRun>> RunPacketWindow(const Scenario& cluster, const ReplayResult& replay,
                                                     const PacketWindow& window);

}  // namespace aifabric
