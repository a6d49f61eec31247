#include "fabric/ibnetdiscover_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aifabric {
namespace {

using ::testing::HasSubstr;

// What `ibnetdiscover` printed on ibsim 0.10 after OpenSM swept this fabric:
//   h0 -4xHDR- leaf0 -4xEDR- spine0,  h1 -4xSDR- leaf0
constexpr const char* kDiscovered = R"(#
# Topology file: generated on Sun Nov 29 15:01:19 2026
#
# Initiated from node 0002c90000000100 port 0002c90000000101

vendid=0x0
devid=0x0
sysimgguid=0x2c90000000020
switchguid=0x2c90000000020(2c90000000020)
Switch	8 "S-0002c90000000020"		# "spine0" base port 0 lid 4 lmc 0
[1]	"S-0002c90000000010"[3]		# "leaf0" lid 3 4xEDR

vendid=0x0
devid=0x0
sysimgguid=0x2c90000000010
switchguid=0x2c90000000010(2c90000000010)
Switch	8 "S-0002c90000000010"		# "leaf0" base port 0 lid 3 lmc 0
[1]	"H-0002c90000000100"[1](2c90000000101) 		# "h0" lid 1 4xHDR
[2]	"H-0002c90000000200"[1](2c90000000201) 		# "h1" lid 2 4xSDR
[3]	"S-0002c90000000020"[1]		# "spine0" lid 4 4xEDR

vendid=0x0
devid=0x0
sysimgguid=0x2c90000000200
caguid=0x2c90000000200
Ca	1 "H-0002c90000000200"		# "h1"
[1](2c90000000201) 	"S-0002c90000000010"[2]		# lid 2 lmc 0 "leaf0" lid 3 4xSDR

vendid=0x0
devid=0x0
sysimgguid=0x2c90000000100
caguid=0x2c90000000100
Ca	1 "H-0002c90000000100"		# "h0"
[1](2c90000000101) 	"S-0002c90000000010"[1]		# lid 1 lmc 0 "leaf0" lid 3 4xHDR
)";

// Hosts by GUID (h0 ...100 < h1 ...200), then switches (leaf0 ...10 <
// spine0 ...20); 4xHDR = 4 x 50 = 200G, 4xSDR = 10G, 4xEDR = 100G.
TEST(Ibnetdiscover, ReadsTheToolsOutput) {
  Result<IbFabric> f = ReadIbnetdiscover(kDiscovered, "ibnet.out");
  ASSERT_TRUE(f.ok()) << f.error().message;
  const Topology& t = f->topology;
  ASSERT_EQ(t.num_nodes(), 4u);
  ASSERT_EQ(t.num_links(), 3u);
  EXPECT_EQ(t.hosts(), (std::vector<NodeId>{0, 1}));
  EXPECT_EQ(t.node(0).name, "h0");
  EXPECT_EQ(t.node(1).name, "h1");
  EXPECT_EQ(t.node(2).name, "leaf0");
  EXPECT_EQ(t.node(3).name, "spine0");
  EXPECT_EQ(t.node(2).tier, 1);
  EXPECT_EQ(t.node(3).tier, 2);
  const IbLidMap& m = f->lids;
  EXPECT_EQ(m.node_guid(2), 0x2c90000000010ull);
  EXPECT_EQ(t.port(m.PortAt(2, 1)).peer, 0);
  EXPECT_EQ(t.port(m.PortAt(2, 2)).peer, 1);
  EXPECT_EQ(t.port(m.PortAt(2, 3)).peer, 3);
  EXPECT_EQ(t.port(m.PortAt(3, 1)).peer, 2);
  EXPECT_EQ(t.port(m.PortAt(2, 1)).rate, DataRate::Gbps(200));
  EXPECT_EQ(t.port(m.PortAt(2, 2)).rate, DataRate::Gbps(10));
  EXPECT_EQ(t.port(m.PortAt(3, 1)).rate, DataRate::Gbps(100));
  EXPECT_EQ(m.PortByLid(1), (IbPortRef{0, 1}));
  EXPECT_EQ(m.PortByLid(2), (IbPortRef{1, 1}));
  EXPECT_EQ(m.PortByLid(3), (IbPortRef{2, 0}));
  EXPECT_EQ(m.PortByLid(4), (IbPortRef{3, 0}));
  EXPECT_EQ(m.PortByGuid(0x2c90000000201ull), (IbPortRef{1, 1}));
}

