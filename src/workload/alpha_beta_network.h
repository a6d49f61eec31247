// AlphaBetaNetwork is a NetworkModel for tests: every transfer takes
// alpha + bytes / B, however many run at once (no contention), and it
// checks ids are unique and endpoints differ. Lives in one Simulator.
#pragma once

#include <gtest/gtest.h>

#include <set>

#include "core/data_rate.h"
#include "engine/simulator.h"
#include "fabric/network_model.h"

namespace aifabric::testing {

// The alpha and the rate the tests run it with: 1 us a transfer, 100 Gb/s
// (80 ps a byte, exactly).
inline constexpr Time kAlpha = Time::FromUs(1);
inline constexpr DataRate kRate = DataRate::Gbps(100);

class AlphaBetaNetwork final : public NetworkModel {
 public:
  AlphaBetaNetwork(Simulator& sim, Time alpha, DataRate rate) : sim_(sim), alpha_(alpha), rate_(rate) {}
  void StartTransfer(const TransferRequest& request) override {
    EXPECT_NE(request.src, request.dst);
    EXPECT_TRUE(ids.insert(request.id).second) << "duplicate id " << request.id;
    sim_.ScheduleCallback(sim_.Now() + alpha_ + rate_.TransmitTime(request.bytes),
                          [this, id = request.id] { observer_->OnTransferDone(id, sim_.Now()); });
  }
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  const char* name() const override { return "alpha-beta"; }

  std::set<FlowId> ids;

 private:
  Simulator& sim_;
  const Time alpha_;
  const DataRate rate_;
  TransferObserver* observer_ = nullptr;
};

}  // namespace aifabric::testing
