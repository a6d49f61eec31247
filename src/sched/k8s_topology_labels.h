// Kubernetes node topology labels for topology-aware scheduling in the Kueue
// style, written from the modeled fabric: each server (a Kubernetes node)
// gets a block label (its pod) and a rack label (its leaf), and a Kueue
// `Topology` object names the levels, coarsest first, ending with
// kubernetes.io/hostname. Free functions over read-only inputs; thread-safe.
//
// Sources: Kueue, "Topology" concept and "Topology Aware Scheduling"
// (https://kueue.sigs.k8s.io/docs/concepts/topology): a cluster-scoped
// Topology with spec.levels, a list of {nodeLabel: ...} from highest to
// lowest; 1-16 unique levels; kubernetes.io/hostname only as the last one;
// its example labels are cloud.provider.com/topology-block and
// cloud.provider.com/topology-rack, the defaults here. The API group was
// kueue.x-k8s.io/v1alpha1 when TAS arrived (Kueue v0.9); current docs show
// v1beta2, so the version is an option. NVIDIA's KAI scheduler reads the
// same levels list (kai.scheduler/v1alpha1 Topology).
//
// Mapping (the same home leaf as slurm_topology.h: the first switch of the
// server's rail-0 NIC):
//   rack  = the home leaf's switch name;
//   block = "pod<p>" with p the home leaf's Node::pod (3-tier fat-trees,
//           Lingjun); a 2-tier fabric (pod -1) is one block, "pod0".
// So servers under one leaf share a rack, and one pod a block.
//
// Outputs: kubectl label commands, one line per node (kubernetes.io/hostname
// is set by the kubelet and is not relabelled), and the Topology YAML.
// Servers in ClusterLayout order; deterministic.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/slurm_topology.h"

namespace aifabric {

inline constexpr const char* kHostnameLabel = "kubernetes.io/hostname";

struct K8sTopologyLabelOptions {
  NodeNamer namer;  // node names; must match the Kubernetes node names
  std::string block_label = "cloud.provider.com/topology-block";
  std::string rack_label = "cloud.provider.com/topology-rack";
  std::string topology_name = "default";                // metadata.name of the Topology
  std::string api_version = "kueue.x-k8s.io/v1alpha1";  // or kueue.x-k8s.io/v1beta2
};

// One node's labels.
struct NodeTopologyLabels {
  int server = -1;
  std::string node;   // the node name (also its kubernetes.io/hostname)
  std::string block;  // value of block_label
  std::string rack;   // value of rack_label
};

// Checks the options: namer valid; label keys non-empty, made of
// [A-Za-z0-9./_-], distinct, not kubernetes.io/hostname; topology_name a
// lowercase DNS name; api_version non-empty.
Status ValidateK8sTopologyLabelOptions(const K8sTopologyLabelOptions& options);

// The labels of every server, in server order. The rack value is the leaf
// switch's name with every character outside [A-Za-z0-9._-] made '.'
// (Lingjun's "P10/S14" -> "P10.S14"); the block is the leaf's pod, or, when
// the switches carry none (read topologies), TopologyDistance's pod. Errors
// when the options are invalid, a server attaches to no switch, a leaf's
// value is still not a label value (over 63 characters, or not starting
// and ending with a letter or digit), or two leaves share a value.
Result<std::vector<NodeTopologyLabels>> BuildNodeTopologyLabels(const Topology& topology, const ClusterLayout& layout,
                                                                const K8sTopologyLabelOptions& options = {});

// A shell script of `kubectl label node <name> <block>=<v> <rack>=<v>
// --overwrite` lines, one per server, after a "#" comment line.
Result<std::string> FormatKubectlLabelCommands(const Topology& topology, const ClusterLayout& layout,
                                               const K8sTopologyLabelOptions& options = {});

// The Kueue Topology object (YAML): levels block, rack, hostname.
Result<std::string> FormatKueueTopology(const K8sTopologyLabelOptions& options = {});

}  // namespace aifabric
