#include "sched/k8s_topology_labels.h"

#include <optional>
#include <unordered_map>

#include "sched/topology_distance.h"

namespace aifabric {
namespace {

bool Alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool ValidLabelValue(const std::string& v) {
  if (v.empty() || v.size() > 63 || !Alnum(v.front()) || !Alnum(v.back())) return false;
  for (char c : v) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

Status CheckLabelKey(const std::string& field, const std::string& key) {
  bool ok = !key.empty() && key.size() <= 316 && Alnum(key.back());
  for (char c : key) ok = ok && (Alnum(c) || c == '-' || c == '_' || c == '.' || c == '/');
  if (!ok) {
    return Error{"k8s labels: " + field + " is \"" + key +
                 "\"; expected a label key of letters, digits, '.', '/', '_' and '-'"};
  }
  if (key == kHostnameLabel) {
    return Error{"k8s labels: " + field + " is kubernetes.io/hostname; that level is always the last one, added here"};
  }
  return Status::Ok();
}

// A switch name as a label value: every character outside [A-Za-z0-9._-]
// becomes '.' (Lingjun's "P10/S14" -> "P10.S14").
std::string AsLabelValue(const std::string& name) {
  std::string v = name;
  for (char& c : v) {
    if (!Alnum(c) && c != '-' && c != '_' && c != '.') c = '.';
  }
  return v;
}

}  // namespace

Status ValidateK8sTopologyLabelOptions(const K8sTopologyLabelOptions& options) {
  if (Status st = options.namer.Validate(); !st.ok()) return st;
  if (Status st = CheckLabelKey("block_label", options.block_label); !st.ok()) return st;
  if (Status st = CheckLabelKey("rack_label", options.rack_label); !st.ok()) return st;
  if (options.block_label == options.rack_label) {
    return Error{"k8s labels: block_label and rack_label are both \"" + options.block_label +
                 "\"; expected distinct keys (Kueue levels must be unique)"};
  }
  bool name_ok = !options.topology_name.empty() && options.topology_name.size() <= 253 &&
                 Alnum(options.topology_name.front()) && Alnum(options.topology_name.back());
  for (char c : options.topology_name) name_ok = name_ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.');
  if (!name_ok) {
    return Error{"k8s labels: topology_name is \"" + options.topology_name +
                 "\"; expected a lowercase DNS name (a-z, 0-9, '-', '.')"};
  }
  if (options.api_version.empty()) return Error{"k8s labels: api_version is empty; expected e.g. kueue.x-k8s.io/v1alpha1"};
  return Status::Ok();
}

Result<std::vector<NodeTopologyLabels>> BuildNodeTopologyLabels(const Topology& topology, const ClusterLayout& layout,
                                                                const K8sTopologyLabelOptions& options) {
  if (Status st = ValidateK8sTopologyLabelOptions(options); !st.ok()) return st.error();
  Result<std::vector<NodeId>> home = ServerHomeLeaves(topology, layout);
  if (!home.ok()) return home.error();
  std::vector<NodeTopologyLabels> out;
  out.reserve(home->size());
  std::unordered_map<std::string, NodeId> leaf_of_value;  // two leaves must not share a value
  std::optional<TopologyDistance> distance;  // pods for fabrics whose switches carry none
  for (int s = 0; s < layout.servers(); ++s) {
    const NodeId leaf_id = (*home)[static_cast<size_t>(s)];
    const Node& leaf = topology.node(leaf_id);
    const std::string value = AsLabelValue(leaf.name);
    if (!ValidLabelValue(value)) {
      return Error{"k8s labels: switch \"" + leaf.name + "\" (leaf of server " + std::to_string(s) +
                   ") is not a valid label value; expected at most 63 characters of letters, digits, '.', '_' "
                   "and '-', starting and ending with a letter or digit"};
    }
    if (const auto [it, fresh] = leaf_of_value.try_emplace(value, leaf_id); !fresh && it->second != leaf_id) {
      return Error{"k8s labels: switches \"" + topology.node(it->second).name + "\" and \"" + leaf.name +
                   "\" both become the label value \"" + value + "\""};
    }
    int pod = leaf.pod;
    if (pod < 0) {
      if (!distance) distance.emplace(topology, layout);
      pod = distance->pod_of(s);
    }
    NodeTopologyLabels l;
    l.server = s;
    l.node = options.namer.Name(s);
    l.block = "pod" + std::to_string(pod);
    l.rack = value;
    out.push_back(std::move(l));
  }
  return out;
}

Result<std::string> FormatKubectlLabelCommands(const Topology& topology, const ClusterLayout& layout,
                                               const K8sTopologyLabelOptions& options) {
  Result<std::vector<NodeTopologyLabels>> labels = BuildNodeTopologyLabels(topology, layout, options);
  if (!labels.ok()) return labels.error();
  std::string out = "# Kubernetes node topology labels written by aifabric (" + std::to_string(labels->size()) +
                    " nodes); levels: " + options.block_label + ", " + options.rack_label + ", " + kHostnameLabel +
                    "\n";
  for (const NodeTopologyLabels& l : *labels) {
    out += "kubectl label node " + l.node + " " + options.block_label + "=" + l.block + " " + options.rack_label +
           "=" + l.rack + " --overwrite\n";
  }
  return out;
}

Result<std::string> FormatKueueTopology(const K8sTopologyLabelOptions& options) {
  if (Status st = ValidateK8sTopologyLabelOptions(options); !st.ok()) return st.error();
  return "apiVersion: " + options.api_version +
         "\n"
         "kind: Topology\n"
         "metadata:\n"
         "  name: \"" + options.topology_name +
         "\"\n"
         "spec:\n"
         "  levels:\n"
         "  - nodeLabel: \"" + options.block_label +
         "\"\n"
         "  - nodeLabel: \"" + options.rack_label +
         "\"\n"
         "  - nodeLabel: \"" + std::string(kHostnameLabel) + "\"\n";
}

}  // namespace aifabric
