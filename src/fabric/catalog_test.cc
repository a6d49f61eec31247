#include "fabric/catalog.h"

#include <gtest/gtest.h>
#include <gmock/gmock.h>

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
  EXPECT_THAT(ParseError("- 1\n"), HasSubstr("t.yaml:1: expected a map"));
}

TEST(CatalogParse, DuplicateName) {
  // The entry again, under the same list: its name sits on line 9.
  const std::string twice = std::string(kGood) + Replace(kGood, "switches:\n", "");
  EXPECT_THAT(ParseError(twice), HasSubstr("t.yaml:9: switches[1].name: duplicate entry 'tiny'"));
}

}  // namespace
}  // namespace aifabric
