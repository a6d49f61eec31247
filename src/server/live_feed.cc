#include "server/live_feed.h"

namespace aifabric {

std::string FormatServerSentEvent(const FeedEvent& event) {
  return "id: " + std::to_string(event.seq) + "\nevent: " + event.type + "\ndata: " + event.data + "\n\n";
}

void LiveFeed::Push(std::string type, std::string data) {
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    events_.push_back(FeedEvent{next_seq_++, std::move(type), std::move(data)});
    if (events_.size() > kKeep) events_.pop_front();
  }
  changed_.notify_all();
}

void LiveFeed::End(std::string data) {
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    events_.push_back(FeedEvent{next_seq_++, "end", std::move(data)});
    if (events_.size() > kKeep) events_.pop_front();
    ended_ = true;
  }
  changed_.notify_all();
}

std::vector<FeedEvent> LiveFeed::After(uint64_t after_seq, std::chrono::milliseconds timeout, bool* ended) {
  std::unique_lock lock(mutex_);
  auto newer = [&] { return !events_.empty() && events_.back().seq > after_seq; };
  if (!newer() && !ended_) changed_.wait_for(lock, timeout);
  std::vector<FeedEvent> out;
  for (const FeedEvent& e : events_) {
    if (e.seq > after_seq) out.push_back(e);
  }
  *ended = ended_;
  return out;
}

void LiveFeed::Wake() { changed_.notify_all(); }

bool LiveFeed::ended() const {
  std::lock_guard lock(mutex_);
  return ended_;
}

}  // namespace aifabric
