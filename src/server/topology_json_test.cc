#include "server/topology_json.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

// Two hosts under one switch, by hand: every field as built.
TEST(TopologyJson, NodesAndLinksAsBuilt) {
  Topology t;
  const NodeId a = t.AddHost("h0", 0, 0);
  const NodeId b = t.AddHost("h1", 1, 0);
  const NodeId s = t.AddSwitch("leaf0", 1, -1);
  t.AddLink(a, s, DataRate::Gbps(400), Time::FromNs(500));
  t.AddLink(s, b, DataRate::Gbps(200), Time::FromNs(1500));
  const nlohmann::ordered_json expected = nlohmann::ordered_json::parse(R"({
    "nodes": [
      {"name": "h0", "kind": "host", "tier": 0, "server": 0, "rail": 0, "pod": -1},
      {"name": "h1", "kind": "host", "tier": 0, "server": 1, "rail": 0, "pod": -1},
      {"name": "leaf0", "kind": "switch", "tier": 1, "server": -1, "rail": -1, "pod": -1}],
    "links": [
      {"id": 0, "a": "h0", "b": "leaf0", "rate_gbps": 400.0, "latency_ns": 500},
      {"id": 1, "a": "leaf0", "b": "h1", "rate_gbps": 200.0, "latency_ns": 1500}]})");
  EXPECT_EQ(TopologyJson(t), expected);
}

}  // namespace
}  // namespace aifabric
