#include "fuzz/fuzz_checks.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "calibrate/nccl_tests_log.h"
#include "chakra/chakra_trace_file.h"
#include "core/rng.h"
#include "core/text_file.h"
#include "fabric/catalog.h"
#include "fabric/hpcc_topology_reader.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"
#include "fabric/ibnetdiscover_reader.h"
#include "fabric/lingjun_topology_reader.h"
#include "fabric/topology_builder.h"
#include "observe/prometheus_answer.h"
#include "plan/plan_requirements.h"
#include "sched/job_trace.h"
#include "scenario/scenario_loader.h"
#include "server/run_request.h"
#include "workload/flow_size_cdf.h"
#include "workload/hpcc_flow_file.h"
#include "workload/model_catalog.h"

namespace aifabric::fuzz {
namespace {

// The contract on an answer: a value, or an error whose message is not
// empty and names `input` (the origin the reader was given).
template <typename T>
CheckOutcome Contract(const Result<T>& r, std::string_view input) {
  if (r.ok()) return {};
  const std::string& m = r.error().message;
  if (m.empty()) return {true, "an error with an empty message"};
  if (m.find(input) == std::string::npos) return {true, "an error that does not name " + std::string(input) + ": " + m};
  return {true, ""};
}

const SwitchSpec& FuzzSwitch() {
  static const SwitchSpec spec = *Catalog::BuiltIn().FindSwitch("128x400G");
  return spec;
}

// A 2-leaf, 2-spine fabric of 4 hosts in HPCC's format: hosts 0-3, switches 4-7.
const Topology& SmallHpccFabric() {
  static const Topology t = *ParseHpccTopology(
      "8 4 8\n4 5 6 7\n0 4 100Gbps 0.001ms 0\n1 4 100Gbps 0.001ms 0\n2 5 100Gbps 0.001ms 0\n"
      "3 5 100Gbps 0.001ms 0\n4 6 100Gbps 0.001ms 0\n4 7 100Gbps 0.001ms 0\n5 6 100Gbps 0.001ms 0\n"
      "5 7 100Gbps 0.001ms 0\n",
      "fuzz_fabric.txt", FuzzSwitch());
  return t;
}

// A k=4 fat-tree (16 hosts, 20 switches) and its LIDs, for the LFT readers.
struct IbFabricFixture {
  Topology topology;
  IbLidMap map;
};
const IbFabricFixture& FatTreeK4() {
  static const IbFabricFixture f = [] {
    TopologySpec spec;
    spec.type = TopologyType::kFatTree;
    spec.switch_spec = *Catalog::BuiltIn().FindSwitch("32x100G");
    spec.servers = 16;
    spec.nic_rate = DataRate::Gbps(100);
    spec.k = 4;
    Topology t = *BuildTopology(spec);
    IbLidMap map = IbLidMap::ForTopology(t);
    return IbFabricFixture{std::move(t), std::move(map)};
  }();
  return f;
}

// `#set KEY=VALUE` lines (YAML comments) at the top of a scenario are its
// --set arguments, so the fuzzer mutates overrides and text together.
std::vector<std::string> SetLines(std::string_view text) {
  std::vector<std::string> sets;
  for (const TextLine& line : SplitLines(text)) {
    if (line.text.rfind("#set ", 0) != 0) break;
    sets.emplace_back(line.text.substr(5));
  }
  return sets;
}

// An error names the file, or the --set argument it came from ("--set
// cluster.servers: ...", as the CLI prints it).
CheckOutcome CheckScenario(std::string_view input) {
  const std::string text(input);
  Result<Scenario> s = LoadScenarioText(text, "fuzz.yaml", ".", SetLines(text));
  if (!s.ok() && s.error().message.rfind("--set ", 0) == 0) return {true, ""};
  return Contract(s, "fuzz.yaml");
}

CheckOutcome CheckHpccTopology(std::string_view input) {
  return Contract(ParseHpccTopology(input, "topology.txt", FuzzSwitch()), "topology.txt");
}

CheckOutcome CheckHpccFlows(std::string_view input) {
  return Contract(ParseHpccFlows(input, "flow.txt", SmallHpccFabric()), "flow.txt");
}

CheckOutcome CheckLingjun(std::string_view input) {
  TopologySpec spec;
  spec.type = TopologyType::kLingjunFile;
  spec.switch_spec = FuzzSwitch();
  return Contract(ParseLingjunTopology(input, "lingjun.csv", spec), "lingjun.csv");
}

CheckOutcome CheckIbnetdiscover(std::string_view input) {
  IbnetdiscoverOptions options;
  options.switch_spec = FuzzSwitch();
  return Contract(ReadIbnetdiscover(input, "ibnetdiscover.txt", options), "ibnetdiscover.txt");
}

CheckOutcome CheckOpensmLfts(std::string_view input) {
  const IbFabricFixture& f = FatTreeK4();
  return Contract(ReadOpensmLftDump(input, "opensm-lfts.dump", f.map, f.topology), "opensm-lfts.dump");
}

CheckOutcome CheckIbroute(std::string_view input) {
  const IbFabricFixture& f = FatTreeK4();
  return Contract(ReadIbroute(input, "ibroute.txt", f.map, f.topology), "ibroute.txt");
}

// The Chakra reader takes a path (it streams, and inflates gzip): the
// input goes to a scratch file of this process first.
CheckOutcome CheckChakra(std::string_view input) {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("aifabric_fuzz_" + std::to_string(getpid()) + ".0.et")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(input.data(), static_cast<std::streamsize>(input.size()));
    if (!out) return {};  // no scratch space: nothing to check
  }
  return Contract(ReadChakraTraceFile(path), path);
}

CheckOutcome CheckJobTrace(std::string_view input) {
  static const std::vector<std::string> models = [] {
    std::vector<std::string> names;
    for (const ModelSpec& m : BuiltInModels()) names.push_back(m.name);
    return names;
  }();
  return Contract(ParseJobTrace(input, "trace.csv", models), "trace.csv");
}

// A distribution read is also drawn from: its mean is a positive number
// and a draw is at least 1 byte (UBSan watches the conversions).
CheckOutcome CheckFlowSizeCdf(std::string_view input) {
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Parse(input, "cdf.txt");
  if (cdf.ok()) {
    if (!(cdf->Mean() > 0) || !std::isfinite(cdf->Mean())) return {false, "a distribution whose mean is not positive"};
    Rng rng(1);
    for (int i = 0; i < 8; ++i) {
      if (cdf->Sample(rng) < 1) return {false, "a draw of 0 bytes"};
    }
  }
  return Contract(cdf, "cdf.txt");
}

CheckOutcome CheckNcclTestsLog(std::string_view input) {
  return Contract(ParseNcclTestsLog(input, "nccl.log"), "nccl.log");
}

CheckOutcome CheckPlanRequirements(std::string_view input) {
  return Contract(ReadPlanRequirements(std::string(input), "requirements.yaml", "."), "requirements.yaml");
}

CheckOutcome CheckPrices(std::string_view input) {
  return Contract(Catalog::BuiltIn().WithOverrides(std::string(input), "prices.yaml"), "prices.yaml");
}

// The first byte picks the HTTP status the answer came with.
CheckOutcome CheckPrometheusAnswer(std::string_view input) {
  if (input.empty()) return {};
  static constexpr int kStatuses[] = {200, 400, 422, 503};
  const int status = kStatuses[static_cast<unsigned char>(input[0]) % 4];
  return Contract(ParsePrometheusAnswer(input.substr(1), status, "prometheus"), "prometheus");
}

// POST /api/runs: the first line is the query string (a=b&c=d, no
// percent-decoding: the server hands ParseRunRequest decoded pairs), the
// rest the body; for kind=schedule the body splits at a line `--trace--`
// into the parts scenario and trace. Its errors are the 400 answers, which
// name a query parameter or the input's name.
CheckOutcome CheckRunRequest(std::string_view input) {
  const size_t eol = input.find('\n');
  const std::string_view query = input.substr(0, eol);
  QueryParams params;
  for (std::string_view field : SplitTrimmed(query, '&')) {
    const size_t eq = field.find('=');
    params.emplace_back(std::string(field.substr(0, eq)),
                        eq == std::string_view::npos ? std::string() : std::string(field.substr(eq + 1)));
  }
  RequestBody body;
  body.text = eol == std::string_view::npos ? std::string() : std::string(input.substr(eol + 1));
  const size_t cut = body.text.find("\n--trace--\n");
  if (cut != std::string::npos) {
    body.parts.emplace_back("scenario", body.text.substr(0, cut));
    body.parts.emplace_back("trace", body.text.substr(cut + 11));
  }
  Result<ParsedRun> parsed = ParseRunRequest(params, body, ServeLimits{});
  if (parsed.ok()) return {};
  return {true, parsed.error().message.empty() ? "an error with an empty message" : ""};
}

constexpr FuzzTarget kTargets[] = {
    {"scenario", "scenario YAML/JSON with --set overrides", CheckScenario},
    {"hpcc_topology", "HPCC topology.txt", CheckHpccTopology},
    {"hpcc_flows", "HPCC flow.txt", CheckHpccFlows},
    {"lingjun", "Lingjun topology CSV", CheckLingjun},
    {"ibnetdiscover", "ibnetdiscover output / ibsim net file", CheckIbnetdiscover},
    {"opensm_lfts", "OpenSM opensm-lfts.dump", CheckOpensmLfts},
    {"ibroute", "ibroute output", CheckIbroute},
    {"chakra", "Chakra execution trace (.et)", CheckChakra},
    {"job_trace", "job-trace CSV", CheckJobTrace},
    {"flow_size_cdf", "flow-size CDF", CheckFlowSizeCdf},
    {"nccl_tests_log", "nccl-tests log", CheckNcclTestsLog},
    {"plan_requirements", "plan requirements YAML", CheckPlanRequirements},
    {"prices", "price / catalog override file", CheckPrices},
    {"prometheus_answer", "Prometheus HTTP API answer", CheckPrometheusAnswer},
    {"run_request", "POST /api/runs query and body", CheckRunRequest},
};

}  // namespace

std::span<const FuzzTarget> FuzzTargets() { return kTargets; }

const FuzzTarget* FindFuzzTarget(std::string_view name) {
  for (const FuzzTarget& t : kTargets) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

}  // namespace aifabric::fuzz
