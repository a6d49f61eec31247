#include "transport/dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>

namespace aifabric {
namespace {

// A flow that receives CNPs at chosen times and sends nothing: only the
// timers move its rate. Line rate 100 Gb/s; R_AI = 5 Gb/s, R_HAI = 10 Gb/s.
TEST(Dcqcn, CutsThenRecoversByTheRules) {
  Simulator sim(1);
  const DcqcnConfig config;  // g = 1/256, K = T = 55 us, F = 5
  Dcqcn dcqcn(sim, DataRate::Gbps(100), config);
  EXPECT_EQ(dcqcn.rate().bps(), 100'000'000'000u);

  // First CNP at t = 0 with alpha = 1: R_T = 100, R_C = 100 (1 - 1/2) = 50,
  // alpha = (1 - g) + g = 1.
  dcqcn.OnCnp();
  EXPECT_NEAR(static_cast<double>(dcqcn.rate().bps()), 50e9, 1);
  EXPECT_DOUBLE_EQ(dcqcn.alpha(), 1.0);
  // A second CNP within the 4 us decrease interval changes nothing.
  sim.Run(Time::FromUs(2));
  sim.ScheduleCallback(Time::FromUs(2), [&] { dcqcn.OnCnp(); });
  sim.Run(Time::FromUs(2));
  EXPECT_NEAR(static_cast<double>(dcqcn.rate().bps()), 50e9, 1);
  // One at 10 us cuts again: R_T = 50, R_C = 25.
  sim.ScheduleCallback(Time::FromUs(10), [&] { dcqcn.OnCnp(); });
  sim.Run(Time::FromUs(10));
  EXPECT_NEAR(static_cast<double>(dcqcn.rate().bps()), 25e9, 1);
  EXPECT_NEAR(dcqcn.target_bps(), 50e9, 1);

  // The increase timer fires every 55 us after the last cut (65, 120, ...).
  // Five fast-recovery steps halve the distance to R_T = 50:
  // 37.5, 43.75, 46.875, 48.4375, 49.21875.
  const double fast[] = {37.5e9, 43.75e9, 46.875e9, 48.4375e9, 49.21875e9};
  for (int i = 0; i < 5; ++i) {
    sim.Run(Time::FromUs(10 + 55 * (i + 1)));
    EXPECT_NEAR(static_cast<double>(dcqcn.rate().bps()), fast[i], 1e3) << i;
  }
  // Sixth: timer count 6 > F but the byte count 0 is not, so additive
  // increase: R_T = 55, R_C = (55 + 49.21875) / 2 = 52.109375.
  sim.Run(Time::FromUs(10 + 55 * 6));
  EXPECT_NEAR(dcqcn.target_bps(), 55e9, 1e3);
  EXPECT_NEAR(static_cast<double>(dcqcn.rate().bps()), 52.109375e9, 1e3);
  // Alpha decays by (1 - g) every K = 55 us without a CNP: the first alpha
  // timer (set at the first CNP, t = 0) saw the CNP at 10 us; later ones
  // decay it. By t = 340 us: timers at 55 (CNP seen), 110, ..., 330: 5 decays.
  EXPECT_NEAR(dcqcn.alpha(), std::pow(1 - 1.0 / 256, 5), 1e-12);
}

TEST(Dcqcn, StopsItsTimersWhenTheFlowFinishes) {
  Simulator sim(1);
  Dcqcn dcqcn(sim, DataRate::Gbps(100), DcqcnConfig{});
  dcqcn.OnCnp();
  dcqcn.OnFinished();
  sim.Run();
  // Each of the two timers fires once more and does not re-arm.
  EXPECT_LE(sim.events_processed(), 2u);
}

}  // namespace
}  // namespace aifabric
