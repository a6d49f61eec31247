#include "sched/k8s_topology_labels.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

using sched_testing::FatTree4;
using sched_testing::Layout;
using sched_testing::LeafSpine2x2;

TEST(K8sTopologyLabels, LeafSpineKubectlCommands) {
  // A 2-tier fabric is one block (pod0); the rack is the leaf.
  const Topology t = LeafSpine2x2();
  const K8sTopologyLabelOptions opt;
  Result<std::string> cmds = FormatKubectlLabelCommands(t, Layout(t), opt);
  ASSERT_TRUE(cmds.ok()) << cmds.error().message;
  EXPECT_EQ(*cmds,
            "# Kubernetes node topology labels written by aifabric (4 nodes); levels: "
            "cloud.provider.com/topology-block, cloud.provider.com/topology-rack, kubernetes.io/hostname\n"
            "kubectl label node node0001 cloud.provider.com/topology-block=pod0 "
            "cloud.provider.com/topology-rack=leaf0 --overwrite\n"
            "kubectl label node node0002 cloud.provider.com/topology-block=pod0 "
            "cloud.provider.com/topology-rack=leaf0 --overwrite\n"
            "kubectl label node node0003 cloud.provider.com/topology-block=pod0 "
            "cloud.provider.com/topology-rack=leaf1 --overwrite\n"
            "kubectl label node node0004 cloud.provider.com/topology-block=pod0 "
            "cloud.provider.com/topology-rack=leaf1 --overwrite\n");
}

TEST(K8sTopologyLabels, TwoPodFatTreeLabels) {
  // 8 servers on k = 4: pod 0 = leaf0 (servers 0-1), leaf1 (2-3);
  // pod 1 = leaf2 (4-5), leaf3 (6-7).
  const Topology t = FatTree4(8);
  K8sTopologyLabelOptions opt;
  opt.namer.prefix = "gpu-";
  opt.namer.digits = 2;
  opt.namer.first_number = 0;
  opt.block_label = "example.com/block";
  opt.rack_label = "example.com/rack";
  Result<std::vector<NodeTopologyLabels>> labels = BuildNodeTopologyLabels(t, Layout(t), opt);
  ASSERT_TRUE(labels.ok()) << labels.error().message;
  const char* racks[8] = {"leaf0", "leaf0", "leaf1", "leaf1", "leaf2", "leaf2", "leaf3", "leaf3"};
  const char* blocks[8] = {"pod0", "pod0", "pod0", "pod0", "pod1", "pod1", "pod1", "pod1"};
  ASSERT_EQ(labels->size(), 8u);
  for (int s = 0; s < 8; ++s) {
    const NodeTopologyLabels& l = (*labels)[static_cast<size_t>(s)];
    EXPECT_EQ(l.server, s);
    EXPECT_EQ(l.node, "gpu-0" + std::to_string(s));
    EXPECT_EQ(l.rack, racks[s]) << s;
    EXPECT_EQ(l.block, blocks[s]) << s;
  }
}

TEST(K8sTopologyLabels, FullFatTreeLabelsNestAndMatchTheCabling) {
  // Full k = 4 tree, 16 servers: server s sits under leaf s/2 in pod s/4
  // (hosts fill leaves, leaves fill pods, in order). Racks nest in blocks:
  // 8 racks of 2 servers, 4 blocks of 2 racks.
  const Topology t = FatTree4(16);
  const K8sTopologyLabelOptions opt;
  Result<std::vector<NodeTopologyLabels>> labels = BuildNodeTopologyLabels(t, Layout(t), opt);
  ASSERT_TRUE(labels.ok()) << labels.error().message;
  std::map<std::string, std::string> block_of_rack;
  std::map<std::string, int> rack_size;
  std::set<std::string> blocks;
  for (const NodeTopologyLabels& l : *labels) {
    EXPECT_EQ(l.rack, "leaf" + std::to_string(l.server / 2));
    EXPECT_EQ(l.block, "pod" + std::to_string(l.server / 4));
    auto [it, inserted] = block_of_rack.emplace(l.rack, l.block);
    EXPECT_EQ(it->second, l.block) << l.rack << " spans two blocks";
    ++rack_size[l.rack];
    blocks.insert(l.block);
  }
  EXPECT_EQ(rack_size.size(), 8u);
  for (const auto& [rack, n] : rack_size) EXPECT_EQ(n, 2) << rack;
  EXPECT_EQ(blocks.size(), 4u);
}

