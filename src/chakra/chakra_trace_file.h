// One rank's Chakra execution-trace file (`<prefix>.<rank>.et`) read and
// written whole: a stream of length-delimited protobuf messages (a varint
// byte count, then the message), a GlobalMetadata first, then the Nodes in
// file order — the framing of chakra's protoio and ASTRA-sim's feeder
// (ChakraTraceReader streams the same files). The names of a trace set's
// files. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chakra/chakra_trace_reader.h"
#include "chakra/et_def.pb.h"
#include "core/result.h"

namespace aifabric {

// A rank's trace: its metadata and its nodes in file order.
struct ChakraRankTrace {
  ChakraProtoMsg::GlobalMetadata metadata;
  std::vector<ChakraProtoMsg::Node> nodes;
};

// Reads the file at `path` whole (gzip too), with ChakraTraceReader's
// errors.
Result<ChakraRankTrace> ReadChakraTraceFile(const std::string& path, const ChakraFileLimits& limits = {});

// Writes `trace` to `path` (uncompressed), replacing it. The error names
// the path.
Status WriteChakraTraceFile(const std::string& path, const ChakraRankTrace& trace);

// "<prefix>.<rank>.et", the name ASTRA-sim opens for a rank.
std::string ChakraTracePath(const std::string& prefix, int rank);

// Writes rank r's trace to ChakraTracePath(prefix, r) for every r.
Status WriteChakraTraces(const std::string& prefix, const std::vector<ChakraRankTrace>& ranks);

// The files of a trace set: `<prefix>.0.et`, `<prefix>.1.et`, ... — every
// file in the prefix's directory named `<basename>.<rank>.et`, in rank
// order. Errors: no such file, or a rank missing below the highest found.
Result<std::vector<std::string>> FindChakraTraceFiles(const std::string& prefix);

}  // namespace aifabric
