#include "flow/connection_table.h"

#include <map>

#include <gtest/gtest.h>

#include "core/rng.h"

namespace aifabric {
namespace {

// Against std::map as the reference, across growth and overwrites, with
// keys that collide in their low bits (multiples of 2^32).
TEST(ConnectionTable, AgreesWithAMapAcrossGrowth) {
  ConnectionTable table;
  std::map<uint64_t, uint32_t> reference;
  Rng rng(7);
  for (uint32_t i = 0; i < 5000; ++i) {
    const uint64_t key = (i % 3 == 0) ? (uint64_t{i} << 32) : rng.Next() % 4000;
    table.Set(key, i);
    reference[key] = i;
  }
  EXPECT_EQ(table.size(), reference.size());
  for (const auto& [key, value] : reference) {
    ASSERT_EQ(table.Find(key), std::optional<uint32_t>(value)) << key;
  }
  EXPECT_FALSE(table.Find(uint64_t{1} << 63).has_value());
  EXPECT_FALSE(ConnectionTable().Find(0).has_value());
}

}  // namespace
}  // namespace aifabric
