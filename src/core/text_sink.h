// TextSink is where a writer puts the bytes of a file it renders: the
// writer appends, the sink decides where the bytes go. Appends are inline
// (a bounds check and a memcpy into the sink's buffer); only when the
// buffer is full does the sink make room (drain it, or grow it) through one
// virtual call. Errors are values: the first error a sink meets is kept in
// status() and later appends are dropped, so a writer appends without
// checking and its caller checks once at the end.
// StringSink keeps everything in memory: the form a string-returning
// renderer wraps. FileSink (core/file_sink.h) writes through a fixed
// buffer into a file, so a writer never holds the whole file. Not
// thread-safe; one writer at a time.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "core/result.h"

namespace aifabric {

class TextSink {
 public:
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;
  virtual ~TextSink() = default;

  void Append(std::string_view text) {
    if (text.size() <= static_cast<size_t>(end_ - next_)) {
      std::memcpy(next_, text.data(), text.size());
      next_ += text.size();
    } else {
      Overflow(text);
    }
  }
  void Append(char c) {
    if (next_ == end_) {
      Overflow(std::string_view(&c, 1));
    } else {
      *next_++ = c;
    }
  }

  // OK, or the first error the sink met (appends since then were dropped).
  const Status& status() const { return status_; }

 protected:
  TextSink() = default;

  // Appends go to [next, end) of the buffer [begin, end); [begin, next)
  // holds the bytes appended and not yet taken. REQUIRES: begin <= next <=
  // end, all non-null.
  void SetBuffer(char* begin, char* next, char* end) {
    begin_ = begin;
    next_ = next;
    end_ = end;
  }
  std::string_view buffered() const { return std::string_view(begin_, static_cast<size_t>(next_ - begin_)); }
  // `text` does not fit in the buffer: make room (SetBuffer), then append it.
  virtual void Overflow(std::string_view text) = 0;
  // Keeps `error` unless an earlier one is kept.
  void Fail(Error error);

 private:
  char* begin_ = nullptr;
  char* next_ = nullptr;
  char* end_ = nullptr;
  Status status_;
};

// Keeps every byte in memory (the buffer doubles when full); Take() hands
// them over.
class StringSink final : public TextSink {
 public:
  StringSink();

  // The bytes appended so far; the sink is empty after.
  std::string Take();
  std::string_view view() const { return buffered(); }

 private:
  void Overflow(std::string_view text) override;

  std::string text_;  // the buffer: its first view().size() bytes are the text
};

}  // namespace aifabric
