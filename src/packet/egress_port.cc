#include "packet/egress_port.h"

#include "packet/switch_node.h"

#include <bit>
#include <cassert>

namespace aifabric {
namespace {
// Cut-through switches start forwarding once this much of a frame has
// arrived (enough to parse Ethernet/IP/UDP/BTH or IB LRH/BTH headers).
constexpr uint32_t kCutThroughHeaderBytes = 64;
// IEEE 802.1Qbb: a PAUSE frame's timer is up to 65535 quanta of 512 bit times.
constexpr uint64_t kMaxPauseQuanta = 65535;
constexpr uint64_t kBitsPerQuantum = 512;
constexpr uint8_t kAllPriorities = 0xff;
}  // namespace

EgressPort::EgressPort(Simulator& sim, const PacketConfig& config, const Wiring& wiring)
    : sim_(sim),
      wiring_(wiring),
      ps_per_byte_(PsPerByte(wiring.rate)),
      cut_through_(config.forwarding == Forwarding::kCutThrough),
      stamp_int_(config.int_telemetry && wiring.owner_switch != nullptr),
      credit_fc_(wiring.vl_credit_bytes != 0),
      ecn_enabled_(config.ecn.enabled),
      flow_control_(config.pfc.enabled || credit_fc_),
      fecn_enabled_(wiring.fecn_threshold_bytes != 0 && wiring.vl_credit_bytes != 0),
      strict_mask_(QueueScheduler::StrictMask(config)),
      ecn_(config.ecn),
      pause_quanta_time_(wiring.rate.TransmitTime(kMaxPauseQuanta * kBitsPerQuantum / 8)),
      watchdog_detection_(config.pfc.watchdog_detection),
      watchdog_restoration_(config.pfc.watchdog_restoration),
      watchdog_drops_(config.pfc.watchdog_action == PfcWatchdogAction::kDrop && wiring.owner_switch != nullptr),
      max_packet_blocks_(CreditBlocks(config.mtu_bytes + config.wire_overhead_bytes)),
      scheduler_(config),
      fecn_(config.ib.congestion_control),
      queue_events_(std::make_unique<std::array<QueueEvents, kNumPriorities>>()) {
  if (flow_control_) {
    fc_ = std::make_unique<FlowControl>();
    fc_->credits.fill(wiring.vl_credit_bytes / kIbCreditBlockBytes);
  }
  const double gbps = wiring.rate.gbps();
  ecn_kmin_ = ecn_.KminAt(gbps);
  ecn_kmax_ = ecn_.KmaxAt(gbps);
}

void EgressPort::Enqueue(Packet* p) {
  const int prio = p->priority;
  queues_[prio].Push(p);
  nonempty_mask_ |= static_cast<uint8_t>(1u << prio);
  queued_bytes_ += p->wire_bytes;
  if (queued_bytes_ > counters_.max_queue_bytes) counters_.max_queue_bytes = queued_bytes_;
  // The watermark is at least the peak since the last read: one compare
  // while the queue stays below its recent peak.
  CountedQueue& q = queues_[prio];
  const uint64_t depth = q.bytes();
  if (depth > q.peak_bytes) {
    q.peak_bytes = depth;
    if (depth > q.watermark_bytes) q.watermark_bytes = depth;
  }
  TrySend();
}

void EgressPort::Kick() { TrySend(); }

void EgressPort::OnEvent(uint64_t tag) {
  if (tag != kTxDoneTag) {
    OnFlowControlFrame(tag);
    return;
  }
  if (wakeup_pending_ && sim_.Now() >= wakeup_at_) wakeup_pending_ = false;
  TrySend();
}

void EgressPort::OnFlowControlFrame(uint64_t tag) {
  if (tag & 0x20) {
    fc_->credits[(tag >> 6) & 7] += tag >> 9;
    TrySend();
    return;
  }
  OnPfcFrame(static_cast<int>((tag >> 1) & 7), (tag & 0x10) != 0);
}

uint8_t EgressPort::FlowControlMask(Time now) {
  // Fast path: nothing is paused.
  uint8_t allowed = now < pause_horizon_ ? UnpausedMask() : kAllPriorities;
  if (credit_fc_) {
    const uint8_t credited = CreditMask();  // a credit return will call TrySend
    // A VL with packets waiting but no credits is a victim of congestion
    // downstream (for FECN marking).
    if (fecn_enabled_) credit_starved_ |= nonempty_mask_ & static_cast<uint8_t>(~credited);
    allowed &= credited;
  }
  return allowed;
}

uint8_t EgressPort::CreditMask() const {
  uint8_t allowed = 0;
  for (int vl = 0; vl < kNumPriorities; ++vl) {
    const Packet* head = queues_[vl].head();
    const uint32_t need = head != nullptr ? CreditBlocks(head->wire_bytes) : max_packet_blocks_;
    if (fc_->credits[vl] >= need) allowed |= static_cast<uint8_t>(1u << vl);
  }
  return allowed;
}


void EgressPort::OnPfcFrame(int priority, bool pause) {
  if (!fc_) return;  // PFC is off: nothing sends these
  const Time now = sim_.Now();
  QueueEvents& q = (*queue_events_)[priority];
  counters_.pfc_frames_rx++;
  q.pfc_frames_rx++;
  ++queue_events_version_;
  Time& until = fc_->paused_until[priority];
  if (pause) {
    if (now < fc_->storm_until[priority]) return;  // the watchdog is overriding pauses
    if (until <= now) {
      // A new pause: close the previous one (it expired at `until`).
      if (fc_->pause_started[priority] < until) AddPauseTime(q, until - fc_->pause_started[priority]);
      fc_->pause_started[priority] = now;
    } else if (watchdog_detection_ > Time::Zero() && now - fc_->pause_started[priority] >= watchdog_detection_) {
      // Paused without a break for the detection time: a pause storm (or a
      // deadlock). Send regardless for the restoration time.
      counters_.pfc_storms++;
      AddPauseTime(q, now - fc_->pause_started[priority]);
      fc_->pause_started[priority] = now;
      until = now;
      NotePauseState(priority);
      fc_->storm_until[priority] = now + watchdog_restoration_;
      if (watchdog_drops_) {
        FlushQueue(priority);
      } else {
        TrySend();
      }
      return;
    }
    until = now + pause_quanta_time_;
    NotePauseState(priority);
    pause_horizon_ = Max(pause_horizon_, until);
    return;
  }
  // Resume (quanta 0).
  if (until > now) {
    AddPauseTime(q, now - fc_->pause_started[priority]);
    fc_->pause_started[priority] = now;
    until = now;
    NotePauseState(priority);
  }
  TrySend();
}

void EgressPort::FlushQueue(int priority) {
  PacketQueue& q = queues_[priority];
  while (!q.empty()) {
    Packet* p = q.Pop();
    queued_bytes_ -= p->wire_bytes;
    wiring_.owner_switch->DropQueued(p, *this);
  }
  nonempty_mask_ &= static_cast<uint8_t>(~(1u << priority));
  scheduler_.Forfeit(priority);
}

void EgressPort::FinishPauseAccounting(Time end) {
  if (!fc_) return;
  for (int p = 0; p < kNumPriorities; ++p) {
    const Time stop = Min(fc_->paused_until[p], end);
    if (fc_->pause_started[p] < stop) AddPauseTime((*queue_events_)[p], stop - fc_->pause_started[p]);
    fc_->pause_started[p] = stop;
    NotePauseState(p);
  }
  ++queue_events_version_;
}

void EgressPort::AddPauseTime(QueueEvents& q, Time paused) {
  const uint64_t ps = static_cast<uint64_t>(paused.ps());
  counters_.pfc_pause_ps += ps;
  q.pfc_pause_ps += ps;
}

Time EgressPort::PauseTime(int priority, Time now) const {
  return Time::FromPs(static_cast<int64_t>((*queue_events_)[priority].pfc_pause_ps)) + OpenPauseTime(priority, now);
}

Time EgressPort::RunningPause(int priority, Time now) const {
  // The pause in progress (or expired but not yet closed) up to `now`.
  const Time stop = Min(fc_->paused_until[priority], now);
  return fc_->pause_started[priority] < stop ? stop - fc_->pause_started[priority] : Time::Zero();
}

QueueCounters EgressPort::queue_counters(int priority) const {
  const CountedQueue& q = queues_[priority];
  const QueueEvents& e = (*queue_events_)[priority];
  QueueCounters c;
  c.tx_bytes = q.tx_bytes;
  c.tx_packets = q.tx_packets;
  c.peak_bytes = q.peak_bytes;
  c.watermark_bytes = q.watermark_bytes;
  c.drop_packets = e.drop_packets;
  c.ecn_marks = e.ecn_marks;
  c.pfc_frames_tx = e.pfc_frames_tx;
  c.pfc_frames_rx = e.pfc_frames_rx;
  c.pfc_pause_ps = e.pfc_pause_ps;
  return c;
}

uint8_t EgressPort::UnpausedMask() {
  const Time now = sim_.Now();
  uint8_t allowed = kAllPriorities;
  Time earliest = Time::Infinite();
  for (int p = 0; p < kNumPriorities; ++p) {
    if (fc_->paused_until[p] > now) {
      allowed &= static_cast<uint8_t>(~(1u << p));
      earliest = Min(earliest, fc_->paused_until[p]);
    }
  }
  // Look again when the first pause expires (a resume frame may come sooner
  // and call TrySend itself).
  if (!earliest.IsInfinite()) WakeAt(earliest);
  return allowed;
}

void EgressPort::TrySend() {
  if (sim_.Now() < busy_until_) {
    // Still serializing: come back when the transmitter frees, if more is
    // (or may be) waiting. Usually that wake-up is already pending.
    if ((nonempty_mask_ != 0 || wiring_.source != nullptr) && !WakeupBy(busy_until_)) WakeWhenFree();
    return;
  }
  SendNext();
}

void EgressPort::WakeWhenFree() { ScheduleWakeup(busy_until_); }

void EgressPort::SendNext() {
  const Time now = sim_.Now();
  // flow_control_, not fc_, so the plain path reads no cold cache line.
  const uint8_t allowed = flow_control_ ? FlowControlMask(now) : kAllPriorities;
  Packet* p = Dequeue(allowed);
  if (p != nullptr) {
    if (ecn_enabled_) {
      const uint64_t queue_before = queues_[p->priority].bytes() + p->wire_bytes;
      if (queue_before > ecn_kmin_) MaybeMarkEcn(p, queue_before);
    }
    // A switch frees the packet's buffer (inline for lossy traffic).
    if (wiring_.owner_switch != nullptr) wiring_.owner_switch->OnDeparture(p);
  } else if (wiring_.source != nullptr) {
    p = wiring_.source->Pull(wiring_.id, allowed);
  }
  if (p == nullptr) return;
  if (credit_fc_) {
    fc_->credits[p->priority] -= CreditBlocks(p->wire_bytes);
    if (fecn_enabled_) MaybeMarkFecn(p);
  }
  Transmit(p);
  // Keep draining: if more may be waiting, come back when this packet is out.
  if (nonempty_mask_ != 0 || wiring_.source != nullptr) WakeAt(busy_until_);
}

void EgressPort::Transmit(Packet* p) {
  const Time now = sim_.Now();
  Time end = now + SerializationTime(p->wire_bytes);
  // A cut-through packet cannot leave before its last bit has arrived.
  if (cut_through_ && p->last_bit_at > end) end = p->last_bit_at;
  busy_until_ = end;

  counters_.tx_packets++;
  counters_.tx_bytes += p->wire_bytes;
  counters_.tx_payload_bytes += p->payload_bytes;
  CountedQueue& q = queues_[p->priority];
  q.tx_packets++;
  q.tx_bytes += p->wire_bytes;
  if (stamp_int_ && p->kind == PacketKind::kData && p->int_hops < kMaxIntHops) {
    p->int_[p->int_hops++] = IntHop{counters_.tx_bytes, queued_bytes_, now, wiring_.rate.bps()};
  }

  const Time last_bit_at_receiver = end + wiring_.propagation;
  Time arrival;
  if (cut_through_ && wiring_.receiver_latency > Time::Zero()) {
    const uint32_t header = p->wire_bytes < kCutThroughHeaderBytes ? p->wire_bytes : kCutThroughHeaderBytes;
    arrival = now + SerializationTime(header) + wiring_.propagation + wiring_.receiver_latency;
  } else {
    arrival = last_bit_at_receiver + wiring_.receiver_latency;
  }
  p->last_bit_at = last_bit_at_receiver;
  p->in_port = wiring_.receiver_in_port;
  sim_.Schedule(arrival, wiring_.receiver, reinterpret_cast<uint64_t>(p));
}

Packet* EgressPort::Dequeue(uint8_t allowed) {
  const uint8_t ready = nonempty_mask_ & allowed;
  if (ready == 0) return nullptr;
  if ((ready & (ready - 1)) != 0 || (ready & strict_mask_) != 0) return DequeueArbitrated(ready);
  // One backlogged queue, not strict: it gets the link; its deficit is moot.
  if (strict_mask_ != 0) scheduler_.RestartHighRun();  // only VL arbitration reads it
  return PopHead(std::countr_zero(ready));
}

Packet* EgressPort::DequeueArbitrated(uint8_t ready) {
  return PopHead(scheduler_.Arbitrate(ready, deficit_dirty_, [this](int q) { return queues_[q].head()->wire_bytes; }));
}

void EgressPort::MaybeMarkEcn(Packet* p, uint64_t queue_bytes) {
  // WRED on the instantaneous queue of the packet's priority, at dequeue
  // (as the HPCC simulator marks): p = pmax (q - kmin) / (kmax - kmin)
  // between kmin and kmax, 1 above kmax.
  if (p->kind != PacketKind::kData || !(ecn_.marked_mask & (1u << p->priority)) || p->ecn_ce) return;
  bool mark;
  if (queue_bytes > ecn_kmax_) {
    mark = true;
  } else {
    mark = sim_.rng().Uniform() < EcnMarkProbability(static_cast<double>(queue_bytes), ecn_kmin_, ecn_kmax_, ecn_.pmax);
  }
  if (mark) {
    p->ecn_ce = true;
    counters_.ecn_marks++;
    (*queue_events_)[p->priority].ecn_marks++;
    ++queue_events_version_;
  }
}

void EgressPort::MaybeMarkFecn(Packet* p) {
  // A port that had to wait for credits before this packet is a victim of
  // congestion further down, not its root, and marks only if told to; one
  // that sends back to back is a root.
  const uint8_t vl_bit = static_cast<uint8_t>(1u << p->priority);
  const bool victim = (credit_starved_ & vl_bit) != 0;
  credit_starved_ &= static_cast<uint8_t>(~vl_bit);
  if (victim && !fecn_.mark_victims) return;
  if (p->kind != PacketKind::kData || p->ecn_ce || p->wire_bytes < fecn_.packet_size_bytes) return;
  // Congested: the VL's queue (this packet included) is above the threshold.
  if (queues_[p->priority].bytes() + p->wire_bytes <= wiring_.fecn_threshold_bytes) return;
  // Marking_Rate: mark one eligible packet, then let that many pass.
  if (fecn_skip_ > 0) {
    --fecn_skip_;
    return;
  }
  fecn_skip_ = fecn_.marking_rate;
  p->ecn_ce = true;
  counters_.ecn_marks++;
  (*queue_events_)[p->priority].ecn_marks++;
  ++queue_events_version_;
}

}  // namespace aifabric
