#include "transport/ib_cc.h"

#include <algorithm>

namespace aifabric {
namespace {
constexpr int64_t kCctiTimerUnitPs = 1'024'000;  // 1.024 us
}  // namespace

std::vector<Time> IbCongestionControl::Table(const IbCcConfig& config, Time packet_time) {
  if (!config.cct.empty()) return config.cct;
  std::vector<Time> table(static_cast<size_t>(config.ccti_limit) + 1);
  for (size_t i = 0; i < table.size(); ++i) table[i] = Time::FromPs(packet_time.ps() * static_cast<int64_t>(i) / 2);
  return table;
}

IbCongestionControl::IbCongestionControl(Simulator& sim, DataRate line_rate, uint32_t packet_wire_bytes,
                                         const IbCcConfig& config)
    : sim_(sim),
      config_(config),
      line_rate_(line_rate),
      packet_time_(line_rate.TransmitTime(packet_wire_bytes)),
      table_(Table(config, packet_time_)),
      limit_(std::min(config.ccti_limit, static_cast<int>(table_.size()) - 1)),
      ccti_(std::min(config.ccti_min, limit_)) {
  UpdateRate();
}

void IbCongestionControl::UpdateRate() {
  // A gap of CCT[CCTI] after every full packet: the rate that spaces
  // packets t + gap apart.
  const double t = static_cast<double>(packet_time_.ps());
  const double gap = static_cast<double>(inter_packet_delay().ps());
  rate_ = DataRate::BitsPerSecond(static_cast<uint64_t>(static_cast<double>(line_rate_.bps()) * t / (t + gap)));
}

void IbCongestionControl::OnCnp() {
  if (stopped_) return;
  ccti_ = std::min(ccti_ + config_.ccti_increase, limit_);
  UpdateRate();
  if (!timer_pending_ && ccti_ > config_.ccti_min) {
    timer_pending_ = true;
    sim_.ScheduleIn(Time::FromPs(kCctiTimerUnitPs * config_.ccti_timer), this, 0);
  }
}

void IbCongestionControl::OnEvent(uint64_t /*tag*/) {
  timer_pending_ = false;
  if (stopped_) return;
  if (ccti_ > config_.ccti_min) {
    --ccti_;
    UpdateRate();
  }
  // The timer runs while there is delay to shed.
  if (ccti_ > config_.ccti_min) {
    timer_pending_ = true;
    sim_.ScheduleIn(Time::FromPs(kCctiTimerUnitPs * config_.ccti_timer), this, 0);
  }
}

}  // namespace aifabric
