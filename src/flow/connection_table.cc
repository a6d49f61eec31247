#include "flow/connection_table.h"

#include <cassert>

namespace aifabric {

std::optional<uint32_t> ConnectionTable::Find(uint64_t key) const {
  if (keys_.empty()) return std::nullopt;
  const size_t mask = keys_.size() - 1;
  for (size_t i = Slot(key);; i = (i + 1) & mask) {
    if (values_[i] == kEmpty) return std::nullopt;
    if (keys_[i] == key) return values_[i];
  }
}

void ConnectionTable::Set(uint64_t key, uint32_t value) {
  assert(value != kEmpty);
  if (2 * (size_ + 1) > keys_.size()) Grow();
  const size_t mask = keys_.size() - 1;
  size_t i = Slot(key);
  while (values_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask;
  if (values_[i] == kEmpty) ++size_;
  keys_[i] = key;
  values_[i] = value;
}

void ConnectionTable::Grow() {
  std::vector<uint64_t> keys = std::move(keys_);
  std::vector<uint32_t> values = std::move(values_);
  const size_t capacity = keys.empty() ? 64 : 2 * keys.size();
  keys_.assign(capacity, 0);
  values_.assign(capacity, kEmpty);
  shift_ = 64 - __builtin_ctzll(capacity);
  size_ = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (values[i] != kEmpty) Set(keys[i], values[i]);
  }
}

}  // namespace aifabric
