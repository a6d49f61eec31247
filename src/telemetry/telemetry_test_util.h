// Helpers shared by the telemetry tests (test-only; not part of the library).
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "core/file_sink.h"
#include "core/text_file.h"

namespace aifabric::telemetry_testing {

// What `write` puts into a FileSink of `buffer_bytes` (at a fresh path in
// the test's temporary folder), read back from the file; a failed write
// fails the test and gives "".
inline std::string ThroughFile(const std::function<void(TextSink&)>& write,
                               size_t buffer_bytes = FileSink::kDefaultBufferBytes) {
  static std::atomic<int> next{0};
  const std::string path = ::testing::TempDir() + "/telemetry_test_" + std::to_string(::getpid()) + "_" +
                           std::to_string(next++) + ".out";
  FileSink sink(path, buffer_bytes);
  write(sink);
  const Status closed = sink.Close();
  EXPECT_TRUE(closed.ok()) << closed.error().message;
  if (!closed.ok()) return "";
  Result<std::string> text = ReadTextFile(path);
  EXPECT_TRUE(text.ok()) << text.error().message;
  std::remove(path.c_str());
  return text.ok() ? std::move(text).value() : "";
}

}  // namespace aifabric::telemetry_testing
