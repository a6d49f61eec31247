// The flow and analytic levels against the packet level where nothing
// congests: a permutation under one switch (each NIC sends one flow and
// receives one) agrees within 5%.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

double MeanFctUs(const std::string& model) {
  const std::string text =
      "name: perm\nseed: 3\n"
      "cluster: {servers: 16, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
      "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 16}, link: {latency: 500ns},"
      " switch: {name: t, radix: 32, port_rate: 100Gbps, latency: 400ns, buffer: 64MiB}, mtu: 4096}\n"
      "simulation: {model: " + model + "}\n"
      "workload:\n  - permutation: {size: 4MiB}\n";
  Result<Scenario> s = LoadScenarioText(text, "perm.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*s);
  EXPECT_TRUE(run.ok()) << run.error().message;
  (*run)->Execute();
  double sum = 0;
  for (const FlowSpec& f : (*run)->flows()) sum += ((*run)->finish(f.id) - f.start).us_f();
  return sum / static_cast<double>((*run)->flows().size());
}

TEST(ModelAgreement, AnUncongestedPermutationAgreesWithin5Percent) {
  // 4 MiB per flow at 100G: 1024 packets of 4178 B = 342 us alone; the
  // packet level adds each receiver's ACKs on its link (2%).
  const double packet = MeanFctUs("packet"), flow = MeanFctUs("flow"), analytic = MeanFctUs("analytic");
  std::printf("permutation mean FCT: packet %.2f us, flow %.2f us, analytic %.2f us\n", packet, flow, analytic);
  EXPECT_NEAR(flow, packet, 0.05 * packet);
  EXPECT_NEAR(analytic, packet, 0.05 * packet);
}

}  // namespace
}  // namespace aifabric
