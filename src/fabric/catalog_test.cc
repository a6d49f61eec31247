#include "fabric/catalog.h"

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <fstream>
#include <sstream>
#include "test_paths.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;

TEST(Catalog, BuiltInSwitches) {
  const Catalog& c = Catalog::BuiltIn();
  const SwitchSpec* s = c.FindSwitch("128x400G");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->radix, 128);
  EXPECT_EQ(s->port_rate, DataRate::Gbps(400));
  EXPECT_EQ(s->latency, Time::FromNs(400));
  EXPECT_EQ(s->buffer_bytes, 165660324u);  // TH5 lossless pool
  EXPECT_DOUBLE_EQ(s->capacity_tbps, 102.4);  // 2 x 128 x 400G
  const SwitchSpec* s800 = c.FindSwitch("64x800G");
  ASSERT_NE(s800, nullptr);
  EXPECT_EQ(s800->radix, 64);
  EXPECT_EQ(s800->port_rate, DataRate::Gbps(800));
  EXPECT_EQ(s800->buffer_bytes, 160'000'000u);
  const SwitchSpec* s400 = c.FindSwitch("64x400G");
  ASSERT_NE(s400, nullptr);
  EXPECT_EQ(s400->buffer_bytes, 113'000'000u);
  EXPECT_DOUBLE_EQ(s400->capacity_tbps, 51.2);
  const SwitchSpec* s100 = c.FindSwitch("32x100G");
  ASSERT_NE(s100, nullptr);
  EXPECT_EQ(s100->radix, 32);
  EXPECT_EQ(s100->port_rate, DataRate::Gbps(100));
  EXPECT_EQ(c.FindSwitch("nope"), nullptr);
  // Vendor capacity counts both directions: 2 * radix * port rate.
  for (const SwitchSpec& sw : c.switches()) {
    EXPECT_NEAR(sw.capacity_tbps, 2 * sw.radix * sw.port_rate.gbps() / 1000, 1e-9) << sw.name;
    EXPECT_FALSE(sw.source.empty()) << sw.name;
  }
}

