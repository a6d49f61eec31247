// Slurm topology.conf for the topology/tree plugin, written from the modeled
// fabric: one line per switch, `SwitchName=<name> Nodes=<hostlist>` for the
// switches servers attach to and `SwitchName=<name> Switches=<hostlist>` for
// the tiers above. Also the pieces it needs, shared with the Kubernetes
// labels (k8s_topology_labels.h): how servers are named (NodeNamer), each
// server's home leaf (ServerHomeLeaves), and Slurm's hostlist compression.
// Free functions over read-only inputs; thread-safe.
//
// Format (Slurm topology.conf(5), https://slurm.schedmd.com/topology.conf.html
// and the Debian/Ubuntu man pages of slurm-client 15.08-24.11): parameter
// names are case-insensitive, "#" starts a comment; SwitchName is required
// and unique; each line gives either Nodes (child nodes of a leaf switch) or
// Switches (child switches); both take Slurm hostlist expressions such as
// "tux[0-3,12,18-20]"; LinkSpeed is optional, "the units used are arbitrary
// and this information is currently not used".
//
// Choices, stated because a fabric is not always a tree:
//  * A server's home leaf is the first switch (in port creation order) that
//    its first NIC (rail 0, ClusterLayout::nics(s)[0]) links to. On a
//    rail-optimized fabric each server is listed once, under its rail-0
//    leaf; the leaves of the other rails hold no home servers and are left
//    out, as are upper switches left with no listed child (Slurm requires
//    Nodes or Switches on every line). So every server appears exactly once
//    at the leaf level.
//  * Above the leaves the file is faithful to the cabling: each switch of
//    tier t lists every lower-tier switch it links to that is itself
//    listed. In a Clos a leaf therefore appears under several parents (each
//    spine lists every leaf); merging equivalent spines into one virtual
//    switch is not done here.
//  * LinkSpeed (when asked for) is the fastest link from the switch to the
//    children it lists, in whole Gb/s.
//  * Lines are ordered by tier, then node id; each hostlist is sorted.
// The topology/block plugin (BlockName=/BlockSizes=) is not written.
#pragma once

#include <string>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"

namespace aifabric {

// Names servers for schedulers: server s (its ClusterLayout index) is
// prefix + (s + first_number) zero-padded to `digits` digits. Defaults give
// node0001 for server 0, so 128 servers compress to "node[0001-0128]". The
// prefix must be non-empty, lowercase letters, digits and '-' (valid both as
// a Slurm node name and a Kubernetes node name) and must not end in a digit
// (the number would run into it).
struct NodeNamer {
  std::string prefix = "node";
  int digits = 4;        // zero padding; numbers wider than this are not cut
  int first_number = 1;  // the number of server 0

  Status Validate() const;
  // REQUIRES: Validate().ok(), server >= 0.
  std::string Name(int server) const;
};

// Compresses names into a Slurm hostlist expression: names are split into a
// prefix and a trailing decimal number; names with the same prefix merge
// into "prefix[a-b,c]" (ranges of consecutive numbers, ascending; brackets
// only when the group has two or more names). Zero padding is kept: a
// zero-padded number ("n08") groups only with numbers of its digit count
// ({"n08","n09","n10","n11"} -> "n[08-11]"); unpadded numbers group together
// whatever their length ("n9,n10" -> "n[9-10]"), as Slurm parses them.
// Groups are sorted by (prefix, width, unpadded first) and joined with ",";
// names without a trailing number stand alone. Duplicates are dropped.
// Empty input gives "".
std::string CompressHostlist(const std::vector<std::string>& names);

// The home leaf of each server (by ClusterLayout index): the first switch
// its rail-0 NIC links to (see above). Errors, naming the NIC, when a NIC
// has no switch.
Result<std::vector<NodeId>> ServerHomeLeaves(const Topology& topology, const ClusterLayout& layout);

struct SlurmTopologyOptions {
  NodeNamer namer;
  bool link_speed = false;  // append LinkSpeed=<Gb/s> to each line
  bool header = true;       // a leading "# ..." comment line
};

// One topology.conf line.
struct SlurmSwitchLine {
  NodeId node = kNoNode;
  std::string name;
  int tier = 0;
  std::vector<std::string> nodes;     // leaf switches: server names, sorted
  std::vector<std::string> switches;  // upper switches: child switch names
  int link_speed_gbps = 0;
};

// The lines of the tree, in output order. Errors when the options are
// invalid, a switch name is not a valid Slurm name (empty, or holds a space,
// ',', '[', ']', '=' or '#'), a switch has an unknown tier (< 1), or a
// server's NIC has no switch.
Result<std::vector<SlurmSwitchLine>> BuildSlurmTree(const Topology& topology, const ClusterLayout& layout,
                                                    const SlurmTopologyOptions& options = {});

// The whole topology.conf text, one line per switch, each ending in '\n'.
Result<std::string> FormatSlurmTopologyConf(const Topology& topology, const ClusterLayout& layout,
                                            const SlurmTopologyOptions& options = {});

}  // namespace aifabric
