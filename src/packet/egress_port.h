// EgressPort is one direction of a link as its sender sees it: eight priority
// queues, a scheduler (strict priority, then deficit-weighted round robin),
// and a transmitter that serializes one packet at a time at line rate and
// hands it to the receiving node after the propagation delay plus the
// receiver's forwarding latency. It schedules an event only when it must
// wake up: a packet that finds the port idle starts at once.
// Owned by PacketNetwork; not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "packet/packet.h"
#include "packet/packet_config.h"
#include "packet/queue_scheduler.h"
#include "fabric/port_counters.h"

namespace aifabric {

// Supplies packets to an idle port whose queues are empty (a host NIC pulls
// from its flows this way, so sending hosts hold no queue of their own).
class PacketSource {
 public:
  // Returns the next packet to put on `port` from a priority whose bit is
  // set in `allowed` (the others are paused by PFC), or nullptr.
  virtual Packet* Pull(PortId port, uint8_t allowed) = 0;

 protected:
  ~PacketSource() = default;
};

class SwitchNode;

class EgressPort final : public EventHandler {
 public:
  struct Wiring {
    PortId id = kNoPort;
    DataRate rate;
    Time propagation;            // cable delay
    Time receiver_latency;       // forwarding latency of the node at the far end (0 for hosts)
    EventHandler* receiver = nullptr;  // gets (tag = Packet*) when the packet arrives
    PortId receiver_in_port = kNoPort; // the same link seen from the receiver
    SwitchNode* owner_switch = nullptr;  // the sending switch, told when a packet leaves; null for hosts
    uint64_t vl_credit_bytes = 0;      // InfiniBand: the receiver's buffer per VL; 0 = no credit flow control
    uint64_t fecn_threshold_bytes = 0; // InfiniBand CC: mark FECN above this VL queue; 0 = never
    PacketSource* source = nullptr;    // pulled when the queues are empty (hosts), or null
  };

  EgressPort(Simulator& sim, const PacketConfig& config, const Wiring& wiring);
  EgressPort(const EgressPort&) = delete;
  EgressPort& operator=(const EgressPort&) = delete;

  // Queues a packet (already admitted to the buffer, if any) and starts
  // sending if the port is idle.
  void Enqueue(Packet* p);
  // Tells an idle port that its source may have a packet now.
  void Kick();

  // Event tags: the transmitter freed, or a PFC frame for a priority arrived
  // from the far end (pause for one quanta period, or resume).
  static constexpr uint64_t kTxDoneTag = 0;
  static uint64_t PfcFrameTag(int priority, bool pause) {
    return 1u | static_cast<uint64_t>(priority) << 1 | (pause ? 0x10u : 0u);
  }
  // InfiniBand: the receiver freed `blocks` credits of VL `vl`.
  static uint64_t CreditTag(int vl, uint32_t blocks) {
    return 0x20u | static_cast<uint64_t>(vl) << 6 | static_cast<uint64_t>(blocks) << 9;
  }
  static uint32_t CreditBlocks(uint32_t wire_bytes) {
    return (wire_bytes + kIbCreditBlockBytes - 1) / kIbCreditBlockBytes;
  }
  // How long one PAUSE frame with the maximum quanta (65535 x 512 bit times)
  // stops this port.
  Time PauseQuantaTime() const { return pause_quanta_time_; }
  bool paused(int priority) const { return fc_ && fc_->paused_until[priority] > sim_.Now(); }
  // The PFC watchdog's drop action holds `priority` here: packets to or from
  // the peer on it are dropped.
  bool WatchdogDropping(int priority) const {
    return watchdog_drops_ && fc_ && sim_.Now() < fc_->storm_until[priority];
  }
  // Closes the pause-time accounting at the end of a run.
  void FinishPauseAccounting(Time end);
  // Time `priority` has spent paused up to `now`: the closed pauses plus
  // the part of one in progress before `now` (for a reader mid-run).
  // REQUIRES: now >= the time of the last event this port handled.
  Time PauseTime(int priority, Time now) const;
  // The highest occupancy of queue `priority` since the previous call (or
  // the start), and resets it to the current occupancy. For a sampler, so
  // a spike between two samples shows at the next one.
  uint64_t TakePeakQueueBytes(int priority) {
    CountedQueue& q = queues_[priority];
    const uint64_t peak = q.peak_bytes;
    q.peak_bytes = q.bytes();  // from now on the peak is at least what is queued now
    return peak;
  }