TEST(Catalog, BuiltInNicsAndGpus) {
  const Catalog& c = Catalog::BuiltIn();
  EXPECT_EQ(c.FindNic("CX6-100G")->rate, DataRate::Gbps(100));
  EXPECT_EQ(c.FindNic("CX6-200G")->rate, DataRate::Gbps(200));
  EXPECT_EQ(c.FindNic("CX7-400G")->rate, DataRate::Gbps(400));
  EXPECT_EQ(c.FindNic("CX8-800G")->rate, DataRate::Gbps(800));
  const GpuSpec* h100 = c.FindGpu("H100");
  ASSERT_NE(h100, nullptr);
  EXPECT_DOUBLE_EQ(h100->bf16_dense_tflops, 989.4);
  EXPECT_EQ(h100->hbm_bytes, 80'000'000'000u);
  EXPECT_NEAR(h100->hbm_tbps, 3.35, 1e-12);
  EXPECT_NEAR(h100->nvlink_gbps_per_dir, 450, 1e-9);
  EXPECT_NEAR(h100->nvlink_achievable_gbps_per_dir, 18 * 20.6, 1e-9);  // NCCL's SM90 per-link figure x 18
  EXPECT_TRUE(h100->nvls);
  const GpuSpec* h200 = c.FindGpu("H200");
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->hbm_bytes, 141'000'000'000u);
  EXPECT_NEAR(h200->hbm_tbps, 4.8, 1e-12);
  const GpuSpec* b200 = c.FindGpu("B200");
  ASSERT_NE(b200, nullptr);
  EXPECT_DOUBLE_EQ(b200->bf16_dense_tflops, 2250);
  EXPECT_EQ(b200->hbm_bytes, 192'000'000'000u);
  EXPECT_NEAR(b200->hbm_tbps, 8, 1e-12);
  EXPECT_NEAR(b200->nvlink_gbps_per_dir, 900, 1e-9);
  for (const NicSpec& n : c.nics()) EXPECT_FALSE(n.source.empty()) << n.name;
  for (const GpuSpec& g : c.gpus()) EXPECT_FALSE(g.source.empty()) << g.name;
}

constexpr char kGood[] = R"(switches:
  - name: tiny
    radix: 8
    port_rate: 100Gbps
    latency: 1us
    buffer: 1MiB
    capacity: 1.6Tbps
    source: test
)";

TEST(CatalogParse, Good) {
  Result<Catalog> c = Catalog::Parse(kGood, "t.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->switches().size(), 1u);
  EXPECT_EQ(c->switches()[0].buffer_bytes, 1u << 20);
  EXPECT_EQ(c->switches()[0].latency, Time::FromUs(1));
  EXPECT_TRUE(c->nics().empty());
}

std::string ParseError(const std::string& text) {
  Result<Catalog> c = Catalog::Parse(text, "t.yaml");
  return c.ok() ? "(parsed)" : c.error().message;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(CatalogParse, ErrorsNameLineAndField) {
  EXPECT_THAT(ParseError(Replace(kGood, "radix: 8", "radix: eight")),
              HasSubstr("t.yaml:3: switches[0].radix: expected a positive integer, got 'eight'"));
  EXPECT_THAT(ParseError(Replace(kGood, "100Gbps", "100")), HasSubstr("t.yaml:4: switches[0].port_rate:"));
  EXPECT_THAT(ParseError(Replace(kGood, "latency: 1us", "latency: soon")), HasSubstr("t.yaml:5: switches[0].latency:"));
  EXPECT_THAT(ParseError(Replace(kGood, "    buffer: 1MiB\n", "")),
              HasSubstr("t.yaml:2: switches[0].buffer: required field is missing"));
  EXPECT_THAT(ParseError(Replace(kGood, "source: test", "sauce: test")),
              HasSubstr("t.yaml:8: switches[0]: unknown field 'sauce'"));
  EXPECT_THAT(ParseError(std::string(kGood) + "nics:\n  - name: n\n    rate: fast\n    source: s\n"),
              HasSubstr("t.yaml:11: nics[0].rate:"));
  EXPECT_THAT(ParseError("gpus:\n  - name: g\n    bf16_dense_tflops: 1\n    hbm: 1GB\n    hbm_bandwidth: 3TBps\n"
                         "    nvlink_per_dir: 1GB/s\n    source: s\n"),
              HasSubstr("t.yaml:5: gpus[0].hbm_bandwidth: expected a bandwidth like"));
  EXPECT_THAT(ParseError("gpus:\n  - name: g\n    bf16_dense_tflops: 1\n    hbm: 1GB\n    hbm_bandwidth: 3TB/s\n"
                         "    nvlink_per_dir: 1GB/s\n    nvlink_achievable_per_dir: 1GB/s\n    nvls: maybe\n"
                         "    source: s\n"),
              HasSubstr("t.yaml:8: gpus[0].nvls: expected true or false, got 'maybe'"));
  EXPECT_THAT(ParseError(std::string(kGood) + "  - name: tiny\n    radix: 8\n"),
              HasSubstr("switches[1]"));
  EXPECT_THAT(ParseError("switches: [\n"), HasSubstr("t.yaml:"));
  EXPECT_THAT(ParseError("routers: []\n"), HasSubstr("t.yaml:1: unknown section 'routers'"));
  // A cost is whole: a price without its power, source and date is an error.
  EXPECT_THAT(ParseError(std::string(kGood) + "    price_usd: 10\n"),
              HasSubstr("t.yaml:2: switches[0].power_w: required field is missing"));
  EXPECT_THAT(ParseError(std::string(kGood) + "    family: token_ring\n"),
              HasSubstr("t.yaml:9: switches[0].family: expected one of ethernet, infiniband"));
  EXPECT_THAT(ParseError("- 1\n"), HasSubstr("t.yaml:1: expected a map"));
}

TEST(CatalogParse, DuplicateName) {
  // The entry again, under the same list: its name sits on line 9.
  const std::string twice = std::string(kGood) + Replace(kGood, "switches:\n", "");
  EXPECT_THAT(ParseError(twice), HasSubstr("t.yaml:9: switches[1].name: duplicate entry 'tiny'"));
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

using ::testing::HasSubstr;

TEST(Catalog, BuiltInFamiliesAndCosts) {
  const Catalog& c = Catalog::BuiltIn();
  // The Quantum-2 entry as data/catalog.yaml gives it: 64 x 400G NDR, the
  // price [S1] quotes for NVIDIA's own switch (2024-08).
  const SwitchSpec* qm = c.FindSwitch("QM9700");
  ASSERT_NE(qm, nullptr);
  EXPECT_EQ(qm->family, SwitchFamily::kInfiniband);
  EXPECT_EQ(qm->radix, 64);
  EXPECT_EQ(qm->port_rate, DataRate::Gbps(400));
  EXPECT_EQ(qm->latency, Time::FromNs(330));
  EXPECT_DOUBLE_EQ(qm->capacity_tbps, 51.2);
  EXPECT_DOUBLE_EQ(qm->cost.price_usd, 50000);
  EXPECT_EQ(qm->cost.date, "2024-08");
  EXPECT_FALSE(qm->cost.price_assumed);
  EXPECT_TRUE(qm->cost.power_assumed);
  const SwitchSpec* q3400 = c.FindSwitch("Q3400");
  ASSERT_NE(q3400, nullptr);
  EXPECT_EQ(q3400->radix, 144);
  EXPECT_EQ(q3400->port_rate, DataRate::Gbps(800));
  // The estimate its source states: $50,000 / 64 ports x 2 (800G) x 144 ports.
  EXPECT_DOUBLE_EQ(q3400->cost.price_usd, 50000.0 / 64 * 2 * 144);
  EXPECT_TRUE(q3400->cost.price_assumed);
  // The entries scenarios name stay Ethernet (the default family).
  for (const char* name : {"128x400G", "64x800G", "64x400G", "32x100G"}) {
    ASSERT_NE(c.FindSwitch(name), nullptr) << name;
    EXPECT_EQ(c.FindSwitch(name)->family, SwitchFamily::kEthernet) << name;
  }
  EXPECT_EQ(c.FindNic("BF3-400G")->rate, DataRate::Gbps(400));
  EXPECT_EQ(c.FindNic("CX7-400G")->ports, 1);
  EXPECT_DOUBLE_EQ(c.FindGpu("H100")->cost.price_usd, 30000);  // [S3]
  EXPECT_DOUBLE_EQ(c.FindGpu("B200")->cost.power_w, 1000);     // [S3] TDP
}

// Every built-in part has a price, a power, a source and a month: what the
// planner's bill of materials needs.
TEST(Catalog, EveryBuiltInPartIsCosted) {
  const Catalog& c = Catalog::BuiltIn();
  auto check = [](const std::string& name, const PartCost& cost) {
    EXPECT_GT(cost.price_usd, 0) << name;
    EXPECT_GT(cost.power_w, 0) << name;
    EXPECT_FALSE(cost.source.empty()) << name;
    EXPECT_EQ(cost.date.size(), 7u) << name;
  };
  for (const SwitchSpec& s : c.switches()) check(s.name, s.cost);
  for (const NicSpec& n : c.nics()) check(n.name, n.cost);
  for (const GpuSpec& g : c.gpus()) check(g.name, g.cost);
  ASSERT_FALSE(c.media().empty());
  for (const LinkMediaSpec& m : c.media()) {
    check(m.name, m.cost);
    EXPECT_GT(m.max_reach_m, 0) << m.name;
    EXPECT_FALSE(m.source.empty()) << m.name;
    // Optics are priced per part: one module at each end plus the fibre.
    if (m.kind == MediaKind::kOptics) {
      EXPECT_DOUBLE_EQ(m.cost.price_usd, 2 * m.transceiver_usd + m.fiber_usd) << m.name;
    }
  }
}

TEST(Catalog, BuiltInMedia) {
  const Catalog& c = Catalog::BuiltIn();
  // 800G 2xDR4: [S2]'s DR8 midpoint $1,250 per module, two MPO fibres at
  // $100, 17 W per end [S5] (a link draws both ends).
  const LinkMediaSpec* dr4 = c.FindMedia("800G-2xDR4");
  ASSERT_NE(dr4, nullptr);
  EXPECT_EQ(dr4->kind, MediaKind::kOptics);
  EXPECT_DOUBLE_EQ(dr4->max_reach_m, 500);
  EXPECT_DOUBLE_EQ(dr4->cost.price_usd, 2 * 1250 + 200);
  EXPECT_DOUBLE_EQ(dr4->cost.power_w, 2 * 17);
  // Copper is the cheapest 800G link inside a rack; past the optics' reach
  // there is nothing.
  EXPECT_EQ(c.CheapestMedia(DataRate::Gbps(800), 1)->kind, MediaKind::kDac);
  EXPECT_EQ(c.CheapestMedia(DataRate::Gbps(800), 300)->name, "800G-2xDR4");
  EXPECT_EQ(c.CheapestMedia(DataRate::Gbps(800), 5000), nullptr);
  EXPECT_EQ(c.CheapestMedia(DataRate::Gbps(1600), 1), nullptr);
}

// A small hand-written catalog: three 400G media and one 800G.
constexpr char kMedia[] = R"(media:
  - name: cheap-short
    kind: dac
    rate: 400Gbps
    max_reach_m: 2
    price_usd: 100
    power_per_end_w: 0.1
    source: s
    price_source: p
    price_date: 2026-01
  - name: mid
    kind: aoc
    rate: 400Gbps
    max_reach_m: 30
    price_usd: 500
    power_per_end_w: 3
    source: s
    price_source: p
    price_date: 2026-01
  - name: long
    kind: optics
    rate: 400Gbps
    max_reach_m: 500
    transceiver_usd: 300
    fiber_usd: 50
    power_per_end_w: 8
    source: s
    price_source: p
    price_date: 2026-01
  - name: fast
    kind: dac
    rate: 800Gbps
    max_reach_m: 2
    price_usd: 10
    power_per_end_w: 0.1
    source: s
    price_source: p
    price_date: 2026-01
)";

TEST(CatalogMedia, CheapestPicksByReachThenPrice) {
  Result<Catalog> c = Catalog::Parse(kMedia, "m.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  // long: 2 x $300 + $50 = $650, dearer than the AOC's $500.
  EXPECT_DOUBLE_EQ(c->FindMedia("long")->cost.price_usd, 650);
  EXPECT_DOUBLE_EQ(c->FindMedia("long")->cost.power_w, 16);
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(400), 1.5)->name, "cheap-short");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(400), 2)->name, "cheap-short");  // reach covers its length
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(400), 2.5)->name, "mid");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(400), 31)->name, "long");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(400), 501), nullptr);
  // Rate must match: the $10 800G cable never serves a 400G link.
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(800), 1)->name, "fast");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(200), 1), nullptr);
}

