// IbCongestionControl is the source side (the "reaction point") of
// InfiniBand congestion control (IBA Annex A10) for one queue pair: a
// congestion control table index CCTI that each BECN raises by
// CCTI_Increase (up to CCTI_Limit) and each expiry of the CCTI_Timer lowers
// by one (down to CCTI_Min); the table entry CCT[CCTI] is the inter-packet
// delay the QP inserts after each packet. The switches' FECN marking is in
// EgressPort and the BECN reply in RcReceiver. Lives in one Simulator; not
// thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/data_rate.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "transport/rate_control.h"
#include "transport/transport_config.h"

namespace aifabric {

class IbCongestionControl final : public RateControl, public EventHandler {
 public:
  // `packet_wire_bytes` is a full packet on the wire (MTU + headers): the
  // pacing rate is the one that leaves CCT[CCTI] between such packets.
  IbCongestionControl(Simulator& sim, DataRate line_rate, uint32_t packet_wire_bytes, const IbCcConfig& config);
  IbCongestionControl(const IbCongestionControl&) = delete;
  IbCongestionControl& operator=(const IbCongestionControl&) = delete;

  // line_rate * t / (t + CCT[CCTI]), t = one full packet at line rate.
  DataRate rate() const override { return rate_; }
  // A BECN arrived.
  void OnCnp() override;
  void OnFinished() override { stopped_ = true; }
  // The CCTI timer expired.
  void OnEvent(uint64_t tag) override;

  int ccti() const { return ccti_; }
  Time inter_packet_delay() const { return table_[static_cast<size_t>(ccti_)]; }
  // The table in use: the configured one, or the default (entry i delays
  // i/2 packet times, so CCTI 2 halves the rate and CCTI 30 leaves 1/16).
  static std::vector<Time> Table(const IbCcConfig& config, Time packet_time);

 private:
  void UpdateRate();

  Simulator& sim_;
  const IbCcConfig config_;
  const DataRate line_rate_;
  const Time packet_time_;            // one full packet at line rate
  const std::vector<Time> table_;
  const int limit_;                   // highest usable index
  int ccti_;
  DataRate rate_;
  bool timer_pending_ = false;
  bool stopped_ = false;
};

}  // namespace aifabric
