// RunIdGenerator makes the server's run ids: 12 hex digits of a strictly
// increasing millisecond clock (the creation time, bumped by one when two
// runs share a millisecond), a dash, and 8 hex digits from
// std::random_device: "0192a3b4c5d6-9f0e1a2b". Ids sort by creation
// (newest last), and a restarted server (whose clock has moved on) never
// repeats one. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

namespace aifabric {

class RunIdGenerator {
 public:
  // `now_ms`: the Unix time in milliseconds.
  std::string Next(int64_t now_ms);

 private:
  std::mutex mutex_;
  int64_t last_ms_ = 0;  // guarded by mutex_
  std::random_device random_;
};

}  // namespace aifabric
