#include "scenario/qos_section.h"

namespace aifabric {
namespace {

// fabric.qos.weights: exactly one DWRR weight >= 1 per priority.
void ReadWeights(const SectionContext& c, const YAML::Node& list, const std::string& path, PacketConfig& packet) {
  if (!list.IsSequence() || list.size() != kNumPriorities) {
    const std::string found = list.IsSequence() ? std::to_string(list.size()) + " items" : Describe(list);
    c.d.Fail(list, path, "expected a list of exactly 8 integers >= 1, got " + found);
    return;
  }
  for (int i = 0; i < kNumPriorities; ++i) {
    std::optional<int64_t> w = ReadInt(c.d, list[i], path + "." + std::to_string(i), 1, UINT32_MAX);
    if (w) packet.queues[i].dwrr_weight = static_cast<uint32_t>(*w);
  }
}

// fabric.qos.classes: named traffic classes, each on a priority (the DSCP
// or SL that maps to it is recorded for outputs), strict or weighted, and
// lossless (PFC) or lossy.
void ReadQosClasses(const SectionContext& c, const YAML::Node& list, const std::string& path, Scenario& s) {
  if (!list.IsSequence()) {
    c.d.Fail(list, path, "expected a list of classes {name, priority, ...}, got " + Describe(list));
    return;
  }
  PacketConfig& packet = s.packet;
  bool any_lossless_key = false;
  uint8_t lossless = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    MapReader m(c.d, list[i], path + "." + std::to_string(i));
    m.AllowOnly({"name", "priority", "dscp", "sl", "scheduler", "weight", "lossless"});
    RequireKeys(m, {"name", "priority"});
    QosClass q;
    q.name = m.String("name", "");
    q.priority = static_cast<uint8_t>(m.Int("priority", 0, 0, kNumPriorities - 1));
    q.dscp = static_cast<int>(m.Int("dscp", -1, 0, 63));
    q.sl = static_cast<int>(m.Int("sl", -1, 0, 15));
    const bool strict = m.Enum<bool>("scheduler", false, {{"dwrr", false}, {"strict", true}});
    packet.queues[q.priority].strict = strict;
    packet.queues[q.priority].dwrr_weight = static_cast<uint32_t>(m.Int("weight", 1, 1, UINT32_MAX));
    if (m.Has("lossless")) {
      any_lossless_key = true;
      q.lossless = m.Bool("lossless", false) ? 1 : 0;
      if (q.lossless == 1) lossless |= static_cast<uint8_t>(1u << q.priority);
    }
    if (c.classes->count(q.name) != 0) m.FailAt("name", "class '" + q.name + "' defined twice");
    (*c.classes)[q.name] = q.priority;
    s.qos_classes.push_back(q);
  }
  if (any_lossless_key) packet.pfc.lossless_mask = lossless;
}

}  // namespace

// fabric.qos.strict: a list of distinct priorities 0..7.
void ReadStrict(const SectionContext& c, const YAML::Node& list, const std::string& path, PacketConfig& packet) {
  if (!list.IsSequence()) {
    c.d.Fail(list, path, "expected a list of priorities 0..7, got " + Describe(list));
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = path + "." + std::to_string(i);
    std::optional<int64_t> p = ReadInt(c.d, list[i], item_path, 0, kNumPriorities - 1);
    if (!p) continue;
    if (packet.queues[*p].strict) {
      c.d.Fail(list[i], item_path, "priority " + std::to_string(*p) + " listed twice");
    }
    packet.queues[*p].strict = true;
  }
}

void ReadQos(const SectionContext& c, const MapReader& qos, Scenario& s) {
  qos.AllowOnly({"strict", "weights", "classes"});
  if (std::optional<YAML::Node> strict = qos.Get("strict")) ReadStrict(c, *strict, qos.Path("strict"), s.packet);
  if (std::optional<YAML::Node> weights = qos.Get("weights")) {
    ReadWeights(c, *weights, qos.Path("weights"), s.packet);
  }
  if (std::optional<YAML::Node> classes = qos.Get("classes")) ReadQosClasses(c, *classes, qos.Path("classes"), s);
}

}  // namespace aifabric
