#include "workload/traffic_injector.h"

#include <cassert>
#include <utility>

namespace aifabric {

TrafficInjector::TrafficInjector(Simulator& sim, NetworkModel& model,
                                 std::vector<FlowSpec> flows)
    : sim_(sim), model_(model), flows_(std::move(flows)) {
  for (size_t i = 1; i < flows_.size(); ++i) assert(flows_[i - 1].start <= flows_[i].start);
}

uint16_t TrafficInjector::SourcePort(FlowId id) {
  const int64_t m = id % 50000;
  return static_cast<uint16_t>(10000 + (m < 0 ? m + 50000 : m));
}

void TrafficInjector::Start() {
  assert(!started_);
  started_ = true;
  ScheduleNext();
}

void TrafficInjector::ScheduleNext() {
  if (next_ < flows_.size()) sim_.Schedule(Max(flows_[next_].start, sim_.Now()), this);
}

TransferRequest TrafficInjector::RequestFor(const FlowSpec& f) {
  TransferRequest request;
  request.id = f.id;
  request.src = f.src;
  request.dst = f.dst;
  request.bytes = f.bytes;
  request.priority = f.priority;
  request.sport = SourcePort(f.id);
  request.dport = f.dport;
  return request;
}

void TrafficInjector::OnEvent(uint64_t /*tag*/) {
  const Time now = sim_.Now();
  // Start every flow due now, then leave one event for the next start time.
  while (next_ < flows_.size() && flows_[next_].start <= now) {
    model_.StartTransfer(RequestFor(flows_[next_++]));
  }
  ScheduleNext();
}

}  // namespace aifabric
