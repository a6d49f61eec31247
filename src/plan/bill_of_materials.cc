#include "plan/bill_of_materials.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "core/units.h"

namespace aifabric {
namespace {

std::string Meters(double m) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g m", m);
  return buf;
}

std::string EndName(int tier, int tiers) { return tier == 0 ? "host" : TierName(tier, tiers); }

}  // namespace

double TierCableLengthM(int upper_tier, const CableLengths& c) {
  return upper_tier <= 1 ? c.host_m : upper_tier == 2 ? c.leaf_m : c.spine_m;
}

std::string TierName(int tier, int tiers) {
  if (tier == 1) return "leaf";
  if (tier == 2) return tiers >= 3 ? "agg" : "spine";
  if (tier == 3) return "core";
  return "tier" + std::to_string(tier);
}

double BillOfMaterials::cost_usd() const {
  double sum = 0;
  for (const BillLine& l : lines) sum += l.price_usd();
  return sum;
}

double BillOfMaterials::power_w() const {
  double sum = 0;
  for (const BillLine& l : lines) sum += l.power_w();
  return sum;
}

bool BillOfMaterials::any_price_assumed() const {
  return std::any_of(lines.begin(), lines.end(), [](const BillLine& l) { return l.price_assumed; });
}

Result<BillOfMaterials> PriceFabric(const Topology& t, const std::string& nic_name, const CableLengths& cable,
                                    const Catalog& catalog) {
  BillOfMaterials bill;
  bill.tiers = t.max_tier();
  // Switches by (tier, model), in tier order.
  std::map<std::pair<int, int>, int64_t> switches;
  for (NodeId s : t.switches()) ++switches[{t.node(s).tier, t.node(s).switch_spec}];
  for (const auto& [key, count] : switches) {
    const SwitchSpec& spec = t.switch_specs()[key.second];
    const SwitchSpec* priced = catalog.FindSwitch(spec.name);
    if (!priced) return Error{"switch '" + spec.name + "' is not in the catalog, so it has no price"};
    bill.lines.push_back({"switch", spec.name, TierName(key.first, bill.tiers), count, priced->cost.price_usd,
                          priced->cost.power_w, priced->cost.price_assumed});
    bill.switches += count;
  }
  const NicSpec* nic = catalog.FindNic(nic_name);
  if (!nic) return Error{"NIC '" + nic_name + "' is not in the catalog, so it has no price"};
  bill.lines.push_back({"nic", nic->name, "host", static_cast<int64_t>(t.hosts().size()), nic->cost.price_usd,
                        nic->cost.power_w, nic->cost.price_assumed});
  // Links by (lower tier, upper tier, rate): each physical link once.
  std::map<std::tuple<int, int, uint64_t>, int64_t> links;
  for (const Port& p : t.ports()) {
    if (p.id % 2 != 0) continue;  // a link's two directions are ports 2i and 2i+1
    const int a = t.node(p.node).tier, b = t.node(p.peer).tier;
    ++links[{std::min(a, b), std::max(a, b), p.rate.bps()}];
  }
  for (const auto& [key, count] : links) {
    const auto [lower, upper, bps] = key;
    const DataRate rate = DataRate::BitsPerSecond(bps);
    const double length_m = TierCableLengthM(upper, cable);
    const LinkMediaSpec* media = catalog.CheapestMedia(rate, length_m);
    const std::string where = EndName(lower, bill.tiers) + "-" + EndName(upper, bill.tiers);
    if (!media) {
      return Error{"no catalog cable or optic at " + FormatRate(rate) + " reaches " + Meters(length_m) +
                   " (the " + where + " links; costs.cable_m sets the lengths)"};
    }
    bill.lines.push_back(
        {"link", media->name, where, count, media->cost.price_usd, media->cost.power_w, media->cost.price_assumed});
    bill.links += count;
  }
  return bill;
}

}  // namespace aifabric
