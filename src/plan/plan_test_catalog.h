// A small hand-priced catalog for the planner's tests: one InfiniBand and
// one Ethernet switch at 400G (16 ports, so small fabrics need several
// tiers), an Ethernet 800G switch, NICs at 400G and 800G, three media per
// rate with round prices, and an H100 priced at $30,000 and 700 W. Every
// figure is chosen so sums can be worked by hand in a test's comment.
#pragma once

#include <string>

#include "fabric/catalog.h"

namespace aifabric::plan_testing {

inline const char* kCatalogYaml = R"(
switches:
  - {name: IB16, family: infiniband, radix: 16, port_rate: 400Gbps, latency: 300ns, buffer: 16MB, capacity: 12.8Tbps,
     source: test, price_usd: 10000, power_w: 400, price_source: test, price_date: 2026-12}
  - {name: ETH16, radix: 16, port_rate: 400Gbps, latency: 500ns, buffer: 16MB, capacity: 12.8Tbps,
     source: test, price_usd: 8000, power_w: 300, price_source: test, price_date: 2026-12}
  - {name: ETH16x800, radix: 16, port_rate: 800Gbps, latency: 500ns, buffer: 32MB, capacity: 25.6Tbps,
     source: test, price_usd: 16000, power_w: 500, price_source: test, price_date: 2026-12, price_assumed: true}
nics:
  - {name: NIC400, rate: 400Gbps, source: test, price_usd: 1000, power_w: 20, price_source: test, price_date: 2026-12}
  - {name: NIC800, rate: 800Gbps, source: test, price_usd: 2000, power_w: 30, price_source: test, price_date: 2026-12}
gpus:
  - {name: H100, bf16_dense_tflops: 989.4, hbm: 80GB, hbm_bandwidth: 3.35TB/s, nvlink_per_dir: 450GB/s,
     nvlink_achievable_per_dir: 370.8GB/s, nvls: true, source: test,
     price_usd: 30000, power_w: 700, price_source: test, price_date: 2026-12}
media:
  - {name: 400-DAC, kind: dac, rate: 400Gbps, max_reach_m: 3, price_usd: 100, power_per_end_w: 0,
     source: test, price_source: test, price_date: 2026-12}
  - {name: 400-AOC, kind: aoc, rate: 400Gbps, max_reach_m: 30, price_usd: 500, power_per_end_w: 5,
     source: test, price_source: test, price_date: 2026-12}
  - {name: 400-DR4, kind: optics, rate: 400Gbps, max_reach_m: 500, transceiver_usd: 600, fiber_usd: 100,
     power_per_end_w: 10, source: test, price_source: test, price_date: 2026-12}
  - {name: 800-DAC, kind: dac, rate: 800Gbps, max_reach_m: 2, price_usd: 300, power_per_end_w: 0,
     source: test, price_source: test, price_date: 2026-12}
  - {name: 800-DR8, kind: optics, rate: 800Gbps, max_reach_m: 500, transceiver_usd: 1000, fiber_usd: 100,
     power_per_end_w: 15, source: test, price_source: test, price_date: 2026-12}
)";

inline Catalog TestCatalog() {
  Result<Catalog> c = Catalog::Parse(kCatalogYaml, "test_catalog.yaml");
  if (!c.ok()) throw std::runtime_error(c.error().message);
  return std::move(c).value();
}

}  // namespace aifabric::plan_testing