TEST(CatalogMedia, PriceFormMustFitTheKind) {
  auto error = [](const std::string& text) {
    Result<Catalog> c = Catalog::Parse(text, "m.yaml");
    return c.ok() ? "(parsed)" : c.error().message;
  };
  const std::string text = kMedia;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  EXPECT_THAT(error(replace("kind: dac", "kind: pigeon")),
              HasSubstr("m.yaml:3: media[0].kind: expected one of dac, acc, aoc, optics, got 'pigeon'"));
  EXPECT_THAT(error(replace("transceiver_usd: 300", "price_usd: 300")),
              HasSubstr("m.yaml:24: media[2].price_usd: optics are priced per part"));
  EXPECT_THAT(error(replace("price_usd: 500", "transceiver_usd: 500")),
              HasSubstr("m.yaml:15: media[1].transceiver_usd: a cable is priced whole"));
  EXPECT_THAT(error(replace("price_date: 2026-01", "price_date: January")),
              HasSubstr("m.yaml:10: media[0].price_date: expected a month written YYYY-MM, got 'January'"));
  EXPECT_THAT(error(replace("    power_per_end_w: 0.1\n", "")),
              HasSubstr("m.yaml:2: media[0].power_per_end_w: required field is missing"));
}

// The base a price file is applied to: one switch with a cost, one NIC.
constexpr char kBase[] = R"(switches:
  - name: sw
    radix: 64
    port_rate: 400Gbps
    latency: 300ns
    buffer: 64MB
    capacity: 51.2Tbps
    source: datasheet
    price_usd: 50000
    power_w: 800
    price_source: list price
    price_date: 2024-08
    power_assumed: true
