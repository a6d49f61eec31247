// NameTenants (diagnosis/tenant_findings.h) on a hand-made leaf-spine.
#include "diagnosis/tenant_findings.h"

#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"

namespace aifabric {
namespace {

TEST(NameTenants, AFindingNamesTheTenantsOnItsPortAndTheOneItSlowsMost) {
  Topology t = fabric_testing::LeafSpine4x4();
  ASSERT_GT(t.ports().size(), 4u);
  const size_t n = t.ports().size();
  // Port 0 carries x (300 B) and y (100 B); y slowed down more.
  std::vector<TenantLoad> loads(2);
  loads[0] = {"x", std::vector<uint64_t>(n, 0), 1.2, 0};
  loads[1] = {"y", std::vector<uint64_t>(n, 0), 1.5, 0};
  loads[0].port_bytes[0] = 300;
  loads[1].port_bytes[0] = 100;
  std::vector<Finding> findings(1);
  findings[0].kind = kSaturatedLink;
  findings[0].port = 0;
  findings[0].node = t.port(0).node;
  findings[0].port_peer = t.port(0).peer;
  findings[0].severity = 0.45;
  NameTenants(t, loads, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].owners, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(findings[0].evidence["tenants"][0]["name"], "x");  // most bytes first
  EXPECT_EQ(findings[0].evidence["tenants"][0]["bytes"], 300);
  EXPECT_EQ(findings[0].evidence["slows_most"], "y");
}

TEST(NameTenants, ANetworkBoundJobGetsAFindingOnItsBusiestLink) {
  Topology t = fabric_testing::LeafSpine4x4();
  const size_t n = t.ports().size();
  // z waits on the network for 60% of its step; its bytes take longest on
  // port 3 (same rates: most bytes).
  std::vector<TenantLoad> loads(1);
  loads[0] = {"z", std::vector<uint64_t>(n, 0), 1.0, 0.6};
  loads[0].port_bytes[1] = 1000;
  loads[0].port_bytes[3] = 5000;
  std::vector<Finding> findings;
  NameTenants(t, loads, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, kNetworkBoundJob);
  EXPECT_EQ(findings[0].port, 3);
  EXPECT_DOUBLE_EQ(findings[0].severity, 0.3);
  EXPECT_EQ(findings[0].evidence["tenant"], "z");
  EXPECT_EQ(findings[0].evidence["tier"], t.node(t.port(3).node).tier);
  EXPECT_EQ(findings[0].owners, (std::vector<std::string>{"z"}));
  EXPECT_FALSE(findings[0].evidence.contains("slows_most"));  // nobody slowed down
  // A job below the threshold gets none.
  loads[0].network_share = 0.1;
  findings.clear();
  NameTenants(t, loads, findings);
  EXPECT_TRUE(findings.empty());
}

}  // namespace
}  // namespace aifabric
