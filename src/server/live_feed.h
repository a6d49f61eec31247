// LiveFeed is one run's stream of server-sent events (GET
// /api/runs/{id}/events): `progress`, `snapshot`, `finding` and, last,
// `end`. The run's worker pushes; each connected client waits for the
// events after the last one it sent. Memory is bounded: the feed keeps the
// last kKeep events (a client that falls further behind skips the oldest;
// the `end` is never dropped, being last). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace aifabric {

struct FeedEvent {
  uint64_t seq = 0;    // 1, 2, 3, ... in push order
  std::string type;    // progress | snapshot | finding | end
  std::string data;    // one line of JSON
};

// The text/event-stream form: "id: SEQ\nevent: TYPE\ndata: DATA\n\n".
std::string FormatServerSentEvent(const FeedEvent& event);

class LiveFeed {
 public:
  static constexpr size_t kKeep = 256;

  // Ignored once the feed has ended.
  void Push(std::string type, std::string data);
  // Pushes the `end` event; nothing is pushed after it.
  void End(std::string data);
  // The kept events after `after_seq`, waiting up to `timeout` for one if
  // there is none yet (or until Wake). `ended`: whether the end was pushed.
  std::vector<FeedEvent> After(uint64_t after_seq, std::chrono::milliseconds timeout, bool* ended);
  // Wakes every waiting client (the server is stopping).
  void Wake();
  bool ended() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<FeedEvent> events_;  // guarded by mutex_
  uint64_t next_seq_ = 1;
  bool ended_ = false;
};

}  // namespace aifabric
