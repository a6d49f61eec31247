// Helpers shared by the flow tests (test-only; not part of the library): a
// plain switch spec and an observer that records when each transfer
// finished.
#pragma once

#include <map>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"
#include "fabric/catalog.h"
#include "fabric/fabric_test_util.h"
#include "fabric/network_model.h"

namespace aifabric::flow_testing {

// A 64-port 400G switch with 64 MiB of buffer, `latency` from port to port.
inline SwitchSpec TestSwitch(Time latency = Time::FromNs(400)) {
  SwitchSpec s;
  s.name = "test";
  s.radix = 64;
  s.port_rate = DataRate::Gbps(400);
  s.latency = latency;
  s.buffer_bytes = 64ull << 20;
  return s;
}

using fabric_testing::Request;

// When each transfer finished, by flow id.
struct Finishes final : TransferObserver {
  std::map<FlowId, Time> at;
  void OnTransferDone(FlowId id, Time finish) override { at[id] = finish; }
};

}  // namespace aifabric::flow_testing
