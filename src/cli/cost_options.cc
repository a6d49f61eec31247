// --max-events and --max-memory (commands.h, CostOptions): parsing the
// bounds and refusing a scenario whose estimated cost is over them.
#include <cmath>
#include <cstdlib>
#include <string>

#include "cli/commands.h"
#include "core/units.h"

namespace aifabric {
namespace {

// "2e10", "20000000000" or "0": a count of events; scientific notation is
// accepted because the counts worth writing are large.
Result<uint64_t> ParseEventCount(const std::string& text) {
  const Error bad{"--max-events: expected a count of events like 2e10 or 0 (no bound), got '" + text + "'"};
  if (text.empty() || text.find_first_not_of("0123456789.eE+") != std::string::npos) return bad;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value) || value < 0 || value != std::floor(value) ||
      value >= 1.8e19) {
    return bad;
  }
  return static_cast<uint64_t>(value);
}

}  // namespace

Result<CostBounds> CostOptions::Bounds() const {
  CostBounds bounds;
  Result<uint64_t> events = ParseEventCount(max_events);
  if (!events.ok()) return events.error();
  bounds.max_events = *events;
  Result<uint64_t> memory = ParseBytes(max_memory);
  if (!memory.ok()) return Error{"--max-memory: " + memory.error().message};
  bounds.max_memory_bytes = *memory;
  return bounds;
}

int CostOptions::Check(const Result<RunCost>& cost, const std::string& origin) const {
  Result<CostBounds> bounds = Bounds();
  if (!bounds.ok()) return ReportBadInput(bounds.error());
  if (!cost.ok()) return kExitOk;
  if (Status s = CheckRunCost(*cost, *bounds); !s.ok()) return ReportBadInput(Error{origin + ": " + s.error().message});
  return kExitOk;
}

}  // namespace aifabric
