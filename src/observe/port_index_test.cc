#include "observe/port_index.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "observe/observe_test_fabric.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using observe_testing::HostUp;
using observe_testing::SwitchDown;

TEST(PortIndex, NamesTheDirectedPortByNodeAndPeer) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  const PortIndex index(t);
  // Our own exposition: node = the sender, port = the peer's name.
  Result<PortId> down = index.Find({{"__name__", "x"}, {"node", "sw"}, {"port", "h2"}}, AifabricExporter());
  ASSERT_TRUE(down.ok()) << down.error().message;
  EXPECT_EQ(*down, SwitchDown(2));
  EXPECT_EQ(t.port(*down).node, t.FindByName("sw"));
  Result<PortId> up = index.Find({{"node", "h1"}, {"port", "sw"}, {"priority", "3"}}, AifabricExporter());
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(*up, HostUp(1));
  // infiniband-exporter: one cable end per series, local_name -> remote_name.
  Result<PortId> ib = index.Find({{"local_name", "h0"}, {"remote_name", "sw"}, {"local_port", "1"}},
                                 InfinibandExporter());
  ASSERT_TRUE(ib.ok());
  EXPECT_EQ(*ib, HostUp(0));
}

TEST(PortIndex, ErrorsNameTheSeriesAndTheLabel) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  const PortIndex index(t);
  Result<PortId> unknown = index.Find({{"__name__", "m"}, {"node", "sw"}, {"port", "h9"}}, AifabricExporter());
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.error().message,
              HasSubstr("series m{node=\"sw\",port=\"h9\"}: label port=\"h9\" names no node of the topology (4 nodes"));
  Result<PortId> unlinked = index.Find({{"node", "h0"}, {"port", "h1"}}, AifabricExporter());
  ASSERT_FALSE(unlinked.ok());
  EXPECT_THAT(unlinked.error().message, HasSubstr("the topology has no link from h0 to h1"));
  Result<PortId> missing = index.Find({{"node", "h0"}}, AifabricExporter());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("no label port (exporter aifabric names a port by node and port)"));
}

}  // namespace
}  // namespace aifabric