  uint64_t queue_bytes(int priority) const { return queues_[priority].bytes(); }
  uint64_t queue_bytes() const { return queued_bytes_; }
  const PortCounters& counters() const { return counters_; }
  PortCounters& counters() { return counters_; }
  // The counters of queue `priority` (closed pauses only: see PauseTime).
  QueueCounters queue_counters(int priority) const;
  // The per-packet ones alone, without reading the rest (for a sampler).
  uint64_t queue_tx_bytes(int priority) const { return queues_[priority].tx_bytes; }
  uint64_t queue_watermark_bytes(int priority) const { return queues_[priority].watermark_bytes; }
  // Starts loading what a sampler reads of the port and of queue
  // `priority` (a sampler walks thousands of ports, each likely out of cache).
  void PrefetchForRead(int priority) const {
    __builtin_prefetch(&queue_events_version_);
    __builtin_prefetch(&queues_[priority]);
  }
  // Changes whenever a queue's drop, ECN, PFC frame or closed pause-time
  // counter does (it wraps; compare for equality only): a sampler re-reads
  // those only then.
  uint32_t queue_events_version() const { return queue_events_version_; }
  // The part of PauseTime not yet in queue_counters(priority).pfc_pause_ps:
  // an open pause's time before `now` (zero, without touching the PFC
  // state, when none is open).
  Time OpenPauseTime(int priority, Time now) const {
    return open_pauses_ & (1u << priority) ? RunningPause(priority, now) : Time::Zero();
  }
  // Counted by the port's node: a packet for queue `priority` was dropped
  // here (PortCounters' drop totals are the caller's), or a PFC frame for
  // `priority` left over this link.
  void CountQueueDrop(int priority) {
    (*queue_events_)[priority].drop_packets++;
    ++queue_events_version_;
  }
  void CountPfcFrameSent(int priority) {
    counters_.pfc_frames_tx++;
    (*queue_events_)[priority].pfc_frames_tx++;
    ++queue_events_version_;
  }
  DataRate rate() const { return wiring_.rate; }
  Time propagation() const { return wiring_.propagation; }
  // What gets this port's packets at the far end. A fault gate
  // (packet/fault_gate.h) puts itself there and passes on what survives.
  EventHandler* receiver() const { return wiring_.receiver; }
  void SetReceiver(EventHandler* receiver) { wiring_.receiver = receiver; }
  // Serializes at `rate` from the next packet on (a gray link running
  // slower, and back). REQUIRES: rate > 0.
  void SetRate(DataRate rate) {
    wiring_.rate = rate;
    ps_per_byte_ = PsPerByte(rate);
  }
  PortId id() const { return wiring_.id; }

  // The transmitter freed, or a PFC frame arrived (see the tags above).
  void OnEvent(uint64_t tag) override;

