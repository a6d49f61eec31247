#include "workload/collective_sweep.h"

#include <cctype>
#include <charconv>
#include <string>

namespace aifabric {
namespace {

constexpr size_t kMaxSweepSizes = 100000;

Error SizeError(std::string_view text, std::string_view why) {
  std::string message = "invalid size '";
  message += text;
  message += "': ";
  message += why;
  message += " (expected bytes, optionally with K, M or G: 8, 1K, 8G)";
  return Error{message};
}

}  // namespace

Result<uint64_t> ParseNcclTestsSize(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (ec != std::errc()) return SizeError(text, "no number");
  if (value < 0) return SizeError(text, "negative");
  pos = static_cast<size_t>(end - text.data());
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  double units = 1;
  if (pos < text.size()) {
    switch (text[pos]) {
      case 'K': case 'k': units = 1024.0; break;
      case 'M': case 'm': units = 1024.0 * 1024; break;
      case 'G': case 'g': units = 1024.0 * 1024 * 1024; break;
      default: return SizeError(text, "unknown suffix");
    }
  }
  const double bytes = value * units;
  if (bytes >= 18446744073709551616.0) return SizeError(text, "too large");
  return static_cast<uint64_t>(bytes);
}

Result<std::vector<uint64_t>> SweepSizes(const SizeSweep& sweep) {
  if (sweep.min_bytes > sweep.max_bytes) return Error{"size sweep: minimum bytes exceed maximum bytes"};
  const bool multiply = sweep.step_factor > 1;
  if (multiply ? sweep.min_bytes == 0 : sweep.step_bytes == 0) {
    if (sweep.min_bytes != sweep.max_bytes) {
      return Error{"size sweep: the step never grows the size (use -f > 1 from a size > 0, or -i > 0)"};
    }
  }
  std::vector<uint64_t> sizes;
  for (uint64_t size = sweep.min_bytes; size <= sweep.max_bytes;) {
    sizes.push_back(size);
    if (sizes.size() > kMaxSweepSizes) return Error{"size sweep: more than 100000 sizes"};
    const uint64_t next = multiply ? size * sweep.step_factor : size + sweep.step_bytes;
    if (next <= size) break;  // a fixed point (a single size) or overflow
    size = next;
  }
  return sizes;
}

NcclTestsSizes SizesFor(CollectiveOp op, uint64_t requested_bytes, int32_t ranks, uint32_t element_bytes) {
  const uint64_t count = requested_bytes / element_bytes;
  const uint64_t n = static_cast<uint64_t>(ranks);
  // Per-rank pieces are whole 16-byte lines (nccl-tests aligns them).
  const uint64_t line_elements = element_bytes < 16 ? 16 / element_bytes : 1;
  const uint64_t base = (count / n) / line_elements * line_elements;
  switch (op) {
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll:
      return {base, base * n * element_bytes};
    default:
      return {count, count * element_bytes};
  }
}

double BusBandwidthFactor(CollectiveOp op, int32_t ranks) {
  const double n = ranks;
  switch (op) {
    case CollectiveOp::kAllReduce: return 2.0 * (n - 1) / n;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll: return (n - 1) / n;
    default: return 1.0;
  }
}

Bandwidth BandwidthFor(CollectiveOp op, int32_t ranks, uint64_t bytes, Time time) {
  Bandwidth bw;
  if (time <= Time::Zero()) return bw;
  bw.alg_gb_per_s = static_cast<double>(bytes) / 1.0e9 / time.seconds();
  bw.bus_gb_per_s = bw.alg_gb_per_s * BusBandwidthFactor(op, ranks);
  return bw;
}

std::string_view NcclTestsRedop(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllGather:
    case CollectiveOp::kAllToAll:
    case CollectiveOp::kBroadcast: return "none";
    default: return "sum";
  }
}

int32_t NcclTestsRoot(CollectiveOp op, int32_t root) {
  return op == CollectiveOp::kBroadcast || op == CollectiveOp::kReduce ? root : -1;
}

}  // namespace aifabric
