// TopologySpec describes a fabric to build: the cluster's servers and NICs,
// the topology family and its sizing knobs. Plain struct with defaults; the
// scenario loader (src/scenario) fills it and the builders validate it.
#pragma once

#include <string>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/catalog.h"

namespace aifabric {

enum class TopologyType { kLeafSpine, kFatTree, kRailOptimized, kHpccFile, kLingjunFile, kIbnetdiscoverFile };

struct TopologySpec {
  TopologyType type = TopologyType::kLeafSpine;

  // The cluster.
  int servers = 1;
  int nics_per_server = 1;       // NICs (rails) per server; each NIC is a host node
  DataRate nic_rate = DataRate::Gbps(400);

  // Every switch uses this spec; links between switches run at its port rate,
  // host links at min(nic_rate, port_rate).
  SwitchSpec switch_spec;
  Time link_latency = Time::FromNs(500);

  // Downlink:uplink capacity ratio at the leaf (ToR/edge) tier. 1 = non-blocking.
  double oversubscription = 1.0;
  // Same ratio at the aggregation tier of a 3-tier fat-tree.
  double agg_oversubscription = 1.0;

  // Sizing knobs; 0 means "derive from the switch radix and oversubscription".
  int hosts_per_leaf = 0;   // leaf downlinks used by hosts
  int spines = 0;           // leaf_spine / rail_optimized: spine switches
  int k = 0;                // fat_tree: k-ary fat-tree (k pods, k/2 edge + k/2 agg per pod)
  int leaves_per_pod = 0;   // fat_tree general radix: edge switches per pod
  int aggs_per_pod = 0;     // fat_tree general radix: aggregation switches per pod
  int cores = 0;            // fat_tree general radix: core switches
  // rail_optimized: switch tiers, 2 (rail leaves + spines) or 3 (rail
  // leaves + aggregation in pods + cores, sized as fat_tree); 0 = 2 when a
  // leaf-spine holds the cluster, else 3.
  int tiers = 0;

  // Multi-homing (leaf_spine, fat_tree, rail_optimized). dual_tor: every
  // NIC's two ports go to the two ToRs of a ToR pair (Alibaba HPN, Qian et
  // al., SIGCOMM 2024: a 400G NIC as 2 x 200G, one port to each ToR), so a
  // NIC is a host node with two links at half the NIC rate, hashed per flow.
  // planes: that many independent copies of the switch fabric, NIC port p
  // on plane p (each NIC gets `planes` links at nic_rate / planes; with
  // dual_tor, 2 x planes). See fabric/clos_sizing.h (NicAttachment).
  bool dual_tor = false;
  int planes = 1;

  // For kHpccFile / kLingjunFile / kIbnetdiscoverFile: the file (absolute, already resolved).
  std::string file;
};

}  // namespace aifabric
