// ChakraTraceReader streams one rank's Chakra trace file: the
// GlobalMetadata when opened, then one Node per Next(), so a large file is
// never held whole. The framing is chakra's protoio: each message is a
// varint byte count, then the message; a file starting with gzip's magic
// bytes (1f 8b) is inflated on the way. Owns its open file; not
// thread-safe.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "chakra/et_def.pb.h"
#include "core/result.h"

namespace google::protobuf::io {
class GzipInputStream;
class IstreamInputStream;
}  // namespace google::protobuf::io

namespace aifabric {

// What one file may cost a reader.
struct ChakraFileLimits {
  uint64_t max_message_bytes = 64ull << 20;  // one Node or the metadata
  uint64_t max_nodes = 50'000'000;           // per file
};

class ChakraTraceReader {
 public:
  // Opens `path` and reads its GlobalMetadata. Errors name the path: a
  // missing or empty file, or a first message that is not a metadata.
  static Result<std::unique_ptr<ChakraTraceReader>> Open(const std::string& path, const ChakraFileLimits& limits = {});

  ~ChakraTraceReader();
  ChakraTraceReader(const ChakraTraceReader&) = delete;
  ChakraTraceReader& operator=(const ChakraTraceReader&) = delete;

  const ChakraProtoMsg::GlobalMetadata& metadata() const { return metadata_; }

  // Reads the next node into `node`; false at the end of the file. Errors
  // name the path and the message's byte offset: a bad or truncated length
  // prefix, a message that is truncated, over the size limit, or does not
  // parse; more nodes than the limit; bad gzip data.
  Result<bool> Next(ChakraProtoMsg::Node& node);

 private:
  class Bytes;
  ChakraTraceReader(const std::string& path, const ChakraFileLimits& limits);
  // One length-delimited message into buffer_; false at a clean end.
  Result<bool> NextFrame();
  std::string At(uint64_t offset) const;

  // Fixed at Open:
  const std::string path_;
  const ChakraFileLimits limits_;

  std::ifstream file_;
  std::unique_ptr<google::protobuf::io::IstreamInputStream> raw_;
  std::unique_ptr<google::protobuf::io::GzipInputStream> gzip_;  // null for a plain file
  std::unique_ptr<Bytes> bytes_;
  ChakraProtoMsg::GlobalMetadata metadata_;
  std::string buffer_;
  uint64_t frame_offset_ = 0;  // where the message in buffer_ starts
  uint64_t nodes_ = 0;
};

}  // namespace aifabric
