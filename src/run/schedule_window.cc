#include "run/schedule_window.h"

#include <cmath>
#include <utility>

#include "core/units.h"

namespace aifabric {

Result<PacketWindow> ParsePacketWindow(std::string_view text) {
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    return Error{"--packet-window: expected START,DURATION (e.g. 36000s,2ms), got '" + std::string(text) + "'"};
  }
  Result<Time> start = ParseTime(text.substr(0, comma));
  if (!start.ok()) return Error{"--packet-window: start: " + start.error().message};
  Result<Time> duration = ParseTime(text.substr(comma + 1));
  if (!duration.ok()) return Error{"--packet-window: duration: " + duration.error().message};
  if (*start < Time::Zero()) return Error{"--packet-window: start: expected a time >= 0"};
  if (*duration <= Time::Zero() || *duration > kMaxPacketWindow) {
    return Error{"--packet-window: duration: expected more than 0 and at most 100ms (packet level costs events per "
                 "packet), got '" + std::string(text.substr(comma + 1)) + "'"};
  }
  return PacketWindow{*start, *duration};
}

Result<Scenario> PacketWindowScenario(const Scenario& cluster, const ReplayResult& replay,
                                      const PacketWindow& window) {
  if (replay.window_flows.size() > kMaxPacketWindowFlows) {
    return Error{"packet window: " + std::to_string(replay.window_flows.size()) + " flows, more than the " +
                 std::to_string(kMaxPacketWindowFlows) + " a window may hold; choose a shorter window"};
  }
  Scenario s = cluster;
  s.name = cluster.name + "-packet-window";
  s.model = ModelKind::kPacket;
  s.until = window.duration;
  s.trainings.clear();
  s.chakras.clear();
  s.inferences.clear();
  s.collective_jobs.clear();
  FlowListSpec list;
  list.flows.reserve(replay.window_flows.size());
  for (const WindowFlow& w : replay.window_flows) {
    FlowSpec f;
    f.src = w.src;
    f.dst = w.dst;
    f.bytes = static_cast<uint64_t>(std::max(1.0, std::round(w.bytes)));
    f.start = Time::FromSeconds(w.start_s);
    list.flows.push_back(f);
  }
  s.workload.assign(1, TrafficSpec{std::move(list)});
  return s;
}

Result<std::unique_ptr<ScenarioRun>> RunPacketWindow(const Scenario& cluster, const ReplayResult& replay,
                                                     const PacketWindow& window) {
  Result<Scenario> scenario = PacketWindowScenario(cluster, replay, window);
  if (!scenario.ok()) return scenario.error();
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) return Error{"packet window: " + run.error().message};
  (*run)->Execute();
  return run;
}

}  // namespace aifabric
