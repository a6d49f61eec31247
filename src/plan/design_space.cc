#include "plan/design_space.h"

#include <cctype>
#include <cstdio>

namespace aifabric {
namespace {

bool ServesKind(const SwitchSpec& s, FabricKind kind) {
  return (s.family == SwitchFamily::kInfiniband) == (kind == FabricKind::kIb);
}

std::string DesignName(const Design& d, bool name_balancing) {
  std::string name = std::string(FabricKindName(d.kind)) + "-" + std::to_string(d.link_gbps) + "g-" +
                     TopologyTypeName(d.topology) + "-" + OversubscriptionName(d.oversubscription) + "-" +
                     d.switch_name;
  if (name_balancing) name += std::string("-") + LoadBalancingName(d.load_balancing);
  // The name is also a file name (designs/<name>.yaml): a catalog or price
  // file name with other characters cannot reach outside the folder.
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return name;
}

const NicSpec* CheapestNic(const Catalog& catalog, int link_gbps) {
  const NicSpec* best = nullptr;
  for (const NicSpec& n : catalog.nics()) {
    if (n.rate != DataRate::Gbps(link_gbps)) continue;
    if (!best || n.cost.price_usd < best->cost.price_usd) best = &n;
  }
  return best;
}

}  // namespace

const char* FabricKindName(FabricKind kind) { return kind == FabricKind::kIb ? "ib" : "roce"; }

const char* LoadBalancingName(LoadBalancing lb) {
  switch (lb) {
    case LoadBalancing::kEcmp: return "ecmp";
    case LoadBalancing::kFlowlet: return "flowlet";
    case LoadBalancing::kSpray: return "spray";
    case LoadBalancing::kAdaptive: return "adaptive";
  }
  return "?";
}

std::string OversubscriptionName(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%gto1", ratio);
  return buf;
}

DesignSweep EnumerateDesigns(const PlanRequirements& r, const Catalog& catalog) {
  DesignSweep sweep;
  const DesignSpace& s = r.space;
  for (FabricKind kind : s.fabric_kinds) {
    const char* kind_name = FabricKindName(kind);
    if (r.constraints.ecosystem && *r.constraints.ecosystem != kind) {
      sweep.rejected.push_back({std::string(kind_name) + "-*",
                                std::string("constraints.ecosystem is ") + FabricKindName(*r.constraints.ecosystem)});
      continue;
    }
    const std::vector<LoadBalancing>& balancing =
        kind == FabricKind::kIb ? s.ib_load_balancing : s.roce_load_balancing;
    for (int gbps : s.link_gbps) {
      const std::string speed = std::string(kind_name) + "-" + std::to_string(gbps) + "g";
      const NicSpec* nic = CheapestNic(catalog, gbps);
      std::vector<const SwitchSpec*> switches;
      for (const SwitchSpec& sw : catalog.switches()) {
        const bool named = s.switches.empty();
        bool listed = named;
        for (const std::string& want : s.switches) listed = listed || want == sw.name;
        if (listed && ServesKind(sw, kind) && sw.port_rate == DataRate::Gbps(gbps)) switches.push_back(&sw);
      }
      if (!nic || switches.empty()) {
        sweep.rejected.push_back(
            {speed + "-*", !nic ? "the catalog has no " + std::to_string(gbps) + "G NIC"
                                : std::string("no ") + (kind == FabricKind::kIb ? "InfiniBand" : "Ethernet") +
                                      " switch with " + std::to_string(gbps) + "G ports" +
                                      (s.switches.empty() ? " in the catalog" : " among design_space.switches")});
        continue;
      }
      for (TopologyType topology : s.topologies) {
        for (double ratio : s.oversubscription) {
          for (const SwitchSpec* sw : switches) {
            for (LoadBalancing lb : balancing) {
              Design d;
              d.kind = kind;
              d.link_gbps = gbps;
              d.topology = topology;
              d.oversubscription = ratio;
              d.switch_name = sw->name;
              d.nic_name = nic->name;
              d.load_balancing = lb;
              d.name = DesignName(d, balancing.size() > 1);
              if (ratio > r.constraints.max_oversubscription) {
                sweep.rejected.push_back({d.name, "oversubscription " + OversubscriptionName(ratio) +
                                                      " is above constraints.max_oversubscription"});
                continue;
              }
              sweep.designs.push_back(std::move(d));
            }
          }
        }
      }
    }
  }
  return sweep;
}

}  // namespace aifabric
