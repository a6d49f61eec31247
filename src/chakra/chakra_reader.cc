#include "chakra/chakra_reader.h"

#include <cassert>
#include <climits>
#include <fstream>

#include <nlohmann/json.hpp>

#include "chakra/chakra_job_assembler.h"
#include "chakra/chakra_rank_nodes.h"
#include "chakra/chakra_trace_reader.h"
#include "core/text_file.h"

namespace aifabric {

Result<JobGraph> ReadChakraTraces(const std::vector<std::string>& files_per_rank, const ChakraOptions& options) {
  if (files_per_rank.empty()) return Error{"chakra traces: no trace files"};
  if (files_per_rank.size() > static_cast<size_t>(INT32_MAX)) return Error{"chakra traces: too many files"};
  const int32_t rank_count = static_cast<int32_t>(files_per_rank.size());
  if (Status s = CheckChakraOptions(options, rank_count); !s.ok()) return s.error();
  ChakraNames names;
  std::vector<ChakraRankNodes> ranks;
  ranks.reserve(files_per_rank.size());
  // One node at a time: only the reduced form is kept.
  for (int32_t r = 0; r < rank_count; ++r) {
    const std::string& path = files_per_rank[r];
    Result<std::unique_ptr<ChakraTraceReader>> reader = ChakraTraceReader::Open(path, options.limits);
    if (!reader.ok()) return reader.error();
    ChakraRankReducer reducer(path, r, rank_count, options, names);
    ChakraProtoMsg::Node node;
    while (true) {
      Result<bool> more = (*reader)->Next(node);
      if (!more.ok()) return more.error();
      if (!*more) break;
      if (Status s = reducer.Add(node); !s.ok()) return s.error();
    }
    Result<ChakraRankNodes> reduced = std::move(reducer).Finish();
    if (!reduced.ok()) return reduced.error();
    ranks.push_back(std::move(*reduced));
  }
  return AssembleChakraJob(ranks, names, options);
}

Result<JobGraph> ReadChakraTracePrefix(const std::string& prefix, const ChakraOptions& options) {
  Result<std::vector<std::string>> files = FindChakraTraceFiles(prefix);
  if (!files.ok()) return files.error();
  return ReadChakraTraces(*files, options);
}

Result<JobGraph> BuildChakraJobGraph(const std::vector<ChakraRankTrace>& ranks, const std::vector<std::string>& origins,
                                     const ChakraOptions& options) {
  assert(origins.size() == ranks.size());
  if (origins.size() != ranks.size()) return Error{"chakra traces: one origin per rank expected"};
  if (ranks.empty()) return Error{"chakra traces: no ranks"};
  const int32_t rank_count = static_cast<int32_t>(ranks.size());
  if (Status s = CheckChakraOptions(options, rank_count); !s.ok()) return s.error();
  ChakraNames names;
  std::vector<ChakraRankNodes> reduced;
  for (int32_t r = 0; r < rank_count; ++r) {
    ChakraRankReducer reducer(origins[r], r, rank_count, options, names);
    for (const ChakraProtoMsg::Node& node : ranks[r].nodes) {
      if (Status s = reducer.Add(node); !s.ok()) return s.error();
    }
    Result<ChakraRankNodes> one = std::move(reducer).Finish();
    if (!one.ok()) return one.error();
    reduced.push_back(std::move(*one));
  }
  return AssembleChakraJob(reduced, names, options);
}

Result<std::map<std::string, std::vector<int32_t>>> ReadChakraCommGroups(const std::string& path) {
  std::ifstream file(path);
  if (!file) return Error{path + ": cannot open"};
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{path + ": not valid JSON"};
  if (!j.is_object()) return Error{path + ": expected an object {\"group\": [ranks...], ...}"};
  std::map<std::string, std::vector<int32_t>> groups;
  for (const auto& [name, ranks] : j.items()) {
    std::string where = path;
    where += ": group '";
    where += name;
    where += "': ";
    if (!ranks.is_array()) return Error{where + "expected an array of ranks"};
    std::vector<int32_t>& out = groups[name];
    for (const nlohmann::json& r : ranks) {
      if (!r.is_number_integer() || r.get<int64_t>() < 0 || r.get<int64_t>() > INT32_MAX) {
        return Error{where + "expected ranks as non-negative integers, got " + r.dump()};
      }
      out.push_back(static_cast<int32_t>(r.get<int64_t>()));
    }
  }
  return groups;
}

}  // namespace aifabric
