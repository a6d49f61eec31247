#include "observe/observe_outputs.h"

#include <cmath>

#include "diagnosis/diagnosis.h"
#include "report/output_folder.h"

namespace aifabric {
namespace {

double Round4(double x) { return std::round(x * 1e4) / 1e4; }

nlohmann::ordered_json PortName(const Topology& topology, PortId p) {
  const Port& port = topology.port(p);
  return {{"node", topology.node(port.node).name}, {"port_peer", topology.node(port.peer).name}};
}

}  // namespace

nlohmann::ordered_json ObservationJson(const Topology& topology, const FabricReading& reading,
                                       const std::vector<Finding>& findings, const ObservePass& pass) {
  nlohmann::ordered_json doc;
  doc["pass"] = pass.pass;
  doc["prometheus"] = pass.prometheus;
  doc["exporter"] = pass.exporter != nullptr ? pass.exporter->name : "";
  doc["clock"] = pass.exporter != nullptr && !pass.exporter->clock.empty() ? "simulated" : "wall";
  doc["window_s"] = static_cast<double>(pass.window.ps()) * 1e-12;
  doc["active_s"] = static_cast<double>(reading.observation.active_time.ps()) * 1e-12;
  doc["series"] = reading.series;
  doc["queries"] = reading.queries;
  doc["unread"] = reading.unread;
  doc["warnings"] = reading.warnings;
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const PortObservation& p : reading.observation.ports) {
    if (!reading.windows[static_cast<size_t>(p.port)].seen) continue;
    nlohmann::ordered_json row = PortName(topology, p.port);
    row["rate_gbps"] = topology.port(p.port).rate.gbps();
    row["tx_bytes"] = p.tx_bytes;
    row["utilization"] = Round4(p.utilization);
    row["peak_utilization"] = Round4(p.peak_utilization);
    row["drop_packets"] = p.drop_packets;
    row["ecn_marks"] = p.ecn_marks;
    row["pause_ns"] = p.pause_time.ps() / 1000;
    row["pfc_frames_tx"] = p.pfc_frames_tx;
    row["max_queue_bytes"] = p.max_queue_bytes;
    ports.push_back(std::move(row));
  }
  doc["ports"] = std::move(ports);
  nlohmann::ordered_json causes = nlohmann::ordered_json::array();
  for (const PauseCause& c : reading.observation.pause_causes) {
    causes.push_back({{"paused", PortName(topology, c.paused)}, {"cause", PortName(topology, c.cause)}, {"frames", c.frames}});
  }
  doc["pause_causes"] = std::move(causes);
  if (findings.empty()) {
    doc["top_finding"] = nullptr;
  } else {
    doc["top_finding"] = FindingsJson(topology, {findings.front()})["findings"][0];
  }
  return doc;
}

Result<std::vector<Finding>> WriteObservePass(const std::string& dir, const Topology& topology,
                                              const FabricReading& reading, const ObservePass& pass) {
  std::vector<Finding> findings = Diagnose(topology, reading.observation);
  OutputFolder out(dir);
  if (Status st = out.Write("diagnosis.json", FindingsJson(topology, findings).dump(2) + "\n"); !st.ok()) {
    return st.error();
  }
  const nlohmann::ordered_json observation = ObservationJson(topology, reading, findings, pass);
  if (Status st = out.Write("observation.json", observation.dump(2) + "\n"); !st.ok()) return st.error();
  if (Status st = out.Commit(); !st.ok()) return st.error();
  return findings;
}

}  // namespace aifabric
