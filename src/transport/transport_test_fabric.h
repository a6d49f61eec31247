// Test helpers: small fabrics and a harness that runs flows on the packet
// model with the RC transport. Used only by the *_test.cc files here.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "engine/simulator.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"
#include "transport/rc_transport.h"

namespace aifabric::transport_testing {

inline SwitchSpec Switch(uint64_t buffer_bytes, DataRate port_rate = DataRate::Gbps(400)) {
  SwitchSpec s;
  s.name = "test";
  s.radix = 64;
  s.port_rate = port_rate;
  s.latency = Time::FromNs(400);
  s.buffer_bytes = buffer_bytes;
  return s;
}

inline std::string Name(const char* prefix, int i) { return std::string(prefix).append(std::to_string(i)); }

// Hosts 0..n under one switch, every link at `rate`, 500 ns cables.
inline Topology Star(int hosts, DataRate rate, uint64_t buffer_bytes) {
  Topology t;
  for (int i = 0; i < hosts; ++i) t.AddHost(Name("h", i));
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(Switch(buffer_bytes, rate)));
  for (int i = 0; i < hosts; ++i) t.AddLink(i, sw, rate, Time::FromNs(500));
  return t;
}

struct Finishes final : TransferObserver {
  std::map<FlowId, Time> at;
  void OnTransferDone(FlowId id, Time finish) override { at[id] = finish; }
};

// One simulation of a topology with a packet config and a transport config.
struct Harness {
  Harness(const Topology& t, const PacketConfig& packet, const TransportConfig& transport, uint64_t seed = 1)
      : sim(seed),
        routes(RoutingTable::BuildShortestPaths(t)),
        rc(std::make_unique<RcTransport>(transport)),
        net(sim, t, routes, packet, rc.get()) {
    net.SetObserver(&finishes);
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t priority = 3) {
    net.StartTransfer(fabric_testing::Request(id, src, dst, bytes, priority));
  }
  // Starts a flow at a later time.
  void StartAt(Time at, FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t priority = 3) {
    sim.ScheduleCallback(at, [=, this] { Start(id, src, dst, bytes, priority); });
  }
  Time Fct(FlowId id) const {
    const FlowState& f = net.flows()[static_cast<size_t>(id)];
    return f.finish - f.start;
  }
  uint64_t Sum(uint64_t PortCounters::*field) const {
    uint64_t total = 0;
    for (const Port& p : net.topology().ports()) total += net.egress(p.id).counters().*field;
    return total;
  }

  Simulator sim;
  RoutingTable routes;
  std::unique_ptr<RcTransport> rc;
  PacketNetwork net;
  Finishes finishes;
};

}  // namespace aifabric::transport_testing
