#include "scenario/faults_section.h"

#include <climits>

namespace aifabric {
namespace {

bool InUnitInterval(double v) { return v >= 0 && v <= 1; }
bool InSpeedRange(double v) { return v > 0 && v <= 1; }

// link: [A, B] -> a, b.
void ReadLink(const MapReader& f, FaultSpec& spec) {
  const std::optional<YAML::Node> link = f.Get("link");
  if (!link) {
    f.Fail("link", "missing; expected the two nodes the link joins, e.g. link: [leaf0, spine1]");
    return;
  }
  if (!link->IsSequence() || link->size() != 2 || !(*link)[0].IsScalar() || !(*link)[1].IsScalar()) {
    f.FailAt("link", "expected two node names, e.g. [leaf0, spine1], got " + Describe(*link));
    return;
  }
  spec.a = (*link)[0].Scalar();
  spec.b = (*link)[1].Scalar();
  spec.link_index = static_cast<int>(f.Int("index", 0, 0, INT_MAX));
}

// detection: none | bfd | TIME.
void ReadDetection(const MapReader& f, FaultSpec& spec) {
  const std::optional<YAML::Node> d = f.Get("detection");
  if (!d) return;
  if (d->IsScalar() && d->Scalar() == "none") {
    spec.detection = Time::Infinite();
  } else if (d->IsScalar() && d->Scalar() == "bfd") {
    spec.detection = kBfdDetection;
  } else {
    spec.detection = f.TimeValue("detection", Time::Zero());
  }
}

void ReadFault(const MapReader& f, FaultSpec& spec) {
  spec.kind = f.Enum("kind", FaultKind::kLinkDown,
                     {{"link_down", FaultKind::kLinkDown},
                      {"link_flap", FaultKind::kLinkFlap},
                      {"switch_down", FaultKind::kSwitchDown},
                      {"nic_port_down", FaultKind::kNicPortDown},
                      {"gray_link", FaultKind::kGrayLink},
                      {"straggler", FaultKind::kStraggler}});
  if (!f.Has("kind")) f.Fail("kind", "missing; expected link_down, link_flap, switch_down, nic_port_down, gray_link or straggler");
  if (!f.Has("at")) f.Fail("at", "missing; expected the time the fault starts, e.g. at: 100us");
  spec.at = f.TimeValue("at", Time::Zero());
  spec.until = f.TimeValue("until", Time::Infinite());
  if (f.Has("until") && spec.until <= spec.at) f.FailAt("until", "expected a time after `at`");
  switch (spec.kind) {
    case FaultKind::kLinkDown:
      f.AllowOnly({"kind", "at", "until", "link", "index", "detection"});
      ReadLink(f, spec);
      break;
    case FaultKind::kLinkFlap:
      f.AllowOnly({"kind", "at", "until", "link", "index", "period", "down_for", "detection"});
      ReadLink(f, spec);
      spec.period = f.TimeValue("period", Time::Zero());
      spec.down_for = f.TimeValue("down_for", Time::Zero());
      if (spec.period <= Time::Zero()) f.Fail("period", "expected a time > 0: how often the link goes down");
      if (spec.down_for <= Time::Zero() || spec.down_for >= spec.period) {
        f.Fail("down_for", "expected a time > 0 and below `period`: how long each time the link stays down");
      }
      if (!f.Has("until")) f.Fail("until", "missing; a flapping link needs the time it stops flapping");
      break;
    case FaultKind::kSwitchDown:
    case FaultKind::kNicPortDown:
      if (spec.kind == FaultKind::kSwitchDown) {
        f.AllowOnly({"kind", "at", "until", "node", "detection"});
      } else {
        f.AllowOnly({"kind", "at", "until", "node", "port", "detection"});
        spec.nic_port = static_cast<int>(f.Int("port", -1, 0, INT_MAX));
      }
      spec.node = f.String("node", "");
      if (spec.node.empty()) {
        f.Fail("node", spec.kind == FaultKind::kSwitchDown ? "missing; expected the switch's name, e.g. node: spine1"
                                                            : "missing; expected the NIC's (host's) name, e.g. node: h3");
      }
      break;
    case FaultKind::kGrayLink:
      f.AllowOnly({"kind", "at", "until", "link", "index", "loss_rate", "corruption_rate", "rate", "detection"});
      ReadLink(f, spec);
      spec.loss_rate = f.Number("loss_rate", 0, InUnitInterval, "a probability in [0, 1]");
      spec.corruption_rate = f.Number("corruption_rate", 0, InUnitInterval, "a probability in [0, 1]");
      spec.rate = f.Rate("rate", DataRate());
      if (!f.Has("loss_rate") && !f.Has("corruption_rate") && !f.Has("rate")) {
        f.Fail("loss_rate",
               "missing; a gray link takes loss_rate (silent loss, e.g. 0.01), corruption_rate (frames failing "
               "their FCS, e.g. 0.01) or a degraded rate (e.g. 100Gbps)");
      }
      break;
    case FaultKind::kStraggler:
      f.AllowOnly({"kind", "at", "until", "gpu", "factor"});
      spec.gpu = static_cast<int>(f.Int("gpu", -1, 0, INT_MAX));
      if (!f.Has("gpu")) f.Fail("gpu", "missing; expected the GPU's index in the cluster, e.g. gpu: 5");
      spec.factor = f.Number("factor", 1, InSpeedRange, "a speed factor in (0, 1], e.g. 0.5");
      if (!f.Has("factor")) f.Fail("factor", "missing; expected the GPU's compute speed, e.g. factor: 0.5");
      break;
  }
  ReadDetection(f, spec);
}

}  // namespace

void ReadFaultsSection(const MapReader& top, Scenario& s) {
  const std::optional<YAML::Node> list = top.Get("faults");
  if (!list) return;
  if (!list->IsSequence()) {
    top.diagnostics().Fail(*list, "faults", "expected a list of {kind, at, until, ...}, got " + Describe(*list));
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    MapReader f(top.diagnostics(), (*list)[i], std::string("faults.").append(std::to_string(i)));
    FaultSpec spec;
    spec.path = f.path();
    ReadFault(f, spec);
    s.faults.push_back(std::move(spec));
  }
}

}  // namespace aifabric
