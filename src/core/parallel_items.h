// RunItemsOnThreads runs independent work items 0..items-1 on up to
// `threads` threads, the calling thread among them: it runs item 0 first
// (so the one item whose callbacks must run on the caller's thread goes
// there) while the others take items 1, 2, ... in turn, then it takes the
// rest with them. Each item runs once. With `threads` <= 1 the items run
// in order on the calling thread. `work` must be thread-safe across
// distinct items; it writes each item's answer where the caller reads it
// after the call. An exception thrown by an item (an internal error) lets
// the items already running finish, starts no new one and is rethrown
// here after every thread has joined.
#pragma once

#include <cstddef>
#include <functional>

namespace aifabric {

void RunItemsOnThreads(size_t items, int threads, const std::function<void(size_t)>& work);

}  // namespace aifabric