// ibsim's own example (net-examples/net.2sw2path4hca2port style): no GUID
// lines, "Hca" blocks, no rates -> default rate, names from the ids.
TEST(Ibnetdiscover, ReadsIbsimNetFiles) {
  const char* net =
      "Switch\t8 \"Switch1\"\n"
      "[1]\t\"Hca1\"[1]\n"
      "[3]\t\"Switch2\"[3]\n"
      "\n"
      "Switch 8 \"Switch2\"\n"
      "[3]\t\"Switch1\"[3]\n"
      "\n"
      "Hca\t2 \"Hca1\"\n"
      "[1]\t\"Switch1\"[1]\n";
  IbnetdiscoverOptions options;
  options.default_rate = DataRate::Gbps(25);
  Result<IbFabric> f = ReadIbnetdiscover(net, "net", options);
  ASSERT_TRUE(f.ok()) << f.error().message;
  ASSERT_EQ(f->topology.num_nodes(), 3u);
  EXPECT_EQ(f->topology.node(0).name, "Hca1");
  EXPECT_EQ(f->topology.node(1).name, "Switch1");
  EXPECT_EQ(f->topology.port(0).rate, DataRate::Gbps(25));
  EXPECT_EQ(f->lids.IbPort(f->topology.node(1).ports[1]), 3);
}

TEST(Ibnetdiscover, ErrorsNameTheLine) {
  auto err = [](const std::string& text) {
    Result<IbFabric> f = ReadIbnetdiscover(text, "n");
    return f.ok() ? std::string("ok") : f.error().message;
  };
  EXPECT_EQ(err(""), "n:1: expected at least one 'Switch' or 'Ca' block");
  EXPECT_EQ(err("[1] \"x\"[1]\n"), "n:1: a '[port]' line before any 'Switch' or 'Ca' header");
  EXPECT_THAT(err("Switch\tx \"S-1\"\n"), HasSubstr("n:1: expected 'Switch <ports> \"<id>\"', got"));
  EXPECT_THAT(err("Rt\t1 \"R-1\"\n"), HasSubstr("n:1: IB routers"));
  EXPECT_THAT(err("hello\n"), HasSubstr("n:1: expected a 'Switch' or 'Ca' header"));
  EXPECT_THAT(err("caguid=zz\n"), HasSubstr("n:1: expected a hex GUID after 'caguid='"));
  EXPECT_EQ(err("Switch 4 \"a\"\n[1] \"b\"[1]\n"), "n:2: peer \"b\" is not described in the file");
  EXPECT_THAT(err("Switch 4 \"a\"\n[5] \"b\"[1]\n"), HasSubstr("n:2: port 5 of \"a\", which has ports 1..4"));
  EXPECT_THAT(err("Switch 4 \"a\"\n[1] \"b\"[1]\t# \"b\" lid 0 4xGDR\n"),
              HasSubstr("n:2: expected a link speed SDR"));
  EXPECT_THAT(err("Switch 4 \"a\"\n[1] \"b\" 1\n"), HasSubstr("n:2: expected '[<port>] \"<peer id>\"[<peer port>]'"));
  // a[1] -> b[1], but b[1] -> c[1].
  EXPECT_THAT(err("Switch 4 \"a\"\n[1] \"b\"[1]\n\nSwitch 4 \"b\"\n[1] \"c\"[1]\n\nSwitch 4 \"c\"\n[1] \"b\"[1]\n"),
              HasSubstr("n:5: \"b\"[1] is listed on line 2 as linked to \"a\"[1]"));
  EXPECT_THAT(err("Switch 4 \"a\"\n\nSwitch 4 \"a\"\n"), HasSubstr("n:3: node \"a\" is described twice (first on line 1)"));
  EXPECT_THAT(err("switchguid=0x5\nSwitch 4 \"a\"\n\nswitchguid=0x5\nSwitch 4 \"b\"\n"),
              HasSubstr("n:5: node \"b\" has the same GUID as \"a\" (line 2)"));
}

}  // namespace
}  // namespace aifabric
