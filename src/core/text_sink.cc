#include "core/text_sink.h"

#include <algorithm>
#include <utility>

namespace aifabric {
namespace {
constexpr size_t kFirstStringBytes = 256;
}  // namespace

void TextSink::Fail(Error error) {
  if (status_.ok()) status_ = std::move(error);
}

StringSink::StringSink() : text_(kFirstStringBytes, '\0') { SetBuffer(text_.data(), text_.data(), text_.data() + text_.size()); }

std::string StringSink::Take() {
  text_.resize(view().size());
  std::string out = std::exchange(text_, std::string(kFirstStringBytes, '\0'));
  SetBuffer(text_.data(), text_.data(), text_.data() + text_.size());
  return out;
}

void StringSink::Overflow(std::string_view text) {
  const size_t used = view().size();
  text_.resize(std::max(2 * text_.size(), used + text.size()));
  std::memcpy(text_.data() + used, text.data(), text.size());
  SetBuffer(text_.data(), text_.data() + used + text.size(), text_.data() + text_.size());
}

}  // namespace aifabric
