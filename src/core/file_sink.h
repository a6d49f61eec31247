// FileSink is a TextSink that writes a file through a buffer of fixed size
// (1 MiB by default), so rendering a file of any size holds at most that
// much of it. The write is atomic: the bytes go to `path`.tmp and Close()
// renames it to `path`, so no reader ever sees a half-written file, and a
// write that fails, or is abandoned (destroyed without Close), leaves no
// file behind and an earlier file at `path` untouched. Errors (opening,
// writing, closing, renaming) name the file and the OS reason; the first
// one is kept (status()) and returned by Close. Owned by whoever writes the
// file; not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/text_sink.h"

namespace aifabric {

class FileSink final : public TextSink {
 public:
  static constexpr size_t kDefaultBufferBytes = size_t{1} << 20;

  // Creates (or truncates) `path`.tmp; an error doing so is kept in
  // status(). REQUIRES: buffer_bytes > 0.
  explicit FileSink(std::string path, size_t buffer_bytes = kDefaultBufferBytes);
  // Without Close: removes `path`.tmp (an abandoned write leaves no file).
  ~FileSink() override;

  // Writes what is buffered, closes the file and renames it to `path`.
  // Returns the first error of the whole write (and then removes the
  // temporary file and leaves `path` as it was). REQUIRES: called once;
  // nothing is appended after it.
  [[nodiscard]] Status Close();
  // Writes what is buffered and closes the temporary file, leaving it
  // there for the caller to rename (OutputFolder renames a command's files
  // together) or remove. Returns the first error of the whole write (and
  // then removes the temporary file). REQUIRES: called once, instead of
  // Close; nothing is appended after it.
  [[nodiscard]] Status Finish();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_path_; }

 private:
  void Overflow(std::string_view text) override;
  // Writes what is buffered (unless an error was kept) and empties the buffer.
  void Drain();
  // Writes `bytes` to the file unless an error was kept; keeps the first.
  void Write(std::string_view bytes);

  // Fixed at construction.
  const std::string path_;
  const std::string tmp_path_;
  const size_t buffer_bytes_;
  const std::unique_ptr<char[]> buffer_;

  int fd_ = -1;          // of tmp_path_; -1 when it could not be created, and after Close
  bool closed_ = false;  // Close() was called
};

}  // namespace aifabric
