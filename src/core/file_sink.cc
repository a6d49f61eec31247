#include "core/file_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace aifabric {
namespace {

// "cannot write out/x.csv.tmp: No space left on device". `err`: the errno.
Error OsError(const char* what, const std::string& path, int err) {
  return Error{std::string("cannot ") + what + " " + path + ": " + std::strerror(err)};
}

}  // namespace

FileSink::FileSink(std::string path, size_t buffer_bytes)
    : path_(std::move(path)),
      tmp_path_(path_ + ".tmp"),
      buffer_bytes_(buffer_bytes),
      buffer_(new char[buffer_bytes]) {  // uninitialized: pages are touched as it fills
  assert(buffer_bytes_ > 0);
  SetBuffer(buffer_.get(), buffer_.get(), buffer_.get() + buffer_bytes_);
  fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) Fail(OsError("write", tmp_path_, errno));
}

FileSink::~FileSink() {
  if (closed_) return;
  // Abandoned: no file at path_, and no temporary left behind.
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_path_.c_str());
  }
}

void FileSink::Overflow(std::string_view text) {
  Drain();
  if (text.size() < buffer_bytes_) {
    Append(text);  // fits now
  } else {
    Write(text);  // at least a buffer's worth: no need to copy it first
  }
}

void FileSink::Drain() {
  Write(buffered());
  SetBuffer(buffer_.get(), buffer_.get(), buffer_.get() + buffer_bytes_);
}

void FileSink::Write(std::string_view bytes) {
  if (!status().ok()) return;  // dropped: the file is not written anyway
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail(OsError("write", tmp_path_, errno));
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

Status FileSink::Finish() {
  assert(!closed_);
  closed_ = true;
  Drain();
  if (fd_ < 0) return status();  // never opened: nothing to remove
  if (::close(fd_) != 0) Fail(OsError("write", tmp_path_, errno));  // e.g. a delayed write error (NFS, quota)
  fd_ = -1;
  if (!status().ok()) ::unlink(tmp_path_.c_str());
  return status();
}

Status FileSink::Close() {
  if (Status st = Finish(); !st.ok()) return st;
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    const int err = errno;  // before building the message
    Fail(OsError("rename", tmp_path_ + " to " + path_, err));
    ::unlink(tmp_path_.c_str());
  }
  return status();
}

}  // namespace aifabric
