// FindingsJson and FormatFindings: diagnosis.json and its text table.
#include <algorithm>
#include <cstdio>

#include "diagnosis/diagnosis.h"
#include "diagnosis/diagnosis_context.h"

namespace aifabric {

nlohmann::ordered_json FindingsJson(const Topology& topology, const std::vector<Finding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    nlohmann::ordered_json j;
    j["kind"] = f.kind;
    j["node"] = topology.node(f.node).name;
    if (f.port_peer == kNoNode) {
      j["port_peer"] = nullptr;  // a finding of a node, not of a port (straggler)
    } else {
      j["port_peer"] = topology.node(f.port_peer).name;
    }
    j["severity"] = Round4(f.severity);
    j["evidence"] = f.evidence;
    j["flows"] = f.flows;
    j["owners"] = f.owners;
    list.push_back(std::move(j));
  }
  nlohmann::ordered_json doc;
  doc["findings"] = std::move(list);
  return doc;
}

namespace {

using Row = std::vector<std::string>;

std::string FixedSeverity(double severity) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4f", severity);
  return buf;
}

// Scalar evidence as "key=value" pairs, in the document's order.
std::string ScalarEvidence(const nlohmann::ordered_json& evidence) {
  std::string line;
  if (!evidence.is_object()) return line;
  for (const auto& [key, value] : evidence.items()) {
    if (value.is_structured() || value.is_null()) continue;
    if (!line.empty()) line += ' ';
    line += key + '=' + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return line;
}

Result<Row> FindingRow(const nlohmann::ordered_json& f, size_t rank) {
  const std::string where = "findings[" + std::to_string(rank - 1) + "]";
  if (!f.is_object()) return Error{where + ": expected an object"};
  for (const char* key : {"kind", "node"}) {
    if (!f.contains(key) || !f[key].is_string()) return Error{where + "." + key + ": expected a string"};
  }
  if (!f.contains("port_peer") || !(f["port_peer"].is_string() || f["port_peer"].is_null())) {
    return Error{where + ".port_peer: expected a string or null"};
  }
  if (!f.contains("severity") || !f["severity"].is_number()) {
    return Error{where + ".severity: expected a number"};
  }
  size_t flows = 0;
  if (f.contains("flows") && f["flows"].is_array()) flows = f["flows"].size();
  if (f.contains("evidence") && f["evidence"].is_object() && f["evidence"].contains("flows_total") &&
      f["evidence"]["flows_total"].is_number_unsigned()) {
    flows = f["evidence"]["flows_total"].get<size_t>();
  }
  std::string owners;
  if (f.contains("owners") && f["owners"].is_array()) {
    for (const auto& o : f["owners"]) {
      if (!o.is_string()) return Error{where + ".owners: expected strings"};
      owners += (owners.empty() ? "" : ",") + o.get<std::string>();
    }
  }
  return Row{std::to_string(rank),       FixedSeverity(f["severity"].get<double>()),
             f["kind"].get<std::string>(), f["node"].get<std::string>(),
             f["port_peer"].is_null() ? "-" : f["port_peer"].get<std::string>(), std::to_string(flows),
             owners.empty() ? "-" : owners};
}

}  // namespace

Result<std::string> FormatFindings(const nlohmann::ordered_json& diagnosis) {
  if (!diagnosis.is_object() || !diagnosis.contains("findings") || !diagnosis["findings"].is_array()) {
    return Error{"diagnosis: expected an object with a \"findings\" array"};
  }
  const nlohmann::ordered_json& findings = diagnosis["findings"];
  if (findings.empty()) return std::string("no findings\n");
  std::vector<Row> rows = {{"rank", "severity", "kind", "node", "port_peer", "flows", "owners"}};
  std::vector<std::string> details = {""};
  for (size_t i = 0; i < findings.size(); ++i) {
    Result<Row> row = FindingRow(findings[i], i + 1);
    if (!row.ok()) return row.error();
    rows.push_back(std::move(row).value());
    details.push_back(findings[i].contains("evidence") ? ScalarEvidence(findings[i]["evidence"]) : "");
  }
  std::vector<size_t> width(rows.front().size(), 0);
  for (const Row& r : rows) {
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t c = 0; c < rows[i].size(); ++c) {
      out += rows[i][c];
      if (c + 1 < rows[i].size()) out += std::string(width[c] - rows[i][c].size() + 2, ' ');
    }
    out += '\n';
    if (!details[i].empty()) out += "    " + details[i] + '\n';
  }
  return out;
}

}  // namespace aifabric
