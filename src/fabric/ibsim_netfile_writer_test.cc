#include "fabric/ibsim_netfile_writer.h"

#include <gtest/gtest.h>

#include "fabric/ibnetdiscover_reader.h"

namespace aifabric {
namespace {

//   h0 -100G- s2 -200G- s3 -37G- h1
Topology Chain() {
  Topology t;
  t.AddHost("h0");
  t.AddHost("h1");
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  t.AddSwitch("s2", 1, spec);
  t.AddSwitch("s3", 2, spec);
  t.AddLink(0, 2, DataRate::Gbps(100), Time::Zero());
  t.AddLink(2, 3, DataRate::Gbps(200), Time::Zero());
  t.AddLink(3, 1, DataRate::Gbps(37), Time::Zero());
  return t;
}

// Hosts first; GUIDs 0xa1fa...00 + (id << 8); 100G = 4xEDR, 200G = 4xHDR,
// 37G has no IB name so its lines carry no rate.
TEST(IbsimNetFile, WritesIbsimFormat) {
  EXPECT_EQ(WriteIbsimNetFile(Chain()),
            "# aifabric fabric: 2 hosts, 2 switches, 3 links (ibsim net file)\n"
            "\n"
            "caguid=0xa1fa000000000000\n"
            "Hca\t1 \"h0\"\t# \"h0\"\n"
            "[1]\t\"s2\"[1]\t# \"s2\" lid 0 4xEDR\n"
            "\n"
            "caguid=0xa1fa000000000100\n"
            "Hca\t1 \"h1\"\t# \"h1\"\n"
            "[1]\t\"s3\"[2]\t# \"s3\"\n"
            "\n"
            "switchguid=0xa1fa000000000200\n"
            "Switch\t2 \"s2\"\t# \"s2\"\n"
            "[1]\t\"h0\"[1]\t# \"h0\" lid 0 4xEDR\n"
            "[2]\t\"s3\"[1]\t# \"s3\" lid 0 4xHDR\n"
            "\n"
            "switchguid=0xa1fa000000000300\n"
            "Switch\t2 \"s3\"\t# \"s3\"\n"
            "[1]\t\"s2\"[2]\t# \"s2\" lid 0 4xHDR\n"
            "[2]\t\"h1\"[1]\t# \"h1\"\n"
            "\n");
}

TEST(IbsimNetFile, NamesIbsimCannotTakeAreReplaced) {
  Topology t;
  t.AddHost("a#b");
  t.AddHost("dup");
  t.AddHost("dup");
  t.AddHost("node0");
  EXPECT_EQ(IbsimNodeIds(t), (std::vector<std::string>{"node0", "node1", "node2", "node0_"}));
}

// Written, then read back as an ibnetdiscover file: same ids, names, links,
// rates (37G falls back to the default rate given), GUIDs and port numbers.
TEST(IbsimNetFile, ReadsBackWithTheSameIds) {
  const Topology t = Chain();
  IbnetdiscoverOptions options;
  options.default_rate = DataRate::Gbps(37);
  Result<IbFabric> back = ReadIbnetdiscover(WriteIbsimNetFile(t), "net", options);
  ASSERT_TRUE(back.ok()) << back.error().message;
  const Topology& b = back->topology;
  ASSERT_EQ(b.num_nodes(), t.num_nodes());
  ASSERT_EQ(b.num_links(), t.num_links());
  const IbLidMap want = IbLidMap::ForTopology(t);
  for (const Node& n : t.nodes()) {
    EXPECT_EQ(b.node(n.id).name, n.name);
    EXPECT_EQ(b.node(n.id).kind, n.kind);
    EXPECT_EQ(back->lids.node_guid(n.id), want.node_guid(n.id));
  }
  for (const Port& p : t.ports()) {
    const PortId q = back->lids.PortAt(p.node, want.IbPort(p.id));
    ASSERT_NE(q, kNoPort);
    EXPECT_EQ(b.port(q).peer, p.peer);
    EXPECT_EQ(b.port(q).rate, p.rate);
  }
  EXPECT_EQ(b.node(2).tier, 1);
  EXPECT_EQ(b.node(3).tier, 1);  // one hop from h1
}

}  // namespace
}  // namespace aifabric
