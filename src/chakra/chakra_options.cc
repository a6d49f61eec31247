#include "chakra/chakra_options.h"

#include <set>

namespace aifabric {

Status CheckChakraOptions(const ChakraOptions& options, int32_t rank_count) {
  if (!options.rank_gpus.empty()) {
    if (options.rank_gpus.size() != static_cast<size_t>(rank_count)) {
      std::string m = "chakra: rank_gpus has ";
      m += std::to_string(options.rank_gpus.size());
      m += " GPUs for ";
      m += std::to_string(rank_count);
      m += " trace files";
      return Error{m};
    }
    std::set<GpuId> seen;
    for (GpuId g : options.rank_gpus) {
      if (g < 0) return Error{"chakra: rank_gpus: a negative GPU id"};
      if (!seen.insert(g).second) {
        std::string m = "chakra: rank_gpus: GPU ";
        m += std::to_string(g);
        m += " twice";
        return Error{m};
      }
    }
  }
  for (const auto& [name, ranks] : options.comm_groups) {
    std::string where = "chakra: comm group '";
    where += name;
    where += "': ";
    if (name.empty() || name == "0") return Error{where + "is the group of all ranks and cannot be given"};
    if (ranks.empty()) return Error{where + "no ranks"};
    std::set<int32_t> seen;
    for (int32_t r : ranks) {
      if (r < 0 || r >= rank_count) {
        std::string m = where;
        m += "rank ";
        m += std::to_string(r);
        m += " is not one of the ";
        m += std::to_string(rank_count);
        m += " trace files";
        return Error{m};
      }
      if (!seen.insert(r).second) return Error{where + "rank " + std::to_string(r) + " twice"};
    }
  }
  if (!(options.compute_efficiency > 0 && options.compute_efficiency <= 1)) {
    return Error{"chakra: compute_efficiency must be in (0, 1]"};
  }
  if (!(options.peak_flops_per_s >= 0)) return Error{"chakra: peak_flops_per_s must be >= 0"};
  return Status::Ok();
}

}  // namespace aifabric
