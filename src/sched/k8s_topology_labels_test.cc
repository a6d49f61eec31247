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

  // A leaf name that is not a label value (Lingjun-style names may hold '/').
  Topology t;
  t.AddHost("h0", 0, 0);
  const NodeId leaf = t.AddSwitch("row1/leaf", 1, t.AddSwitchSpec(SwitchSpec{}));
  t.AddLink(0, leaf, DataRate::Gbps(100), Time::Zero());
  Result<std::string> cmds = FormatKubectlLabelCommands(t, Layout(t), defaults);
  ASSERT_FALSE(cmds.ok());
  EXPECT_NE(cmds.error().message.find("switch \"row1/leaf\" (leaf of server 0)"), std::string::npos)
      << cmds.error().message;
}

}  // namespace
}  // namespace aifabric
