// Test support (included by the plan tests only): small scenarios whose
// every configured value a test can work out by hand, and the fabric each
// describes.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "run/fabric_setup.h"
#include "scenario/scenario_loader.h"

namespace aifabric::plan_testing {

// RoCEv2 leaf-spine: 4 hosts, 2 leaves (2 hosts each), 2 spines; 400G
// links of 500 ns; an inline switch (8 ports, 300 ns, 64 MB); MTU 4096;
// classes bulk (priority 3, DSCP 26, DWRR 4, lossless), storage (4, DSCP
// 10, DWRR 2, lossless) and latency (5, DSCP 46, strict, lossy); ECN 100
// KiB / 400 KiB / 0.2; watchdog 400 ms / 800 ms, forward.
inline constexpr const char* kRoceScenario = R"(
name: cfg_roce
cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 400Gbps}}
fabric:
  kind: roce
  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}
  switch: {radix: 8, port_rate: 400Gbps, latency: 300ns, buffer: 64MB}
  link: {latency: 500ns}
  mtu: 4KiB
  qos:
    classes:
      - {name: bulk, priority: 3, dscp: 26, scheduler: dwrr, weight: 4, lossless: true}
      - {name: storage, priority: 4, dscp: 10, scheduler: dwrr, weight: 2, lossless: true}
      - {name: latency, priority: 5, dscp: 46, scheduler: strict, lossless: false}
  roce:
    ecn: {kmin: 100KiB, kmax: 400KiB, pmax: 0.2}
    pfc: {watchdog: {detection: 400ms, restoration: 800ms, action: forward}}
workload:
  - permutation: {size: 64KiB}
)";

// InfiniBand leaf-spine of the same shape, routed by OpenSM's ftree
// engine, with its own SL-to-VL table and VL arbitration.
inline constexpr const char* kIbScenario = R"(
name: cfg_ib
cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 400Gbps}}
fabric:
  kind: ib
  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}
  switch: {radix: 8, port_rate: 400Gbps, latency: 300ns, buffer: 64MB}
  link: {latency: 500ns}
  ib:
    routing: ftree
    sl2vl: [0, 1, 2, 3, 4, 5, 6, 1]
    vlarb:
      high: [{vl: 0, weight: 8}, {vl: 5, weight: 16}]
      low: [{vl: 1, weight: 4}, {vl: 2, weight: 32}]
      high_limit: 10
workload:
  - permutation: {size: 64KiB}
)";

// The scenario `text` with `overrides` (--set KEY=VALUE); fails the test
// on bad input.
inline Scenario Load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  Result<Scenario> s = LoadScenarioText(text, "test.yaml", ".", overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : Scenario{};
}

inline BuiltFabric Build(const Scenario& scenario) {
  Result<BuiltFabric> f = BuildFabric(scenario);
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
  return f.ok() ? std::move(*f) : BuiltFabric{};
}

}  // namespace aifabric::plan_testing
