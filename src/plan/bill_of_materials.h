// The bill of materials of a built fabric: its switches by tier, one NIC
// per host port, and one link medium per link, the cheapest the catalog has
// at the link's rate that reaches the tier's cable length
// (PlanCosts::cable), each line priced and powered from the catalog. A
// line keeps whether its price is an assumption (a catalog entry marked
// so). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/catalog.h"
#include "fabric/topology.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct BillLine {
  std::string category;  // "switch" | "nic" | "link"
  std::string part;      // the catalog entry
  std::string where;     // "leaf", "spine", "agg", "core"; "host"; "host-leaf", "leaf-spine", ...
  int64_t count = 0;
  double unit_price_usd = 0;
  double unit_power_w = 0;
  bool price_assumed = false;
  double price_usd() const { return static_cast<double>(count) * unit_price_usd; }
  double power_w() const { return static_cast<double>(count) * unit_power_w; }
};

struct BillOfMaterials {
  std::vector<BillLine> lines;  // switches by tier, NICs, links by tier pair
  int64_t switches = 0;
  int64_t links = 0;            // every cable, host links included
  int tiers = 0;                // switch tiers
  double cost_usd() const;
  double power_w() const;
  bool any_price_assumed() const;
};

// The cable length of a link whose upper end sits at `upper_tier` (1: NIC
// to leaf, 2: leaf to spine or agg, 3: agg to core).
double TierCableLengthM(int upper_tier, const CableLengths& cable);

// Names of the switch tiers of a fabric with `tiers` tiers: leaf, spine
// (two tiers) or leaf, agg, core (three).
std::string TierName(int tier, int tiers);

// Errors: a link whose rate and reach no catalog medium covers (naming
// both), a switch or NIC the catalog does not know.
Result<BillOfMaterials> PriceFabric(const Topology& topology, const std::string& nic_name,
                                    const CableLengths& cable, const Catalog& catalog);

}  // namespace aifabric
