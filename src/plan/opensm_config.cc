#include "plan/opensm_config.h"

#include <fmt/format.h>

namespace aifabric {
namespace {

// OpenSM's routing_engine for fabric.ib.routing.
const char* EngineName(IbRouting::Engine engine) {
  switch (engine) {
    case IbRouting::kMinHop:
      return "minhop";
    case IbRouting::kFtree:
      return "ftree";
    case IbRouting::kShortestPaths:
      // The simulation spreads over every shortest path; OpenSM's min-hop
      // engine programs one of them per destination.
      return "minhop";
    case IbRouting::kOpensmDump:
    case IbRouting::kIbroute:
      return "file";
  }
  return "minhop";
}

// "vl:weight,..." of the VLs in (high) or out of (low) the high-priority
// table, in VL order; "0:0" (no entry that sends) when there are none.
Result<std::string> VlArbTable(const PacketConfig& packet, bool high) {
  std::string table;
  for (int vl = 0; vl < kNumPriorities; ++vl) {
    const QueueSchedulingConfig& q = packet.queues[static_cast<size_t>(vl)];
    if (q.strict != high) continue;
    if (q.dwrr_weight > 255) {
      return Error{fmt::format("fabric.ib.vlarb / fabric.qos: VL {}'s weight is {}; InfiniBand VL arbitration weights are 0..255",
                               vl, q.dwrr_weight)};
    }
    table += fmt::format("{}{}:{}", table.empty() ? "" : ",", vl, q.dwrr_weight);
  }
  return table.empty() ? std::string("0:0") : table;
}

}  // namespace

Result<OpenSmFiles> OpenSmConfig(const Scenario& scenario) {
  const PacketConfig& packet = scenario.packet;
  Result<std::string> high = VlArbTable(packet, true);
  if (!high.ok()) return high.error();
  Result<std::string> low = VlArbTable(packet, false);
  if (!low.ok()) return low.error();
  // LimitOfHighPriority in 4 KB units; 255 = unbounded (ib_section.cc).
  const uint64_t high_limit =
      packet.high_limit_bytes == kUnboundedHighPriority ? 255 : packet.high_limit_bytes / 4096;
  // SL 0..7 as the scenario maps them; SL 8..15 (no simulated flow uses
  // them) repeat that table.
  std::string sl2vl;
  for (int sl = 0; sl < 16; ++sl) sl2vl += fmt::format("{}{}", sl == 0 ? "" : ",", packet.ib.sl2vl[static_cast<size_t>(sl % 8)]);

  const IbRouting& routing = scenario.ib_routing;
  const bool from_file = routing.engine == IbRouting::kOpensmDump || routing.engine == IbRouting::kIbroute;
  OpenSmFiles files;
  std::string& c = files.opensm_conf;
  c += fmt::format("# OpenSM configuration of scenario {}, written by aifabric: the routing\n", scenario.name);
  c += "# engine and the QoS (SL-to-VL table, VL arbitration) the simulation used.\n";
  c += fmt::format("# Install beside partitions.conf in {}/ (README).\n\n", kOpenSmInstallDir);
  c += "# fabric.ib.routing\n";
  c += fmt::format("routing_engine {}\n", EngineName(routing.engine));
  if (routing.engine == IbRouting::kShortestPaths) {
    c += "# (the simulation spread traffic over every shortest path; minhop programs one per destination)\n";
  }
  if (from_file) {
    // OpenSM's file engine (osm_ucast_file.c) reads "Unicast lids ... guid
    // 0x..." headers and "0xLID PORT" lines: OpenSM's own dump and ibroute
    // output both have that layout.
    c += fmt::format("lfts_file {}/lfts.dump\n", kOpenSmInstallDir);
    files.lfts_source = routing.file;
  }
  if (packet.load_balancing != LoadBalancing::kEcmp) {
    c += "# (the simulation chose next hops per packet or flowlet, fabric.load_balancing; the\n"
         "#  subnet manager's tables above are the static routes beneath that)\n";
  }
  c += fmt::format("partition_config_file {}/partitions.conf\n\n", kOpenSmInstallDir);
  c += "# QoS: VLs 0-7 carry data; fabric.ib.sl2vl, fabric.ib.vlarb (or fabric.qos)\n";
  c += "qos TRUE\n";
  c += fmt::format("qos_max_vls {}\n", kNumPriorities);
  c += fmt::format("qos_high_limit {}\n", high_limit);
  c += fmt::format("qos_vlarb_high {}\n", *high);
  c += fmt::format("qos_vlarb_low {}\n", *low);
  c += fmt::format("qos_sl2vl {}\n", sl2vl);

  files.partitions_conf =
      "# The default partition, every port a full member. The simulation's traffic\n"
      "# classes are service levels within one partition (SL -> VL in opensm.conf),\n"
      "# not partitions, so there is no partition per class.\n"
      "Default=0x7fff, ipoib : ALL=full ;\n";

  std::string& r = files.readme;
  r += fmt::format("OpenSM configuration of scenario {} (written by aifabric; docs/switch_config.md).\n", scenario.name);
  r += fmt::format("Install and start: cp opensm.conf partitions.conf{} {}/ && opensm -F {}/opensm.conf\n",
                   from_file ? " lfts.dump" : "", kOpenSmInstallDir, kOpenSmInstallDir);
  r += fmt::format("Or run in place: opensm -F opensm.conf -P partitions.conf{}\n", from_file ? " -U lfts.dump" : "");
  return files;
}

}  // namespace aifabric
