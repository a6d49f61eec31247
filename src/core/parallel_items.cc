#include "core/parallel_items.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace aifabric {

void RunItemsOnThreads(size_t items, int threads, const std::function<void(size_t)>& work) {
  if (items == 0) return;
  std::atomic<size_t> next{1};  // item 0 is the caller's
  std::atomic<bool> broken{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  auto guarded = [&](size_t k) {
    try {
      work(k);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      broken = true;
    }
  };
  auto take_rest = [&] {
    for (size_t k = next++; k < items && !broken; k = next++) guarded(k);
  };
  const size_t helpers = static_cast<size_t>(std::max(1, threads)) - 1;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < std::min(helpers, items - 1); ++t) pool.emplace_back(take_rest);
  guarded(0);
  take_rest();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace aifabric
