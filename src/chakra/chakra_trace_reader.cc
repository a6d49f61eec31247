#include "chakra/chakra_trace_reader.h"

#include <algorithm>

#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

namespace aifabric {

namespace pbio = google::protobuf::io;

// Bytes of a ZeroCopyInputStream one at a time or in runs, counting the
// offset.
class ChakraTraceReader::Bytes {
 public:
  explicit Bytes(pbio::ZeroCopyInputStream* in) : in_(in) {}

  // False at the end of the input.
  bool Byte(uint8_t& b) {
    if (!Fill()) return false;
    b = *p_++;
    --left_;
    ++offset_;
    return true;
  }

  // Appends up to `n` bytes to `out`; returns how many there were.
  uint64_t Read(uint64_t n, std::string& out) {
    uint64_t done = 0;
    while (done < n && Fill()) {
      const uint64_t take = std::min<uint64_t>(n - done, static_cast<uint64_t>(left_));
      out.append(reinterpret_cast<const char*>(p_), take);
      p_ += take;
      left_ -= static_cast<int>(take);
      offset_ += take;
      done += take;
    }
    return done;
  }

  uint64_t offset() const { return offset_; }

 private:
  bool Fill() {
    while (left_ == 0) {
      const void* data = nullptr;
      int size = 0;
      if (!in_->Next(&data, &size)) return false;
      p_ = static_cast<const uint8_t*>(data);
      left_ = size;
    }
    return true;
  }

  pbio::ZeroCopyInputStream* const in_;
  const uint8_t* p_ = nullptr;
  int left_ = 0;
  uint64_t offset_ = 0;
};

ChakraTraceReader::ChakraTraceReader(const std::string& path, const ChakraFileLimits& limits)
    : path_(path), limits_(limits), file_(path, std::ios::binary) {}

ChakraTraceReader::~ChakraTraceReader() = default;

std::string ChakraTraceReader::At(uint64_t offset) const {
  std::string s = path_;
  s += ": byte ";
  s += std::to_string(offset);
  s += ": ";
  return s;
}

Result<std::unique_ptr<ChakraTraceReader>> ChakraTraceReader::Open(const std::string& path,
                                                                  const ChakraFileLimits& limits) {
  std::unique_ptr<ChakraTraceReader> r(new ChakraTraceReader(path, limits));
  if (!r->file_) return Error{path + ": cannot open"};
  // gzip's magic bytes, as chakra's protoio checks them.
  const int b0 = r->file_.get();
  const int b1 = r->file_.get();
  r->file_.clear();
  r->file_.seekg(0);
  r->raw_ = std::make_unique<pbio::IstreamInputStream>(&r->file_);
  pbio::ZeroCopyInputStream* stream = r->raw_.get();
  if (b0 == 0x1f && b1 == 0x8b) {
    r->gzip_ = std::make_unique<pbio::GzipInputStream>(r->raw_.get(), pbio::GzipInputStream::GZIP);
    stream = r->gzip_.get();
  }
  r->bytes_ = std::make_unique<Bytes>(stream);
  Result<bool> frame = r->NextFrame();
  if (!frame.ok()) return frame.error();
  if (!*frame) return Error{path + ": empty file (a Chakra trace starts with a GlobalMetadata message)"};
  if (!r->metadata_.ParseFromString(r->buffer_)) {
    return Error{r->At(0) + "the first message is not a Chakra GlobalMetadata"};
  }
  return r;
}

Result<bool> ChakraTraceReader::NextFrame() {
  Result<bool> frame = [&]() -> Result<bool> {
    frame_offset_ = bytes_->offset();
    uint64_t size = 0;
    for (int i = 0, shift = 0;; ++i, shift += 7) {
      uint8_t b = 0;
      if (!bytes_->Byte(b)) {
        if (i == 0) return false;
        return Error{At(frame_offset_) + "truncated length prefix (the file ends inside a varint)"};
      }
      if (i == 9 && b > 1) return Error{At(frame_offset_) + "bad length prefix (a varint longer than 64 bits)"};
      size |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if (size > limits_.max_message_bytes) {
      std::string m = At(frame_offset_);
      m += "a message of ";
      m += std::to_string(size);
      m += " bytes, more than the limit of ";
      m += std::to_string(limits_.max_message_bytes);
      m += " (a corrupt length prefix, or not a Chakra trace)";
      return Error{m};
    }
    buffer_.clear();
    const uint64_t got = bytes_->Read(size, buffer_);
    if (got < size) {
      std::string m = At(frame_offset_);
      m += "truncated message: its prefix declares ";
      m += std::to_string(size);
      m += " bytes, the file holds ";
      m += std::to_string(got);
      return Error{m};
    }
    return true;
  }();
  // A stream that stops early because the gzip data is bad: say so.
  if ((!frame.ok() || !*frame) && gzip_ != nullptr && gzip_->ZlibErrorMessage() != nullptr) {
    std::string m = path_;
    m += ": bad gzip data: ";
    m += gzip_->ZlibErrorMessage();
    return Error{m};
  }
  return frame;
}

Result<bool> ChakraTraceReader::Next(ChakraProtoMsg::Node& node) {
  Result<bool> frame = NextFrame();
  if (!frame.ok() || !*frame) return frame;
  if (nodes_ >= limits_.max_nodes) {
    std::string m = At(frame_offset_);
    m += "more than ";
    m += std::to_string(limits_.max_nodes);
    m += " nodes";
    return Error{m};
  }
  ++nodes_;
  if (!node.ParseFromString(buffer_)) {
    std::string m = At(frame_offset_);
    m += "node #";
    m += std::to_string(nodes_);
    m += " does not parse as a Chakra Node";
    return Error{m};
  }
  return true;
}

}  // namespace aifabric
