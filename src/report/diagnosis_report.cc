#include "report/diagnosis_report.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/text_file.h"
#include "diagnosis/diagnosis.h"

namespace aifabric {

Result<std::string> DiagnosisReport(const std::string& out_dir) {
  const std::string path = out_dir + "/diagnosis.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read it (is " + out_dir + " the output folder of an aifabric run?)"};
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  nlohmann::ordered_json diagnosis = nlohmann::ordered_json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (diagnosis.is_discarded()) return Error{path + ": not valid JSON"};
  if (!diagnosis.is_object() || !diagnosis.contains("findings") || !diagnosis["findings"].is_array()) {
    return Error{path + ": expected an object with a \"findings\" list"};
  }
  return FormatFindings(diagnosis);
}

}  // namespace aifabric
