#include "scenario/simulation_section.h"

namespace aifabric {

void ReadSimulation(const MapReader& sim, Scenario& s) {
  sim.AllowOnly({"model", "collectives", "until", "fault_baseline", "telemetry"});
  s.model = sim.Enum<ModelKind>("model", ModelKind::kPacket,
                                {{"packet", ModelKind::kPacket}, {"flow", ModelKind::kFlow}, {"analytic", ModelKind::kAnalytic}});
  using Collectives = Scenario::Collectives;
  s.collectives = sim.Enum<Collectives>(
      "collectives", Collectives::kAuto,
      {{"auto", Collectives::kAuto}, {"steps", Collectives::kSteps}, {"coflow", Collectives::kCoflow}});
  if (s.collectives == Collectives::kCoflow && s.model == ModelKind::kPacket) {
    sim.FailAt("collectives", "coflow needs the flow or analytic model (simulation.model is packet)");
  }
  s.until = sim.TimeValue("until", Time::Infinite());
  if (sim.Has("until") && s.until == Time::Zero()) sim.FailAt("until", "expected a time > 0, got 0");
  s.fault_baseline = sim.Bool("fault_baseline", true);
  const MapReader telemetry = sim.Map("telemetry");
  telemetry.AllowOnly({"enabled", "interval", "max_points"});
  s.telemetry.enabled = telemetry.Bool("enabled", true);
  s.telemetry.interval = telemetry.TimeValue("interval", Time::FromUs(10));
  if (s.telemetry.interval < Time::FromNs(100)) {
    telemetry.FailAt("interval", "expected a sampling interval of at least 100ns, got " +
                                     std::to_string(s.telemetry.interval.ps()) + " ps");
  }
  s.telemetry.max_points = telemetry.Unsigned("max_points", 512);
  if (s.telemetry.max_points < 4 || s.telemetry.max_points > 65536 || s.telemetry.max_points % 2 != 0) {
    telemetry.FailAt("max_points", "expected an even number of points from 4 to 65536, got " +
                                       std::to_string(s.telemetry.max_points));
  }
}

}  // namespace aifabric
