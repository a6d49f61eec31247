#include "flow/flow_dcqcn.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {
namespace {
// A rate within this fraction of another is the same rate (the fluid's
// shares and the caps are sums taken in different orders).
constexpr double kRateSlack = 1e-9;
// A backlog below this many bytes is none.
constexpr double kEmptyBytes = 1e-3;
}  // namespace

FlowDcqcn::FlowDcqcn(Simulator& sim, FluidNetwork& fluid, const Topology& topology, const FlowConfig& config,
                     PathOf path_of)
    : sim_(sim), fluid_(fluid), topology_(topology), config_(config), path_of_(std::move(path_of)) {
  assert(config.dcqcn && config.dcqcn_step > Time::Zero());
}

void FlowDcqcn::Admit(uint32_t qp, PortId source_port, uint64_t bytes, int traffic_class, Time latency) {
  assert(qp == cap_of_.size());
  (void)qp;
  cap_of_.push_back(-1);
  state_of_.push_back(kNoState);
  admitted_.push_back(Admitted{source_port, traffic_class, bytes, latency});
}

void FlowDcqcn::AttachCaps() {
  std::sort(uncapped_.begin(), uncapped_.end());
  for (uint32_t qp : uncapped_) {
    const double cap = states_[static_cast<size_t>(state_of_[qp])].cap_bps;
    int r;
    if (!free_caps_.empty()) {
      r = free_caps_.back();
      free_caps_.pop_back();
      fluid_.SetCapacity(r, cap);
    } else {
      r = fluid_.AddResource(cap);
    }
    cap_of_[qp] = r;
  }
  // Queue pair ids are their indexes (a coflow's has its top bit set).
  fluid_.Revise([this](uint64_t id, double, std::span<const int> resources, std::span<const double> coefficients,
                       FluidNetwork::Revision& out) {
    if (id >= cap_of_.size() || !std::binary_search(uncapped_.begin(), uncapped_.end(), static_cast<uint32_t>(id))) {
      return false;
    }
    out.reroute = true;
    out.resources.assign(resources.begin(), resources.end());
    out.resources.push_back(cap_of_[id]);
    if (!coefficients.empty()) {
      out.coefficients.assign(coefficients.begin(), coefficients.end());
      out.coefficients.push_back(1.0);
    }
    return true;
  });
  uncapped_.clear();
}

double FlowDcqcn::SendingBps(const State& s) const {
  if (s.sent >= s.bytes) return 0;
  if (s.queue_port == kNoPort) return s.delivered_bps;
  return std::min(Payload(s.rp.current_bps()), s.nic_room_bps);
}

double FlowDcqcn::CapBps(const State& s) const {
  return s.backlog() > 0 ? s.line_payload_bps : Payload(s.rp.current_bps());
}

PortId FlowDcqcn::FullSwitchPort(uint32_t qp) const {
  for (PortId p : path_of_(qp)) {
    if (topology_.node(topology_.port(p).node).kind != NodeKind::kSwitch) continue;
    const double capacity = fluid_.capacity_bps(p);
    if (capacity > 0 && fluid_.load_bps(p) >= capacity * (1 - kRateSlack)) return p;
  }
  return kNoPort;
}

double FlowDcqcn::NicRoom(const State& s) const {
  const PortId nic = admitted_[s.qp].source_port;
  return fluid_.capacity_bps(nic) - fluid_.load_bps(nic) + s.delivered_bps;
}

bool FlowDcqcn::Congested(const State& s) const {
  return s.sent < s.bytes && s.delivered_bps < std::min(Payload(s.rp.current_bps()), s.nic_room_bps) * (1 - kRateSlack) &&
         FullSwitchPort(s.qp) != kNoPort;
}

FlowDcqcn::State& FlowDcqcn::StateFor(uint32_t qp) {
  if (state_of_[qp] < 0) {
    const Admitted& a = admitted_[qp];
    const DataRate line = topology_.port(a.source_port).rate;
    if (free_states_.empty()) {
      state_of_[qp] = static_cast<int32_t>(states_.size());
      states_.emplace_back(qp, DcqcnReactionPoint(line, config_.dcqcn_config));
    } else {
      state_of_[qp] = free_states_.back();
      free_states_.pop_back();
      states_[static_cast<size_t>(state_of_[qp])] = State(qp, DcqcnReactionPoint(line, config_.dcqcn_config));
    }
    State& s = states_[static_cast<size_t>(state_of_[qp])];
    s.line_payload_bps = Payload(static_cast<double>(line.bps()));
    s.cap_bps = s.line_payload_bps;
    s.bytes = static_cast<double>(a.bytes);
    s.traffic_class = a.traffic_class;
    s.latency = a.latency;
    s.updated = sim_.Now();
  }
  return states_[static_cast<size_t>(state_of_[qp])];
}

const DcqcnReactionPoint* FlowDcqcn::reaction_point(uint32_t qp) const {
  return qp < state_of_.size() && state_of_[qp] >= 0 ? &states_[static_cast<size_t>(state_of_[qp])].rp : nullptr;
}

