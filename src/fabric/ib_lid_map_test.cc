#include "fabric/ib_lid_map.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aifabric {
namespace {

using ::testing::HasSubstr;

//   h0 - s1 - h2     (h2 linked twice to s1: CA ports 1 and 2)
//           \= h2
Topology Small() {
  Topology t;
  t.AddHost("h0");
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  t.AddSwitch("s1", 1, spec);
  t.AddHost("h2");
  t.AddLink(0, 1, DataRate::Gbps(100), Time::Zero());  // ports 0 (h0->s1), 1 (s1->h0)
  t.AddLink(1, 2, DataRate::Gbps(100), Time::Zero());  // ports 2 (s1->h2), 3 (h2->s1)
  t.AddLink(2, 1, DataRate::Gbps(100), Time::Zero());  // ports 4 (h2->s1), 5 (s1->h2)
  return t;
}

// GUID = 0xA1FA000000000000 + (id << 8); CA port GUID = node GUID + port;
// IB port number = position in `ports` + 1.
TEST(IbLidMap, AifabricIdentities) {
  const Topology t = Small();
  const IbLidMap map = IbLidMap::ForTopology(t);
  EXPECT_EQ(map.node_guid(0), 0xA1FA000000000000ull);
  EXPECT_EQ(map.node_guid(2), 0xA1FA000000000200ull);
  EXPECT_EQ(map.NodeByGuid(0xA1FA000000000100ull), 1);
  EXPECT_EQ(map.NodeByGuid(0x1234), kNoNode);
  EXPECT_EQ(map.IbPort(1), 1);  // s1's first port
  EXPECT_EQ(map.IbPort(5), 3);  // s1's third
  EXPECT_EQ(map.IbPort(4), 2);  // h2's second link is CA port 2
  EXPECT_EQ(map.PortAt(1, 2), 2);
  EXPECT_EQ(map.PortAt(1, 4), kNoPort);
  EXPECT_EQ(map.MaxIbPort(1), 3);
  EXPECT_EQ(map.PortByGuid(0xA1FA000000000202ull), (IbPortRef{2, 2}));
  EXPECT_EQ(map.PortByGuid(0xA1FA000000000100ull), (IbPortRef{1, 0}));  // a switch: port 0
  EXPECT_FALSE(map.PortByGuid(0xA1FA000000000200ull).has_value());     // a CA node GUID names no port
}

TEST(IbLidMap, LidsAndGuid2Lid) {
  const Topology t = Small();
  IbLidMap map = IbLidMap::ForTopology(t);
  const char* guid2lid =
      "0xa1fa000000000001 0x0001 0x0001\n\n"
      "0xa1fa000000000100 0x0003 0x0003\n\n"
      "0xa1fa000000000201 0x0002 0x0002\n";
  ASSERT_TRUE(ReadOpensmGuid2Lid(guid2lid, "guid2lid", map).ok());
  EXPECT_EQ(map.PortByLid(3), (IbPortRef{1, 0}));
  EXPECT_EQ(map.LidOf({2, 1}), 2);
  EXPECT_EQ(map.LidOf({2, 2}), 0);
  EXPECT_FALSE(map.PortByLid(9).has_value());
  EXPECT_THAT(map.SetLid(3, {0, 1}).error().message, HasSubstr("LID 3 is given to two ports"));
  EXPECT_THAT(map.SetLid(0xC000, {0, 1}).error().message, HasSubstr("not a unicast LID"));
  EXPECT_EQ(ReadOpensmGuid2Lid("0xa1fa000000000001 0x1\n", "g2l", map).error().message,
            "g2l:1: expected '0x<port guid> 0x<base lid> 0x<max lid>', got '0xa1fa000000000001 0x1'");
  EXPECT_EQ(ReadOpensmGuid2Lid("\n0x77 0x5 0x5\n", "g2l", map).error().message,
            "g2l:2: port GUID 0x77 is not in the fabric");
}

// 4 x 100 = 400G is 4xNDR; 1 x 25 = 25G is 1xEDR; 56G is 4xFDR (nominal).
TEST(IbLidMap, LinkRateNames) {
  EXPECT_EQ(ParseIbLinkRate("4xNDR").value(), DataRate::Gbps(400));
  EXPECT_EQ(ParseIbLinkRate("4xXDR").value(), DataRate::Gbps(800));
  EXPECT_EQ(ParseIbLinkRate("12xQDR").value(), DataRate::Gbps(120));
  EXPECT_EQ(ParseIbLinkRate("4xFDR10").value(), DataRate::Gbps(40));
  EXPECT_EQ(ParseIbLinkRate("1xSDR").value(), DataRate::Mbps(2500));
  EXPECT_FALSE(ParseIbLinkRate("3xNDR").ok());
  EXPECT_THAT(ParseIbLinkRate("4xGDR").error().message, HasSubstr("expected a link speed SDR"));
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(400)), "4xNDR");
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(100)), "4xEDR");
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(40)), "4xQDR");
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(56)), "4xFDR");
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(25)), "1xEDR");
  EXPECT_EQ(IbLinkRateName(DataRate::Gbps(37)), "");
}

}  // namespace
}  // namespace aifabric
