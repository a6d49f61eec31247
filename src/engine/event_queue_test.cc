#include "engine/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.h"

namespace aifabric {
namespace {

TEST(EventQueue, PopsInTheSameOrderAsASortedReference) {
  // A hold model: 5,000 pending events, 200,000 pop/push steps with delays
  // from 0 (ties) to ~2^40 ps. Every popped event must equal the minimum of
  // a plain reference multiset by (time, seq).
  Rng rng(42);
  EventQueue q;
  std::vector<Event> reference;
  uint64_t seq = 0;
  auto push = [&](Time at) {
    Event e{at, seq++, nullptr, 0};
    q.push(e);
    reference.push_back(e);
  };
  for (int i = 0; i < 5000; ++i) push(Time::FromPs(static_cast<int64_t>(rng.Below(1000))));
  auto later = [](const Event& a, const Event& b) { return b.Before(a); };
  std::make_heap(reference.begin(), reference.end(), later);
  for (int step = 0; step < 200000; ++step) {
    std::pop_heap(reference.begin(), reference.end(), later);
    const Event want = reference.back();
    reference.pop_back();
    const Event got = q.top();
    q.pop();
    ASSERT_EQ(got.at, want.at);
    ASSERT_EQ(got.seq, want.seq);
    const uint64_t kind = rng.Below(4);
    const int64_t delay = kind == 0 ? 0 : kind == 1 ? 83'560 : static_cast<int64_t>(rng.Below(1ull << 40));
    Event e{got.at + Time::FromPs(delay), seq++, nullptr, 0};
    q.push(e);
    reference.push_back(e);
    std::push_heap(reference.begin(), reference.end(), later);
  }
  EXPECT_EQ(q.size(), reference.size());
}

}  // namespace
}  // namespace aifabric
