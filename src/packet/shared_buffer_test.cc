#include "packet/shared_buffer.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(SharedBuffer, OneQueueSettlesAtAlphaOverOnePlusAlpha) {
  // Dynamic threshold: admit while q + s <= alpha * (B - used). With one
  // queue, q == used, so q settles at alpha/(1+alpha) * B = 50 for B = 100,
  // alpha = 1: packets of 10 bytes are admitted at q = 0,10,...,40 (40+10 <=
  // 100-40) and refused at q = 50 (50+10 > 50).
  SharedBuffer buffer(100, 1.0);
  uint64_t q = 0;
  int admitted = 0;
  while (buffer.TryAdmit(q, 10)) {
    q += 10;
    ++admitted;
  }
  EXPECT_EQ(admitted, 5);
  EXPECT_EQ(buffer.used_bytes(), 50u);
}

TEST(SharedBuffer, TwoQueuesShareByThreshold) {
  // Two queues with alpha = 1: each settles at alpha/(1+2*alpha) * B = B/3.
  // With B = 300 and 10-byte packets alternately offered: each gets 100.
  SharedBuffer buffer(300, 1.0);
  uint64_t q[2] = {0, 0};
  bool progress = true;
  while (progress) {
    progress = false;
    for (uint64_t& queue : q) {
      if (buffer.TryAdmit(queue, 10)) {
        queue += 10;
        progress = true;
      }
    }
  }
  EXPECT_EQ(q[0], 100u);
  EXPECT_EQ(q[1], 100u);
  buffer.Release(10);
  EXPECT_EQ(buffer.used_bytes(), 190u);
  EXPECT_EQ(buffer.peak_bytes(), 200u);
}

}  // namespace
}  // namespace aifabric