 private:
  // Picks the next packet by strict priority, then DWRR (scheduler_);
  // nullptr if none.
  // Only a queue in `allowed` may send. Dequeue and Transmit are the
  // per-packet steps of SendNext, their one caller, and inlined into it.
  [[gnu::always_inline]] inline Packet* Dequeue(uint8_t allowed);
  // Dequeue when several queues are ready or a strict one is (the common
  // case, one lossy queue backlogged, never gets here).
  Packet* DequeueArbitrated(uint8_t ready);
  // Takes the head of queue `prio` and updates the queue bookkeeping.
  Packet* PopHead(int prio) {
    Packet* p = queues_[prio].Pop();
    if (!queues_[prio].empty()) {
      // The new head leaves next, a serialization time from now; queued a
      // while, it has likely left the cache: start loading it.
      __builtin_prefetch(queues_[prio].head());
    } else {
      nonempty_mask_ &= static_cast<uint8_t>(~(1u << prio));
      // Only DWRR among several queues leaves a deficit; the cold
      // scheduler is not touched otherwise.
      if (deficit_dirty_ & (1u << prio)) {
        scheduler_.Forfeit(prio);
        deficit_dirty_ &= static_cast<uint8_t>(~(1u << prio));
      }
    }
    queued_bytes_ -= p->wire_bytes;
    return p;
  }
  // A PFC frame or a credit update arrived (OnEvent's tags other than
  // kTxDoneTag).
  void OnFlowControlFrame(uint64_t tag);
  void OnPfcFrame(int priority, bool pause);
  struct QueueEvents;
  // Adds a closed pause to the port's total and its queue's.
  void AddPauseTime(QueueEvents& q, Time paused);
  // OpenPauseTime when a pause is open. REQUIRES: fc_.
  Time RunningPause(int priority, Time now) const;
  // Sets bit `priority` of open_pauses_ from the PFC state. REQUIRES: fc_.
  void NotePauseState(int priority) {
    const uint8_t bit = static_cast<uint8_t>(1u << priority);
    open_pauses_ = fc_->pause_started[priority] < fc_->paused_until[priority] ? open_pauses_ | bit
                                                                               : open_pauses_ & static_cast<uint8_t>(~bit);
  }
  // The watchdog's drop action: drop everything queued on `priority`.
  void FlushQueue(int priority);
  // Priorities that may send now under PFC and credits. REQUIRES: fc_.
  // Out of line: inlined, it crowds the plain path, which never calls it.
  [[gnu::noinline]] uint8_t FlowControlMask(Time now);
  // Priorities not paused now; schedules a wake-up at the earliest expiry
  // when some are.
  uint8_t UnpausedMask();
  // VLs with credits for their next packet (for the source: a full one).
  uint8_t CreditMask() const;
  void MaybeMarkEcn(Packet* p, uint64_t queue_bytes);
  // InfiniBand congestion control, for a packet just taken off its VL queue
  // (credits already taken).
  void MaybeMarkFecn(Packet* p);
  [[gnu::always_inline]] inline void Transmit(Packet* p);
  // Sends the next packet if the transmitter is free, else makes sure a
  // wake-up comes when it frees.
  void TrySend();
  // The transmitter is free: dequeue (or pull) and transmit one packet.
  void SendNext();
  // ScheduleWakeup(busy_until_), kept out of line: TrySend, whose other
  // paths are tail calls, then needs no stack frame (GCC hoists the
  // register saves of an inlined Schedule to the function's entry).
  [[gnu::noinline]] void WakeWhenFree();
  // Keeps one wake-up at the earliest time asked for; a later one left
  // behind by an earlier request fires harmlessly (TrySend is idempotent).
  void WakeAt(Time at) {
    if (!WakeupBy(at)) ScheduleWakeup(at);
  }
  bool WakeupBy(Time at) const { return wakeup_pending_ && wakeup_at_ <= at; }
  void ScheduleWakeup(Time at) {
    wakeup_pending_ = true;
    wakeup_at_ = at;
    sim_.Schedule(at, this, kTxDoneTag);
  }
  // DataRate::TransmitTime, without its 128-bit division when the rate is
  // a whole number of picoseconds per byte (100G: 80, 400G: 20, 800G: 10).
  Time SerializationTime(uint32_t bytes) const {
    return ps_per_byte_ != 0 ? Time::FromPs(static_cast<int64_t>(bytes * ps_per_byte_))
                             : wiring_.rate.TransmitTime(bytes);
  }