nics:
  - name: nic
    rate: 400Gbps
    source: datasheet
    price_usd: 2500
    power_w: 25
    price_source: estimate
    price_date: 2026-12
    price_assumed: true
)";

Catalog Base() {
  Result<Catalog> c = Catalog::Parse(kBase, "base.yaml");
  EXPECT_TRUE(c.ok()) << c.error().message;
  return c.ok() ? *c : Catalog();
}

std::string OverrideError(const std::string& text) {
  Result<Catalog> c = Base().WithOverrides(text, "prices.yaml");
  return c.ok() ? "(applied)" : c.error().message;
}

TEST(CatalogOverrides, ExistingNameReplacesOnlyTheFieldsGiven) {
  const Catalog base = Base();
  Result<Catalog> c = base.WithOverrides(
      "switches:\n  - name: sw\n    price_usd: 41000\n    price_date: 2026-11\n", "prices.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  const SwitchSpec* sw = c->FindSwitch("sw");
  EXPECT_DOUBLE_EQ(sw->cost.price_usd, 41000);
  EXPECT_EQ(sw->cost.date, "2026-11");
  EXPECT_EQ(sw->cost.source, "the user's price file");  // no price_source given
  EXPECT_FALSE(sw->cost.price_assumed);
  // Untouched: the figures, the power and its flag, the other sections.
  EXPECT_DOUBLE_EQ(sw->cost.power_w, 800);
  EXPECT_TRUE(sw->cost.power_assumed);
  EXPECT_EQ(sw->radix, 64);
  EXPECT_EQ(sw->latency, Time::FromNs(300));
  EXPECT_EQ(sw->source, "datasheet");
  EXPECT_DOUBLE_EQ(c->FindNic("nic")->cost.price_usd, 2500);
  // The base catalog is a value: unchanged.
  EXPECT_DOUBLE_EQ(base.FindSwitch("sw")->cost.price_usd, 50000);
  // A new quote for the NIC with its own source; a figure other than cost may
  // be replaced too.
  Result<Catalog> n = base.WithOverrides(
      "nics:\n  - name: nic\n    price_usd: 1900\n    price_source: quote 123\n    price_date: 2026-10\n"
      "switches:\n  - name: sw\n    latency: 250ns\n",
      "prices.yaml");
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_DOUBLE_EQ(n->FindNic("nic")->cost.price_usd, 1900);
  EXPECT_EQ(n->FindNic("nic")->cost.source, "quote 123");
  EXPECT_FALSE(n->FindNic("nic")->cost.price_assumed);
  EXPECT_EQ(n->FindSwitch("sw")->latency, Time::FromNs(250));
  EXPECT_DOUBLE_EQ(n->FindSwitch("sw")->cost.price_usd, 50000);
  EXPECT_EQ(n->FindSwitch("sw")->cost.source, "list price");
  // An empty price file changes nothing.
  Result<Catalog> empty = base.WithOverrides("", "prices.yaml");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_DOUBLE_EQ(empty->FindSwitch("sw")->cost.price_usd, 50000);
}

TEST(CatalogOverrides, NewNameAddsACompleteEntry) {
  Result<Catalog> c = Base().WithOverrides(
      "switches:\n"
      "  - name: new-ib\n"
      "    family: infiniband\n"
      "    radix: 32\n"
      "    port_rate: 200Gbps\n"
      "    latency: 200ns\n"
      "    buffer: 16MB\n"
      "    capacity: 12.8Tbps\n"
      "    source: mine\n"
      "    price_usd: 9000\n"
      "    power_w: 300\n"
      "    price_source: quote\n"
      "    price_date: 2026-09\n",
      "prices.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->switches().size(), 2u);
  const SwitchSpec* s = c->FindSwitch("new-ib");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->family, SwitchFamily::kInfiniband);
  EXPECT_EQ(s->radix, 32);
  EXPECT_DOUBLE_EQ(s->cost.price_usd, 9000);
  EXPECT_EQ(c->switches()[0].name, "sw");  // new entries come after the base's
}

TEST(CatalogOverrides, ErrorsNameFileLineAndField) {
  // A new entry must be complete, its cost included.
  EXPECT_THAT(OverrideError("nics:\n  - name: other\n    rate: 100Gbps\n    source: s\n"),
              HasSubstr("prices.yaml:2: nics[0].price_usd: required field is missing"));
  EXPECT_THAT(OverrideError("switches:\n  - name: other\n    radix: 8\n"),
              HasSubstr("prices.yaml:2: switches[0].port_rate: required field is missing"));
  // Unknown fields and sections, bad values.
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    discount: 10\n"),
              HasSubstr("prices.yaml:3: switches[0]: unknown field 'discount'"));
  EXPECT_THAT(OverrideError("cables: []\n"), HasSubstr("prices.yaml:1: unknown section 'cables'"));
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    price_usd: cheap\n    price_date: 2026-01\n"),
              HasSubstr("prices.yaml:3: switches[0].price_usd: expected a number"));
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    price_usd: -5\n    price_date: 2026-01\n"),
              HasSubstr("prices.yaml:3: switches[0].price_usd: expected a number"));
  // A new price needs the month it was seen.
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    price_usd: 40000\n"),
              HasSubstr("prices.yaml:2: switches[0].price_date: required with a new price"));
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    price_usd: 40000\n    price_date: 2026-13\n"),
              HasSubstr("prices.yaml:4: switches[0].price_date: expected a month written YYYY-MM"));
  EXPECT_THAT(OverrideError("switches:\n  - name: sw\n    price_date: 2026-01\n  - name: sw\n"),
              HasSubstr("prices.yaml:4: switches[1].name: duplicate entry 'sw'"));
  EXPECT_THAT(OverrideError("switches:\n  - {radix: 8}\n"),
              HasSubstr("prices.yaml:2: switches[0].name: required field is missing"));
  EXPECT_THAT(OverrideError("switches: [\n"), HasSubstr("prices.yaml:"));
}

