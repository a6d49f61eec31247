// The packet and flow models route every flow identically: both take a
// flow's path from fabric/ecmp_path.h, and this checks it on a k=4 fat-tree
// for every ordered host pair, several source ports, several queue pairs
// per transfer and a non-zero ECMP seed. Alone on an idle fabric, a message
// of whole packets also gets the same ideal FCT from both.
#include <gtest/gtest.h>

#include <vector>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology_builder.h"
#include "flow/flow_network.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

Topology FatTreeK4() {
  TopologySpec spec;
  spec.type = TopologyType::kFatTree;
  spec.servers = 16;
  spec.nic_rate = DataRate::Gbps(100);
  spec.switch_spec.name = "test-100G";
  spec.switch_spec.radix = 4;
  spec.switch_spec.port_rate = DataRate::Gbps(100);
  spec.switch_spec.latency = Time::FromNs(300);
  spec.switch_spec.buffer_bytes = 16ull << 20;
  spec.k = 4;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

TEST(ModelPaths, FlowAndPacketModelsRouteEveryFlowIdentically) {
  const Topology t = FatTreeK4();
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  for (const uint64_t seed : {uint64_t{0}, uint64_t{0x1234567}}) {
    for (const uint32_t qps : {1u, 3u}) {
      PacketConfig pc;
      pc.ecmp_seed = seed;
      pc.qps_per_transfer = qps;
      FlowConfig fc;
      fc.mtu_bytes = pc.mtu_bytes;
      fc.wire_overhead_bytes = pc.wire_overhead_bytes;
      fc.ecmp_seed = seed;
      fc.qps_per_transfer = qps;
      Simulator packet_sim(1), flow_sim(1);
      PacketNetwork packet(packet_sim, t, routes, pc);
      FlowNetwork flow(flow_sim, t, routes, fc);
      FlowId id = 0;
      int multi_path_pairs = 0;
      for (NodeId src : t.hosts()) {
        for (NodeId dst : t.hosts()) {
          if (src == dst) continue;
          multi_path_pairs += routes.NextHops(t.port(t.node(src).ports[0]).peer, dst).size() > 1;
          // sport 0 lets the models pick it from the id, as the workloads do.
          for (const uint16_t sport : {uint16_t{0}, uint16_t{4242}, uint16_t{60001}}) {
            TransferRequest r;
            r.id = id++;
            r.src = src;
            r.dst = dst;
            r.bytes = 40'960;  // 10 packets: enough for 3 queue pairs
            r.sport = sport;
            packet.StartTransfer(r);
            flow.StartTransfer(r);
            if (qps == 1) {
              EXPECT_EQ(flow.IdealFct(r), packet.IdealFct(r)) << r.id;
            }
          }
        }
      }
      EXPECT_GT(multi_path_pairs, 0);
      ASSERT_EQ(packet.flows().size(), flow.flows().size());
      EXPECT_EQ(packet.flows().size(), 240u * 3 * qps);
      std::vector<int> uses(t.ports().size(), 0);
      for (uint32_t i = 0; i < packet.flows().size(); ++i) {
        const std::span<const PortId> fp = flow.path(i);
        EXPECT_EQ(packet.path(i), std::vector<PortId>(fp.begin(), fp.end())) << "queue pair " << i;
        EXPECT_EQ(packet.flows()[i].request.sport, flow.flows()[i].request.sport);
        for (PortId p : fp) ++uses[p];
      }
      // Every port of the fabric is used by some flow: the paths spread.
      for (const Port& p : t.ports()) EXPECT_GT(uses[p.id], 0) << p.id;
    }
  }
}

}  // namespace
}  // namespace aifabric
