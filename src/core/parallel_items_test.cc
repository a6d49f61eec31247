#include "core/parallel_items.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace aifabric {
namespace {

TEST(RunItemsOnThreads, EveryItemRunsOnceAndItemZeroOnTheCaller) {
  for (int threads : {1, 2, 3, 8}) {
    constexpr size_t kItems = 50;
    std::vector<std::atomic<int>> runs(kItems);
    std::thread::id zero_ran_on;
    RunItemsOnThreads(kItems, threads, [&](size_t k) {
      if (k == 0) zero_ran_on = std::this_thread::get_id();
      ++runs[k];
    });
    for (size_t k = 0; k < kItems; ++k) EXPECT_EQ(runs[k].load(), 1) << "item " << k << ", threads " << threads;
    EXPECT_EQ(zero_ran_on, std::this_thread::get_id()) << "threads " << threads;
  }
}

TEST(RunItemsOnThreads, OneThreadRunsTheItemsInOrderOnTheCaller) {
  std::vector<size_t> order;
  const std::thread::id caller = std::this_thread::get_id();
  RunItemsOnThreads(5, 1, [&](size_t k) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    order.push_back(k);
  });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(RunItemsOnThreads, ItemsRunAtOnceWithTwoThreads) {
  // Item 0 waits until item 1 has started: only a second thread lets it.
  std::atomic<bool> one_started{false};
  RunItemsOnThreads(2, 2, [&](size_t k) {
    if (k == 1) {
      one_started = true;
      return;
    }
    while (!one_started) std::this_thread::yield();
  });
  EXPECT_TRUE(one_started);
}

TEST(RunItemsOnThreads, AnItemsExceptionReachesTheCaller) {
  for (int threads : {1, 2}) {
    EXPECT_THROW(RunItemsOnThreads(4, threads,
                                   [](size_t k) {
                                     if (k == 2) throw std::runtime_error("item 2");
                                   }),
                 std::runtime_error);
  }
}

}  // namespace
}  // namespace aifabric
