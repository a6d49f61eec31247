#include "scenario/tenant_section.h"

#include <algorithm>
#include <set>

#include "sched/placement_policy.h"

namespace aifabric {
namespace {

constexpr const char* kTenantKeys[] = {"name", "placement", "start", "steps", "duration", "class", "priority"};

// A list of non-negative integers below `limit` at `key` of `m`.
std::vector<int> ReadIndexList(const MapReader& m, const std::string& key, int64_t limit) {
  std::vector<int> out;
  std::optional<YAML::Node> v = m.Get(key);
  if (!v) return out;
  if (!v->IsSequence() || v->size() == 0) {
    m.FailAt(key, "expected a non-empty list of indices, got " + Describe(*v));
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    std::optional<int64_t> x = ReadInt(m.diagnostics(), (*v)[i], m.Path(key) + "." + std::to_string(i), 0, limit - 1);
    if (!x) return {};
    out.push_back(static_cast<int>(*x));
  }
  return out;
}

void ReadPlacement(const SectionContext& c, const MapReader& item, TenantSpec& t) {
  std::optional<YAML::Node> v = item.Get("placement");
  if (!v) return;
  if (v->IsScalar()) {  // placement: first_fit, the policy's name alone
    t.placement.policy = v->Scalar();
  } else {
    const MapReader p = item.Map("placement");
    p.AllowOnly({"servers", "gpus", "policy"});
    const int given = int{p.Has("servers")} + int{p.Has("gpus")} + int{p.Has("policy")};
    if (given != 1) {
      item.FailAt("placement", "expected exactly one of servers, gpus or policy");
      return;
    }
    t.placement.servers = ReadIndexList(p, "servers", kMaxInt);
    for (int g : ReadIndexList(p, "gpus", kMaxInt)) t.placement.gpus.push_back(g);
    t.placement.policy = p.String("policy", "");
  }
  if (!t.placement.policy.empty()) {
    const auto names = PlacementPolicyNames();
    if (std::find(names.begin(), names.end(), t.placement.policy) == names.end()) {
      std::string known;
      for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
      item.FailAt("placement", "unknown placement policy '" + t.placement.policy + "'; expected one of " + known);
    }
  }
  (void)c;
}

}  // namespace

bool IsTenantKey(const std::string& key) {
  return std::find(std::begin(kTenantKeys), std::end(kTenantKeys), key) != std::end(kTenantKeys);
}

void ReadTenantKeys(const SectionContext& c, const MapReader& item, TenantSpec& t) {
  for (const char* key : kTenantKeys) t.tenant_keys = t.tenant_keys || item.Has(key);
  const size_t item_index = static_cast<size_t>(std::stoul(t.path.substr(t.path.rfind('.') + 1)));
  t.name = item.String("name", t.kind_name + "." + std::to_string(item_index));
  if (t.name.empty()) item.FailAt("name", "expected a non-empty name");
  if (t.kind == TenantKind::kFlows) {
    for (const char* key : {"placement", "steps", "duration"}) {
      if (item.Has(key)) item.FailAt(key, "only for jobs (training, chakra, inference, collective); flows name their hosts");
    }
  }
  if (t.kind == TenantKind::kInference) {
    for (const char* key : {"steps", "duration"}) {
      if (item.Has(key)) item.FailAt(key, "not for inference (its requests say how long it serves)");
    }
  }
  ReadPlacement(c, item, t);
  t.start = item.TimeValue("start", Time::Zero());
  t.steps = static_cast<int>(item.Int("steps", 1, 1, 1 << 20));
  t.duration = item.TimeValue("duration", Time::Zero());
  if (item.Has("class") || item.Has("priority")) t.priority = ReadPriority(c, item);
}

void CheckTenants(const SectionContext& c, Scenario& s) {
  bool keys = false;
  bool jobs = false;
  bool flows = false;
  bool collectives = false;  // run as tenants whatever else the list holds
  std::set<std::string> names;
  std::set<GpuId> taken;
  const int per_server = s.server.gpus_per_server;
  const int64_t gpus = int64_t{s.topology.servers} * per_server;
  for (const TenantSpec& t : s.tenants) {
    keys = keys || t.tenant_keys;
    (t.kind == TenantKind::kFlows ? flows : jobs) = true;
    collectives = collectives || t.kind == TenantKind::kCollective;
    if (!names.insert(t.name).second) {
      c.d.FailWith(Error{c.d.origin() + ": " + t.path + ".name: '" + t.name + "' names two workload items"});
      return;
    }
    std::vector<GpuId> own(t.placement.gpus.begin(), t.placement.gpus.end());
    for (int server : t.placement.servers) {
      if (server >= s.topology.servers) {
        c.d.FailWith(Error{c.d.origin() + ": " + t.path + ".placement.servers: server " + std::to_string(server) +
                           " is not in the cluster (it has " + std::to_string(s.topology.servers) + ")"});
        return;
      }
      for (int k = 0; k < per_server; ++k) own.push_back(server * per_server + k);
    }
    for (GpuId g : own) {
      if (g >= gpus) {
        c.d.FailWith(Error{c.d.origin() + ": " + t.path + ".placement.gpus: GPU " + std::to_string(g) +
                           " is not in the cluster (it has " + std::to_string(gpus) + ")"});
        return;
      }
      if (!taken.insert(g).second) {
        c.d.FailWith(Error{c.d.origin() + ": " + t.path + ".placement: GPU " + std::to_string(g) +
                           " is already another item's (placements must not overlap)"});
        return;
      }
    }
  }
  s.shared_fabric = keys || (jobs && flows) || collectives;
}

}  // namespace aifabric
