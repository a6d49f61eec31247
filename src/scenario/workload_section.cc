#include "scenario/workload_section.h"

#include "scenario/job_sections.h"
#include "scenario/tenant_section.h"

namespace aifabric {
namespace {

uint8_t Priority(const SectionContext& c, const MapReader& m) { return ReadPriority(c, m); }

uint64_t TrafficSize(const MapReader& m) {
  return m.Size("size", 1 << 20, 1, kMaxBytes);
}

NodeId ReadNodeId(const MapReader& m, const std::string& key, NodeId fallback) {
  return static_cast<NodeId>(m.Int(key, fallback, 0, kMaxInt));
}

FlowSpec ReadFlow(const SectionContext& c, const MapReader& m) {
  m.AllowOnly({"src", "dst", "size", "start", "priority", "class", "dport"});
  RequireKeys(m, {"src", "dst", "size"});
  FlowSpec flow;
  flow.src = ReadNodeId(m, "src", kNoNode);
  flow.dst = ReadNodeId(m, "dst", kNoNode);
  if (m.Has("src") && m.Has("dst") && flow.src == flow.dst && flow.src != kNoNode) {
    m.FailAt("dst", "expected a node other than src, got " + std::to_string(flow.dst));
  }
  flow.bytes = m.Size("size", 0, 1, kMaxBytes);
  flow.start = m.TimeValue("start", Time::Zero());
  flow.priority = Priority(c, m);
  flow.dport = static_cast<uint16_t>(m.Int("dport", 4791, 0, 65535));
  return flow;
}

std::optional<TrafficSpec> ReadFlows(const SectionContext& c, const YAML::Node& node, const std::string& path) {
  if (node.IsSequence()) {
    FlowListSpec list;
    for (size_t i = 0; i < node.size(); ++i) {
      list.flows.push_back(ReadFlow(c, MapReader(c.d, node[i], path + "." + std::to_string(i))));
    }
    return list;
  }
  if (node.IsMap()) {
    MapReader m(c.d, node, path);
    m.AllowOnly({"format", "file"});
    if (!m.Has("format")) m.Fail("format", "required, missing (hpcc)");
    m.Enum<int>("format", 0, {{"hpcc", 0}});
    return HpccFlowFileSpec{ResolveFile(c, m, "file")};
  }
  c.d.Fail(node, path, "expected a list of flows or a map {format: hpcc, file: ...}, got " + Describe(node));
  return std::nullopt;
}

// The fields a sized pattern shares: {size, start, priority | class}.
template <typename Spec>
void ReadSizeStartPriority(const SectionContext& c, const MapReader& m, Spec& spec) {
  spec.bytes = TrafficSize(m);
  spec.start = m.TimeValue("start", Time::Zero());
  spec.priority = Priority(c, m);
}

// A pattern every host takes part in with the same size (permutation,
// all-to-all).
template <typename Spec>
Spec ReadEveryHostPattern(const SectionContext& c, const MapReader& m) {
  m.AllowOnly({"size", "start", "priority", "class"});
  Spec spec;
  ReadSizeStartPriority(c, m, spec);
  return spec;
}

IncastSpec ReadIncast(const SectionContext& c, const MapReader& m) {
  m.AllowOnly({"senders", "receiver", "size", "start", "priority", "class"});
  IncastSpec spec;
  spec.senders = static_cast<int>(m.Int("senders", 8, 1, kMaxInt));
  spec.receiver = ReadNodeId(m, "receiver", kNoNode);
  ReadSizeStartPriority(c, m, spec);
  return spec;
}

PoissonSpec ReadPoisson(const SectionContext& c, const MapReader& m) {
  m.AllowOnly({"load", "cdf", "start", "duration", "priority", "class"});
  PoissonSpec spec;
  spec.load = m.Number("load", 0.3, IsFraction, "a number in (0, 1]");
  spec.cdf_file = ResolveFile(c, m, "cdf");
  spec.start = m.TimeValue("start", Time::Zero());
  spec.duration = m.TimeValue("duration", Time::FromMs(1));
  if (m.Has("duration") && spec.duration == Time::Zero()) m.FailAt("duration", "expected a time > 0, got 0");
  spec.priority = Priority(c, m);
  return spec;
}

constexpr const char* kWorkloadKinds =
    "flows, permutation, incast, all_to_all, poisson, training, chakra, inference, collective";

// "2 keys (permutation, incast)", or how a non-map is described.
std::string DescribeKeys(const YAML::Node& node) {
  if (!node.IsMap()) return Describe(node);
  std::string keys;
  for (auto it = node.begin(); it != node.end(); ++it) keys += (keys.empty() ? "" : ", ") + it->first.Scalar();
  return std::to_string(node.size()) + " keys" + (keys.empty() ? "" : " (" + keys + ")");
}

// checkpoint.every past the item's steps: no step would write one (a
// duration may run any number of steps, so it passes).
void CheckCheckpointEvery(const MapReader& training, const Scenario::Training& t, const TenantSpec& tenant) {
  if (t.storage_servers == 0 || t.checkpoint_every <= tenant.steps || tenant.duration > Time::Zero()) return;
  training.Map("checkpoint")
      .FailAt("every", std::to_string(t.checkpoint_every) + " writes a checkpoint during steps " +
                           std::to_string(t.checkpoint_every) + ", " + std::to_string(2 * t.checkpoint_every) +
                           ", ... but the item runs " + std::to_string(tenant.steps) + " step" +
                           (tenant.steps == 1 ? "" : "s") + ", so none would; give " + tenant.path +
                           ".steps >= " + std::to_string(t.checkpoint_every) + " or a duration");
}

std::optional<TrafficSpec> ReadWorkloadItem(const SectionContext& c, const MapReader& item, Scenario& s,
                                            TenantSpec& tenant) {
  item.AllowOnly({"flows", "permutation", "incast", "all_to_all", "poisson", "training", "chakra", "inference", "collective",
                  "name",
                  "placement", "start", "steps", "duration", "class", "priority"});
  if (!c.d.ok()) return std::nullopt;
  const YAML::Node& node = item.node();
  // Exactly one kind key; the tenant keys (tenant_section.h) may stand beside it.
  std::string kind;
  size_t kinds = 0;
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (IsTenantKey(it->first.Scalar())) continue;
      kind = it->first.Scalar();
      ++kinds;
    }
  }
  if (!node.IsMap() || kinds != 1) {
    c.d.Fail(node, item.path(),
             std::string("expected a map with exactly one of ") + kWorkloadKinds + ", got " + DescribeKeys(node));
    return std::nullopt;
  }
  const YAML::Node value = node[kind];
  const std::string path = item.Path(kind);
  tenant.kind_name = kind;
  tenant.kind = kind == "training"     ? TenantKind::kTraining
                : kind == "chakra"     ? TenantKind::kChakra
                : kind == "inference"  ? TenantKind::kInference
                : kind == "collective" ? TenantKind::kCollective
                                       : TenantKind::kFlows;
  tenant.index = kind == "training"     ? s.trainings.size()
                 : kind == "chakra"     ? s.chakras.size()
                 : kind == "inference"  ? s.inferences.size()
                 : kind == "collective" ? s.collective_jobs.size()
                                        : s.workload.size();
  ReadTenantKeys(c, item, tenant);
  if (kind == "flows") return ReadFlows(c, value, path);
  if (kind == "training") {
    ReadTraining(c, value, path, s);
    if (c.d.ok()) CheckCheckpointEvery(MapReader(c.d, value, path), s.trainings.back(), tenant);
    return std::nullopt;
  }
  if (kind == "chakra") {
    ReadChakra(c, value, path, s);
    return std::nullopt;
  }
  if (kind == "inference") {
    ReadInference(c, value, path, s);
    return std::nullopt;
  }
  if (kind == "collective") {
    ReadCollective(c, value, path, s);
    return std::nullopt;
  }
  const MapReader m(c.d, value, path);
  if (kind == "permutation") return ReadEveryHostPattern<PermutationSpec>(c, m);
  if (kind == "incast") return ReadIncast(c, m);
  if (kind == "all_to_all") return ReadEveryHostPattern<AllToAllSpec>(c, m);
  return ReadPoisson(c, m);
}

}  // namespace

void ReadWorkload(const SectionContext& c, const MapReader& top, Scenario& s) {
  std::optional<YAML::Node> list = top.Get("workload");
  if (!list) return;
  if (!list->IsSequence()) {
    c.d.Fail(*list, "workload",
             std::string("expected a list of items, each a map with one of ") + kWorkloadKinds + ", got " +
                 Describe(*list));
    return;
  }
  for (size_t i = 0; i < list->size() && c.d.ok(); ++i) {
    MapReader item(c.d, (*list)[i], "workload." + std::to_string(i));
    TenantSpec tenant;
    tenant.path = item.path();
    std::optional<TrafficSpec> spec = ReadWorkloadItem(c, item, s, tenant);
    if (spec) s.workload.push_back(std::move(*spec));
    if (c.d.ok()) s.tenants.push_back(std::move(tenant));
  }
  if (c.d.ok()) CheckTenants(c, s);
}

}  // namespace aifabric
