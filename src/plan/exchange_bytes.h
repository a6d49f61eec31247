// ByteWriter and ByteReader: the little-endian bytes the plan's processes
// exchange (plan_processes.h): integers, doubles by their exact bits,
// booleans and length-prefixed strings. ByteReader never reads past its
// input: a short read sets failed() and yields zeros, so a decoder reads on
// and checks once. Plain values; thread-compatible.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace aifabric {

class ByteWriter {
 public:
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v) { U64(std::bit_cast<uint64_t>(v)); }
  void Bool(bool v) { out_.push_back(v ? 1 : 0); }
  void Str(const std::string& s) {
    U64(s.size());
    out_ += s;
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ByteWriter wrote; a read past the end sets failed() and
// returns zeros, so a decoder reads on and checks once.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  uint64_t U64() {
    if (!Have(8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  double F64() { return std::bit_cast<double>(U64()); }
  bool Bool() {
    if (!Have(1)) return false;
    return in_[pos_++] != 0;
  }
  std::string Str() {
    const uint64_t n = U64();
    if (!Have(n)) return {};
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool Have(uint64_t n) {
    if (failed_ || n > in_.size() - pos_) failed_ = true;
    return !failed_;
  }
  std::string_view in_;
  size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace aifabric