  // Hot: touched for every packet (kept together for the cache).
  Simulator& sim_;
  // Fixed but for the receiver a fault gate may stand in for (SetReceiver)
  // and the rate a gray link may lower (SetRate).
  Wiring wiring_;
  uint64_t ps_per_byte_;                        // 0 when not a whole number
  static uint64_t PsPerByte(DataRate rate) {
    return 8'000'000'000'000ull % rate.bps() == 0 ? 8'000'000'000'000ull / rate.bps() : 0;
  }
  const bool cut_through_;
  const bool stamp_int_;                        // a switch port with INT on
  const bool credit_fc_;                        // InfiniBand credit flow control
  const bool ecn_enabled_;
  const bool flow_control_;                     // PFC or credits: fc_ is allocated
  const bool fecn_enabled_;
  bool wakeup_pending_ = false;
  uint8_t deficit_dirty_ = 0;                   // bit p set: scheduler_ may hold a deficit for p
  uint8_t nonempty_mask_ = 0;
  const uint8_t strict_mask_;                   // bit p set: priority p is strict (scheduler_'s)
  Time busy_until_;          // the transmitter is serializing until then
  Time wakeup_at_;           // when the pending wake-up fires
  Time pause_horizon_;       // no priority is paused from then on (>= every paused_until)
  uint64_t queued_bytes_ = 0;
  // Beside the counters: a sampler reads these and the first counters in
  // one cache line.
  uint8_t open_pauses_ = 0;                     // bit p: a pause on p not yet in the counters
  uint32_t queue_events_version_ = 0;           // see queue_events_version()
  PortCounters counters_;
  // A priority's queue and the counters every packet through it changes,
  // side by side (64 bytes), so counting touches no other line. Not
  // aligned to a cache line: padding every port for it cost more (a larger
  // port spreads the ports over more pages) than a straddled line does.
  struct CountedQueue : PacketQueue {
    uint64_t tx_bytes = 0;
    uint64_t tx_packets = 0;
    uint64_t peak_bytes = 0;       // since the last TakePeakQueueBytes
    uint64_t watermark_bytes = 0;  // >= peak_bytes
  };
  std::array<CountedQueue, kNumPriorities> queues_;

  // Cold: ECN, arbitration among several queues, PFC and credits.
  const EcnConfig ecn_;
  const Time pause_quanta_time_;
  const Time watchdog_detection_;
  const Time watchdog_restoration_;
  const bool watchdog_drops_;                   // a switch port with the drop action
  const uint32_t max_packet_blocks_;
  uint64_t ecn_kmin_ = 0, ecn_kmax_ = 0;        // bytes, resolved for this port's rate
  QueueScheduler scheduler_;                    // among several queues, or a strict one
  const IbCcMarkingConfig fecn_;
  uint32_t fecn_skip_ = 0;                      // eligible packets still to pass unmarked
  uint8_t credit_starved_ = 0;                  // bit v: VL v waited for credits before its next packet
  // Per queue, the counters of rarer events (see QueueCounters), kept
  // apart so that they do not make every port larger.
  struct QueueEvents {
    uint64_t drop_packets = 0;
    uint64_t ecn_marks = 0;
    uint64_t pfc_frames_tx = 0;
    uint64_t pfc_frames_rx = 0;
    uint64_t pfc_pause_ps = 0;
  };
  const std::unique_ptr<std::array<QueueEvents, kNumPriorities>> queue_events_;
  // PFC and credit state, allocated only when the fabric uses them, so a
  // plain port stays compact.
  struct FlowControl {
    std::array<uint64_t, kNumPriorities> credits{};  // blocks the receiver can take, per VL
    std::array<Time, kNumPriorities> paused_until{};
    std::array<Time, kNumPriorities> pause_started{};  // start of the current pause
    std::array<Time, kNumPriorities> storm_until{};    // watchdog: pauses ignored until then
  };
  std::unique_ptr<FlowControl> fc_;
};

}  // namespace aifabric