double FlowDcqcn::queue_bytes(PortId port, int traffic_class) const {
  const size_t k = QueueKey(port, traffic_class);
  return k < queue_.size() ? queue_[k] : 0;
}

double FlowDcqcn::sent_bytes(uint32_t qp) const {
  if (qp >= state_of_.size() || state_of_[qp] == kNoState) return 0;
  if (state_of_[qp] == kReleased) return static_cast<double>(admitted_[qp].bytes);
  double sent, delivered;
  Progress(states_[static_cast<size_t>(state_of_[qp])], sim_.Now(), sent, delivered);
  return sent;
}

double FlowDcqcn::backlog_bytes(uint32_t qp) const {
  if (qp >= state_of_.size() || state_of_[qp] < 0) return 0;
  double sent, delivered;
  Progress(states_[static_cast<size_t>(state_of_[qp])], sim_.Now(), sent, delivered);
  return sent - delivered;
}

void FlowDcqcn::Release(uint32_t qp) {
  free_states_.push_back(state_of_[qp]);
  state_of_[qp] = kReleased;
}

void FlowDcqcn::OnRate(uint32_t qp, double rate_bps, double remaining_bytes) {
  if (qp >= state_of_.size() || state_of_[qp] == kReleased) return;
  if (state_of_[qp] == kNoState) {
    // Never congested so far: it has sent what was delivered, at line rate.
    const Admitted& a = admitted_[qp];
    const double line = Payload(static_cast<double>(topology_.port(a.source_port).rate.bps()));
    if (rate_bps >= line * (1 - kRateSlack) || FullSwitchPort(qp) == kNoPort) return;
    State& s = StateFor(qp);
    s.sent = s.delivered = s.counted = s.bytes - remaining_bytes;
    s.delivered_bps = rate_bps;
    s.nic_room_bps = NicRoom(s);
    Activate(s);
    return;
  }
  State& s = states_[static_cast<size_t>(state_of_[qp])];
  if (s.done) return;
  Advance(s, sim_.Now());
  s.delivered_bps = rate_bps;
  s.nic_room_bps = NicRoom(s);
  if (!s.active && Congested(s)) Activate(s);
}

void FlowDcqcn::OnDone(uint32_t qp) {
  if (cap_of_[qp] >= 0) free_caps_.push_back(cap_of_[qp]);
  if (state_of_[qp] < 0) return;
  State& s = states_[static_cast<size_t>(state_of_[qp])];
  s.done = true;
  s.sent = s.delivered = s.bytes;
  s.delivered_bps = 0;
  if (!s.active) Release(qp);  // else the next tick releases it
}

void FlowDcqcn::OnReroute(uint32_t qp) {
  if (state_of_[qp] < 0) return;
  State& s = states_[static_cast<size_t>(state_of_[qp])];
  Advance(s, sim_.Now());
  s.queue_port = kNoPort;
  s.delivered = s.sent;  // its queue is lost with the path (FlowFaults sends the wire's bytes again)
  if (!s.active) Activate(s);
}

void FlowDcqcn::Activate(State& s) {
  s.active = true;
  active_.push_back(static_cast<uint32_t>(state_of_[s.qp]));
  if (queue_.empty()) queue_.assign(topology_.ports().size() * 8, 0.0);
  if (tick_at_.IsInfinite()) {
    ArmTick(sim_.Now() + config_.dcqcn_step);
  }
}

void FlowDcqcn::ArmTick(Time at) {
  tick_at_ = at;
  sim_.Schedule(at, this, ++tick_generation_);
}

void FlowDcqcn::Progress(const State& s, Time now, double& sent, double& delivered) const {
  const double seconds = static_cast<double>((now - s.updated).ps()) * 1e-12;
  sent = std::min(s.bytes, s.sent + SendingBps(s) / 8 * seconds);
  delivered = std::min(s.bytes, s.delivered + s.delivered_bps / 8 * seconds);
  // A step's granularity may let the fluid deliver a little past the last
  // byte sent: it was sent, then.
  if (delivered > sent) sent = delivered;
  if (sent - delivered < kEmptyBytes) delivered = sent;
}