TEST(K8sTopologyLabels, KueueTopologyObject) {
  const K8sTopologyLabelOptions opt;
  Result<std::string> yaml = FormatKueueTopology(opt);
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  EXPECT_EQ(*yaml,
            "apiVersion: kueue.x-k8s.io/v1alpha1\n"
            "kind: Topology\n"
            "metadata:\n"
            "  name: \"default\"\n"
            "spec:\n"
            "  levels:\n"
            "  - nodeLabel: \"cloud.provider.com/topology-block\"\n"
            "  - nodeLabel: \"cloud.provider.com/topology-rack\"\n"
            "  - nodeLabel: \"kubernetes.io/hostname\"\n");
}

TEST(K8sTopologyLabels, BadOptionsAndNamesAreErrors) {
  auto message = [](const K8sTopologyLabelOptions& o) {
    Status st = ValidateK8sTopologyLabelOptions(o);
    return st.ok() ? std::string("ok") : st.error().message;
  };
  const K8sTopologyLabelOptions defaults;
  EXPECT_EQ(message(defaults), "ok");
  K8sTopologyLabelOptions same = defaults;
  same.rack_label = same.block_label;
  EXPECT_NE(message(same).find("distinct"), std::string::npos) << message(same);
  K8sTopologyLabelOptions hostname = defaults;
  hostname.block_label = kHostnameLabel;
  EXPECT_NE(message(hostname).find("block_label is kubernetes.io/hostname"), std::string::npos) << message(hostname);
  K8sTopologyLabelOptions space = defaults;
  space.rack_label = "rack label";
  EXPECT_NE(message(space).find("rack_label is \"rack label\""), std::string::npos) << message(space);
  K8sTopologyLabelOptions upper = defaults;
  upper.topology_name = "Default";
  EXPECT_NE(message(upper).find("topology_name"), std::string::npos) << message(upper);
  EXPECT_FALSE(FormatKueueTopology(upper).ok());

  // A leaf name that cannot become a label value even with '/' made '.'.
  Topology t;
  t.AddHost("h0", 0, 0);
  const NodeId leaf = t.AddSwitch("/leaf", 1, t.AddSwitchSpec(SwitchSpec{}));
  t.AddLink(0, leaf, DataRate::Gbps(100), Time::Zero());
  Result<std::string> cmds = FormatKubectlLabelCommands(t, Layout(t), defaults);
  ASSERT_FALSE(cmds.ok());
  EXPECT_NE(cmds.error().message.find("switch \"/leaf\" (leaf of server 0)"), std::string::npos)
      << cmds.error().message;
}

// Lingjun-style names ("P10/S14") become label values with '.'; two names
// that would become the same value are an error; switches without pods
// get TopologyDistance's (here two leaves under one spine: one pod).
TEST(K8sTopologyLabelsTest, SwitchNamesBecomeLabelValues) {
  Topology t;
  t.AddHost("h0", 0, 0);
  t.AddHost("h1", 1, 0);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId a = t.AddSwitch("P10/S14", 1, spec), b = t.AddSwitch("P10.S15", 1, spec);
  const NodeId spine = t.AddSwitch("D1", 2, spec);
  t.AddLink(0, a, DataRate::Gbps(100), Time::Zero());
  t.AddLink(1, b, DataRate::Gbps(100), Time::Zero());
  t.AddLink(a, spine, DataRate::Gbps(100), Time::Zero());
  t.AddLink(b, spine, DataRate::Gbps(100), Time::Zero());
  const K8sTopologyLabelOptions options;
  Result<std::vector<NodeTopologyLabels>> labels = BuildNodeTopologyLabels(t, Layout(t), options);
  ASSERT_TRUE(labels.ok()) << labels.error().message;
  EXPECT_EQ((*labels)[0].rack, "P10.S14");
  EXPECT_EQ((*labels)[1].rack, "P10.S15");
  EXPECT_EQ((*labels)[0].block, "pod0");
  EXPECT_EQ((*labels)[1].block, "pod0");
  Topology clash;
  clash.AddHost("h0", 0, 0);
  clash.AddHost("h1", 1, 0);
  const int s2 = clash.AddSwitchSpec(SwitchSpec{});
  const NodeId c = clash.AddSwitch("r1/x", 1, s2), d = clash.AddSwitch("r1.x", 1, s2);
  clash.AddLink(0, c, DataRate::Gbps(100), Time::Zero());
  clash.AddLink(1, d, DataRate::Gbps(100), Time::Zero());
  Result<std::vector<NodeTopologyLabels>> bad = BuildNodeTopologyLabels(clash, Layout(clash), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "k8s labels: switches \"r1/x\" and \"r1.x\" both become the label value \"r1.x\"");
}

}  // namespace
}  // namespace aifabric
