#include "server/whatif_request.h"

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "core/text_file.h"
#include "report/output_folder.h"
#include "run/fabric_setup.h"
#include "server/sha256.h"
#include "server/topology_json.h"

namespace aifabric {
namespace {

struct ScenarioSource {
  std::string text, origin, base_dir;
};

Result<ScenarioSource> Template(const std::string& attachment_id, const std::string& attachment_dir) {
  const std::string path = attachment_dir + "/" + kWhatIfTemplateFile;
  if (!std::filesystem::exists(path)) {
    return Error{"run " + attachment_id + " has no what-if template (its attach document has no scenario:): post "
                 "a scenario of the same fabric as the body"};
  }
  Result<std::string> text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("text") || !j["text"].is_string() || !j.contains("origin") ||
      !j["origin"].is_string() || !j.contains("base_dir") || !j["base_dir"].is_string()) {
    return Error{path + ": not a what-if template"};
  }
  return ScenarioSource{j["text"].get<std::string>(), j["origin"].get<std::string>(), j["base_dir"].get<std::string>()};
}

// The first node or cable where the two topologies (as TopologyJson)
// differ, by name; "" when they are the same fabric.
std::string Difference(const nlohmann::json& attached, const nlohmann::ordered_json& scenario) {
  std::set<std::string> nodes_a, nodes_b;
  for (const auto& n : attached["nodes"]) nodes_a.insert(n["name"].get<std::string>());
  for (const auto& n : scenario["nodes"]) nodes_b.insert(n["name"].get<std::string>());
  for (const std::string& n : nodes_a) {
    if (nodes_b.count(n) == 0) return "the attached fabric has a node " + n + " the scenario's lacks";
  }
  for (const std::string& n : nodes_b) {
    if (nodes_a.count(n) == 0) return "the scenario's fabric has a node " + n + " the attached one lacks";
  }
  std::multiset<std::pair<std::string, std::string>> links_a, links_b;
  auto key = [](const auto& l) {
    const std::string a = l["a"].template get<std::string>(), b = l["b"].template get<std::string>();
    return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  };
  for (const auto& l : attached["links"]) links_a.insert(key(l));
  for (const auto& l : scenario["links"]) links_b.insert(key(l));
  for (const auto& l : links_a) {
    if (links_a.count(l) != links_b.count(l)) {
      return "the fabrics differ in the cables between " + l.first + " and " + l.second;
    }
  }
  for (const auto& l : links_b) {
    if (links_a.count(l) != links_b.count(l)) {
      return "the fabrics differ in the cables between " + l.first + " and " + l.second;
    }
  }
  return "";
}

}  // namespace

Status WriteWhatIfTemplate(const std::string& attachment_dir, const AttachSpec& spec) {
  const nlohmann::ordered_json j{
      {"origin", spec.scenario_origin}, {"base_dir", spec.scenario_base_dir}, {"text", spec.scenario_text}};
  return WriteFileAtomically(attachment_dir + "/" + kWhatIfTemplateFile, j.dump(2) + "\n");
}

Result<ParsedRun> ParseWhatIfRequest(const std::string& attachment_id, const std::string& attachment_dir,
                                     const QueryParams& params, const std::string& body, const ServeLimits& limits) {
  std::vector<std::string> overrides;
  std::string model, name = "scenario.yaml";
  for (const auto& [key, value] : params) {
    if (key == "set") overrides.push_back(value);
    else if (key == "model") model = value;
    else if (key == "name") name = value;
    else return Error{"query parameter " + key + " is not one a what-if takes (set, model, name)"};
  }
  if (!model.empty()) overrides.push_back("simulation.model=" + model);
  if (Result<std::string> checked = CheckInputName(name); !checked.ok()) return checked.error();
  Result<ScenarioSource> source = body.empty() ? Template(attachment_id, attachment_dir)
                                               : Result<ScenarioSource>(ScenarioSource{body, name, kPostedScenarioBaseDir});
  if (!source.ok()) return source.error();
  Result<Scenario> scenario = LoadPostedScenario(source->text, source->origin, source->base_dir, overrides, limits);
  if (!scenario.ok()) return scenario.error();

  Result<std::string> attached_text = ReadTextFile(attachment_dir + "/" + kRunTopologyFile);
  if (!attached_text.ok()) return Error{"run " + attachment_id + " has no topology yet: try again once it runs"};
  const nlohmann::json attached = nlohmann::json::parse(*attached_text, nullptr, /*allow_exceptions=*/false);
  Result<Topology> topology = BuildScenarioTopology(*scenario);
  if (!topology.ok()) return topology.error();
  if (!attached.is_object() || !attached.contains("nodes") || !attached.contains("links")) {
    return Error{attachment_dir + "/" + kRunTopologyFile + ": not a topology"};
  }
  const std::string difference = Difference(attached, TopologyJson(*topology));
  if (!difference.empty()) {
    return Error{source->origin + ": the what-if must simulate the attached fabric: " + difference};
  }
  ParsedRun run;
  run.kind = "run";
  run.input_sha256 = Sha256Hex(source->text);
  run.whatif_of = attachment_id;
  run.task = ScenarioRunTask(std::move(scenario).value(), source->origin, source->text);
  return run;
}

}  // namespace aifabric