void FlowDcqcn::Advance(State& s, Time now) {
  const double seconds = static_cast<double>((now - s.updated).ps()) * 1e-12;
  if (seconds <= 0) return;
  const double leaving = s.delivered_bps / 8 * seconds;  // bytes out of its queue, or its path
  Progress(s, now, s.sent, s.delivered);
  // Marks on the packets it had leave its queue.
  if (s.queue_port != kNoPort && config_.ecn.enabled && (config_.ecn.marked_mask >> s.traffic_class & 1u)) {
    const double gbps = topology_.port(s.queue_port).rate.gbps();
    const double queue_wire = queue_[QueueKey(s.queue_port, s.traffic_class)] / Payload(1.0);
    const double p = EcnMarkProbability(queue_wire, config_.ecn.KminAt(gbps), config_.ecn.KmaxAt(gbps), config_.ecn.pmax);
    s.marks += p * leaving / config_.mtu_bytes;
    if (s.marks >= 1) {
      const double whole = std::floor(s.marks);
      marks_ += static_cast<uint64_t>(whole);
      s.marks -= whole;
      // The marked packet reaches the receiver, which answers once per
      // cnp_interval; the CNP reaches the sender.
      const Time at_receiver = now + s.latency;
      if (!s.cnp_sent || at_receiver - s.last_cnp >= config_.dcqcn_config.cnp_interval) {
        s.cnp_sent = true;
        s.last_cnp = at_receiver;
        ++cnps_;
        const Time at_sender = at_receiver + s.latency;
        s.cnps_in_flight.insert(std::upper_bound(s.cnps_in_flight.begin(), s.cnps_in_flight.end(), at_sender),
                                at_sender);
      }
    }
  }
  // The byte counter hears whole bytes sent, at most B at a time (the NIC
  // counts packet by packet, far below B).
  uint64_t fresh = static_cast<uint64_t>(std::floor(s.sent) - std::floor(s.counted));
  s.counted = s.sent;
  const uint64_t b = config_.dcqcn_config.increase_bytes;
  while (fresh > 0) {
    const uint64_t n = std::min(fresh, b);
    s.rp.OnSent(n);
    fresh -= n;
  }
  s.updated = now;
}

void FlowDcqcn::RunReactionPoint(State& s, Time now) {
  const DcqcnConfig& c = config_.dcqcn_config;
  for (;;) {
    const Time cnp = s.cnps_in_flight.empty() ? Time::Infinite() : s.cnps_in_flight.front();
    const Time next = Min(cnp, Min(s.alpha_due, s.increase_due));
    if (next > now) return;
    if (cnp == next) {
      s.cnps_in_flight.erase(s.cnps_in_flight.begin());
      if (!s.rp.OnCnp(next)) continue;
      ++cuts_;
      s.increase_due = next + c.increase_period;
      if (s.alpha_due.IsInfinite()) {
        s.rp.StartAlphaTimer();
        s.alpha_due = next + c.alpha_period;
      }
    } else if (s.alpha_due == next) {
      s.rp.OnAlphaTimer();
      s.alpha_due = s.rp.throttled() ? next + c.alpha_period : Time::Infinite();
    } else {
      s.rp.OnIncreaseTimer();
      s.increase_due = s.rp.throttled() ? next + c.increase_period : Time::Infinite();
    }
  }
}

void FlowDcqcn::OnEvent(uint64_t tag) {
  if (tag != tick_generation_) return;
  const Time now = sim_.Now();
  ++ticks_;
  // Everyone up to now at the rates in force, then the queues they make.
  for (uint32_t i : active_) Advance(states_[i], now);
  for (size_t k : queue_touched_) queue_[k] = 0;
  queue_touched_.clear();
  for (uint32_t i : active_) {
    const State& s = states_[i];
    if (s.queue_port == kNoPort || s.backlog() <= 0) continue;
    const size_t k = QueueKey(s.queue_port, s.traffic_class);
    if (queue_[k] == 0) queue_touched_.push_back(k);
    queue_[k] += s.backlog();
  }
  // The reaction points, where each queues, and the caps that follow.
  Time next = now + config_.dcqcn_step;
  size_t kept = 0;
  for (size_t j = 0; j < active_.size(); ++j) {
    State& s = states_[active_[j]];
    if (s.done) {
      s.active = false;
      Release(s.qp);
      continue;
    }
    RunReactionPoint(s, now);
    s.nic_room_bps = NicRoom(s);
    if (s.backlog() <= 0) s.queue_port = Congested(s) ? FullSwitchPort(s.qp) : kNoPort;
    const double cap = CapBps(s);
    if (cap != s.cap_bps) {
      s.cap_bps = cap;
      if (cap_of_[s.qp] < 0) {
        uncapped_.push_back(s.qp);
      } else {
        fluid_.SetCapacity(cap_of_[s.qp], cap);
      }
    }
    // Come back when its backlog empties or its last byte is sent, if
    // before the next step: there its rate changes.
    const double sending = SendingBps(s);
    if (s.backlog() > 0 && s.delivered_bps > sending) {
      next = Min(next, now + Time::FromPs(static_cast<int64_t>(
                                std::ceil(s.backlog() * 8 / (s.delivered_bps - sending) * 1e12)) + 1));
    }
    if (sending > 0 && s.queue_port != kNoPort) {
      next = Min(next, now + Time::FromPs(static_cast<int64_t>(std::ceil((s.bytes - s.sent) * 8 / sending * 1e12)) + 1));
    }
    const bool idle = !s.rp.throttled() && s.backlog() <= 0 && s.queue_port == kNoPort && s.cnps_in_flight.empty() &&
                      s.alpha_due.IsInfinite() && s.increase_due.IsInfinite();
    if (idle) {
      s.active = false;
      continue;
    }
    active_[kept++] = active_[j];
  }
  active_.resize(kept);
  if (!uncapped_.empty()) AttachCaps();
  tick_at_ = Time::Infinite();
  if (!active_.empty()) ArmTick(next);
}

}  // namespace aifabric