// examples/plan/prices_example.yaml, the file docs/catalog.md shows, applies
// to the built-in catalog and changes what it says.
TEST(CatalogOverrides, TheExamplePriceFileApplies) {
  const std::string path = std::string(AIFABRIC_SOURCE_DIR) + "/examples/plan/prices_example.yaml";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  Result<Catalog> c = Catalog::BuiltIn().WithOverrides(text.str(), path);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_DOUBLE_EQ(c->FindSwitch("QM9790")->cost.price_usd, 29500);
  EXPECT_FALSE(c->FindSwitch("QM9790")->cost.price_assumed);
  EXPECT_DOUBLE_EQ(c->FindMedia("800G-2xDR4")->cost.price_usd, 2 * 950 + 200);
  ASSERT_NE(c->FindMedia("800G-2xDR4-LPO"), nullptr);
  // The LPO link, 2 x $800 + $200 = $1,800, undercuts 2xSR4 ($2,000) and
  // 2xDR4 ($2,100) past the AOC's 30 m; within 30 m the $1,400 AOC stays.
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(800), 20)->name, "800G-AOC");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(800), 40)->name, "800G-2xDR4-LPO");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(800), 400)->name, "800G-2xDR4-LPO");
  EXPECT_EQ(c->CheapestMedia(DataRate::Gbps(800), 600)->name, "800G-2xFR4");
  EXPECT_EQ(c->switches().size(), Catalog::BuiltIn().switches().size());
  EXPECT_EQ(c->media().size(), Catalog::BuiltIn().media().size() + 1);
}

}  // namespace
}  // namespace aifabric
