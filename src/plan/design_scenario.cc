#include "plan/design_scenario.h"

#include <iomanip>
#include <sstream>

#include "fabric/topology_builder.h"

namespace aifabric {

std::string DesignScenarioYaml(const PlanRequirements& r, const Design& d, const TopologyKnobs& knobs) {
  std::ostringstream y;
  y << "# Design " << d.name << " of plan " << r.name << " (aifabric plan); run alone with\n"
    << "#   aifabric run THIS_FILE\n";
  y << "name: " << r.name << "-" << d.name << "\n";
  y << "seed: " << r.seed << "\n";
  y << "cluster: {servers: " << r.servers() << ", gpus_per_server: " << r.gpus_per_server << ", gpu: " << r.gpu
    << ", nic: {model: " << d.nic_name << ", per_gpu: " << r.nics_per_gpu << "}}\n";
  y << "fabric:\n";
  y << "  kind: " << FabricKindName(d.kind) << "\n";
  y << "  topology: {type: " << TopologyTypeName(d.topology) << ", oversubscription: " << d.oversubscription;
  if (knobs.hosts_per_leaf > 0) y << ", hosts_per_leaf: " << knobs.hosts_per_leaf;
  if (knobs.spines > 0) y << ", spines: " << knobs.spines;
  if (knobs.tiers > 0) y << ", tiers: " << knobs.tiers;
  y << "}\n";
  y << "  switch: " << d.switch_name << "\n";
  y << "  mtu: 4KiB\n";
  y << "  load_balancing: " << LoadBalancingName(d.load_balancing) << "\n";
  y << "simulation: {model: flow, telemetry: {enabled: false}}\n";
  y << "workload:\n";
  for (const PlanWorkload& w : r.workloads) y << "  - " << w.entry_yaml << "\n";
  return y.str();
}

std::string SimulationKey(const PlanRequirements& r, const Design& d, const SwitchSpec& sw, const TopologyKnobs& knobs) {
  Design simulated = d;
  simulated.name.clear();
  std::ostringstream figures;
  figures << std::setprecision(17) << "{radix: " << sw.radix << ", port_rate_bps: " << sw.port_rate.bps() << ", latency_ps: " << sw.latency.ps()
          << ", capacity_tbps: " << sw.capacity_tbps
          << ", family: " << static_cast<int>(sw.family) << "}";
  simulated.switch_name = figures.str();
  return DesignScenarioYaml(r, simulated, knobs);
}

}  // namespace aifabric
