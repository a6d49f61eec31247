#include "plan/shared_work.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace aifabric {
namespace {

// One process, several threads: every item answered once, in item order.
TEST(ShareWork, EveryItemOnceInOrder) {
  std::atomic<int> calls{0};
  Result<std::vector<std::string>> out = ShareWork(7, 3, nullptr, [&](size_t i) -> Result<std::string> {
    ++calls;
    return std::string(i + 1, 'a' + static_cast<char>(i));
  });
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(calls.load(), 7);
  ASSERT_EQ(out->size(), 7u);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ((*out)[i], std::string(i + 1, 'a' + static_cast<char>(i)));
}

// The error of the first failing item in item order, whichever thread met
// an error first: items 2 and 5 fail, item 5 at once, item 2 only after
// the others have started.
TEST(ShareWork, TheFirstErrorInItemOrder) {
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    std::atomic<int> started{0};
    Result<std::vector<std::string>> out = ShareWork(6, threads, nullptr, [&](size_t i) -> Result<std::string> {
      ++started;
      if (i == 5) return Error{"item 5 fails"};
      if (i == 2) {
        while (threads > 1 && started.load() < 3) std::this_thread::yield();
        return Error{"item 2 fails"};
      }
      return std::string("ok");
    });
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().message, "item 2 fails");
    EXPECT_EQ(started.load(), 6);
  }
  Result<std::vector<std::string>> none = ShareWork(0, 2, nullptr, [](size_t) -> Result<std::string> {
    return Error{"never called"};
  });
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace aifabric
