// CollectiveFlags are `aifabric collective`'s options as written (nccl-tests'
// -b -e -f -i, --op, --algo, --proto, ...), and CollectiveRequestFrom turns
// them into the CollectiveRequest run/collective_run.h sweeps. The CLI and
// the server (query parameters of POST /api/runs?kind=collective) both read
// them here, so their errors are the same words: each names the flag.
// Plain data and a pure function.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "report/collective_outputs.h"
#include "run/collective_run.h"

namespace aifabric {

struct CollectiveFlags {
  std::string op = "all_reduce";
  std::string min_bytes = "32M";       // -b (nccl-tests' default)
  std::string max_bytes = "32M";       // -e
  uint64_t step_factor = 2;            // -f, 2..2^20
  std::string step_bytes;              // -i (used when given)
  int gpus = 0;                        // 0 = every GPU of the cluster
  std::string algorithm = "auto";      // the fastest of NCCL's candidates per size
  std::string protocol = "auto";
  int channels = 0;                    // 0 = GPUs per server; else 1..64
  std::string chunk_bytes;             // "" -> NCCL's (NcclChunkBytes)
  bool no_pxn = false;
  int root = 0;
  int check = 0;                       // -c: print #wrong as 0 instead of N/A (0 or 1)

  CollectiveLabels labels() const { return CollectiveLabels{op, algorithm, protocol}; }
};

// The request the flags ask for; an Error names the flag at fault.
Result<CollectiveRequest> CollectiveRequestFrom(const CollectiveFlags& flags);

}  // namespace aifabric
