// FlowDcqcn is DCQCN at flow level: the reaction point of every queue pair
// (fabric/dcqcn_reaction_point.h, the packet level's rules) driven by a
// fluid notification side, over a FluidNetwork whose rates are what each
// queue pair delivers. Owned by FlowNetwork (flow_network.h) when
// FlowConfig::dcqcn is set; lives in one Simulator; not thread-safe.
//
// The model (a fluid DCQCN in the manner of Zhu et al., "ECN or Delay:
// Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016). Each
// queue pair i sends at s_i = R_C,i x mtu / (mtu + overhead) (its current
// rate, paced in wire bytes, as payload) or what its NIC's link leaves it
// if less (queue pairs of one host filling that link build no queue
// behind it: at packet level they wait in the NIC, unmarked) and is
// delivered at d_i, the
// fluid's rate. Once DCQCN first holds it below its line rate its fluid
// carries one more resource of its own, a cap (until then its source link
// caps it as well, so a queue pair never cut costs the solver nothing):
//   - while it has no backlog the cap is its sending rate, so the fluid
//     gives it d_i = min(s_i, its max-min share): DCQCN's cuts leave a link
//     idle as at packet level;
//   - when its share falls below s_i at a switch port (the first on its
//     path that the fluid fills: the queue it joins), the excess builds a
//     backlog b_i, d(b_i)/dt = s_i - d_i (the fluid's conservation:
//     arrivals minus what the port serves), and the cap is lifted to the
//     line rate: while a queue stands its port delivers at capacity, shared
//     among its queue pairs as the fluid shares it (max-min within a
//     class, the classes by the scheduler), draining the queue once their
//     sending rates fall below it. A queue pair done sending (its bytes
//     all sent) still drains its backlog: the queue's delay is in its FCT.
// The queue of a (port, class) is the sum of the backlogs of the queue
// pairs queued there. Its packets leave it marked with the packet level's
// probability on that queue (EcnMarkProbability on the queue in wire
// bytes, the port's kmin and kmax), counted deterministically: a queue
// pair accumulates the expected marks of the packets it has leaving the
// queue (d_i / mtu per second) and every whole mark is a marked packet.
// The receiver answers a marked packet with a CNP at most once per
// cnp_interval (RcReceiver's pacing); the marked packet's rest of the path
// and the CNP's way back take the queue pair's path latency each. The
// reaction point hears each CNP, and its alpha and increase timers expire,
// at their exact times; its byte counter counts the bytes sent.
//
// Cost. The loop ticks every FlowConfig::dcqcn_step (sooner when a backlog
// is about to empty or a sender to finish) only while some queue pair is
// congested, throttled or awaiting a CNP or a timer; a tick touches those
// queue pairs only and changes a cap (one incremental solve) only where a
// rate moved. On a fabric where every queue pair gets its sending rate
// nothing ticks and no rate changes.
//
// Not modelled: PFC (a fluid queue never pauses its upstream: at packet
// level PFC caps the queue at XOFF), queues at a NIC (queue pairs of one
// host sharing its link share it max-min, as without DCQCN), the FIFO order
// among flows of a class in a queue (they share the port max-min), and
// queues of flows without DCQCN (coflows).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/dcqcn_reaction_point.h"
#include "fabric/topology.h"
#include "flow/flow_config.h"
#include "flow/fluid_network.h"

namespace aifabric {

class FlowDcqcn final : public EventHandler {
 public:
  // The ports a queue pair crosses now, source first (FlowNetwork::path).
  using PathOf = std::function<std::span<const PortId>(uint32_t qp)>;

  // REQUIRES: config.dcqcn; the fluid's resources 0..ports-1 are the
  // topology's ports at their payload capacities. All outlive this.
  FlowDcqcn(Simulator& sim, FluidNetwork& fluid, const Topology& topology, const FlowConfig& config, PathOf path_of);
  FlowDcqcn(const FlowDcqcn&) = delete;
  FlowDcqcn& operator=(const FlowDcqcn&) = delete;

  // A queue pair starts (its fluid's id is `qp`). `latency` is its path
  // latency. REQUIRES: queue pairs are admitted in index order.
  void Admit(uint32_t qp, PortId source_port, uint64_t bytes, int traffic_class, Time latency);
  // Its fluid's rate from now and the bytes it has still to deliver
  // (FluidNetwork's rate observer).
  void OnRate(uint32_t qp, double rate_bps, double remaining_bytes);
  // Its last byte arrived: its cap is free for another.
  void OnDone(uint32_t qp);
  // Its path changed (a fault's reroute): it leaves its queue.
  void OnReroute(uint32_t qp);
  // Its cap resource, -1 while DCQCN has never held it below its line
  // rate (its source link caps it as well then).
  int cap_resource(uint32_t qp) const { return cap_of_[qp]; }

  // --- Observation (tests, counters) ---------------------------------------
  // The reaction point of a queue pair (null if it was never congested:
  // it is then at line rate, alpha 1; null again once it is done).
  const DcqcnReactionPoint* reaction_point(uint32_t qp) const;
  // Bytes queued at a port for a class now (payload bytes), as of the
  // last tick.
  double queue_bytes(PortId port, int traffic_class) const;
  // Bytes a queue pair has sent and has queued now.
  double sent_bytes(uint32_t qp) const;
  double backlog_bytes(uint32_t qp) const;
  uint64_t cnps() const { return cnps_; }
  uint64_t cuts() const { return cuts_; }
  uint64_t marks() const { return marks_; }
  uint64_t ticks() const { return ticks_; }

  void OnEvent(uint64_t tag) override;

 private:
  static constexpr int32_t kNoState = -1;   // never congested
  static constexpr int32_t kReleased = -2;  // done; its state went back to free_states_
  struct State {
    State(uint32_t q, const DcqcnReactionPoint& r) : qp(q), rp(r) {}
    uint32_t qp = 0;
    DcqcnReactionPoint rp;
    double line_payload_bps = 0;
    double bytes = 0;
    double sent = 0;        // bytes sent
    double delivered = 0;   // bytes delivered (the fluid's progress)
    double counted = 0;     // bytes handed to the byte counter
    double delivered_bps = 0;
    double cap_bps = 0;     // its cap resource's capacity now
    double nic_room_bps = 0;  // what its NIC's link leaves it: it sends no faster
    Time updated;           // sent/delivered as of then
    Time latency;           // its path latency
    PortId queue_port = kNoPort;  // the queue it is in (kNoPort: none)
    int traffic_class = 0;
    double marks = 0;       // expected marks not yet a whole one
    bool cnp_sent = false;
    Time last_cnp;          // at the receiver
    std::vector<Time> cnps_in_flight;  // arrival times at the sender, sorted
    Time increase_due = Time::Infinite();
    Time alpha_due = Time::Infinite();
    bool active = false;    // in active_
    bool done = false;
    double backlog() const { return sent - delivered; }
  };
  // What Admit heard of a queue pair, for its State if it ever needs one.
  struct Admitted {
    PortId source_port;
    int traffic_class;
    uint64_t bytes;
    Time latency;
  };
  // A wire rate as payload: x mtu / (mtu + overhead), as FlowNetwork's
  // port capacities.
  double Payload(double wire_bps) const {
    return wire_bps * config_.mtu_bytes / (config_.mtu_bytes + config_.wire_overhead_bytes);
  }
  // What it sends now: its current rate while queued, what it is
  // delivered otherwise (the share it gets is what it sends), 0 once sent.
  double SendingBps(const State& s) const;
  // The cap its fluid has from now: the line rate while it has a backlog
  // (the queue drains at the port's capacity), its sending rate otherwise.
  double CapBps(const State& s) const;
  State& StateFor(uint32_t qp);
  // A done queue pair's state goes back to free_states_ (once out of
  // active_): states_ holds the queue pairs congested at once, not every
  // one ever congested.
  void Release(uint32_t qp);
  // Its bytes sent and delivered at `now` at the rates in force since
  // `updated`.
  void Progress(const State& s, Time now, double& sent, double& delivered) const;
  // Integrates sent/delivered/backlog, the marks and the byte counter to
  // `now`.
  void Advance(State& s, Time now);
  // The first switch port on its path the fluid fills (kNoPort if none).
  PortId FullSwitchPort(uint32_t qp) const;
  bool Congested(const State& s) const;
  // What its source's link can carry for it with the others' rates held:
  // capacity - load + its own rate (its share when the link is full).
  double NicRoom(const State& s) const;
  void Activate(State& s);
  // Gives the queue pairs in uncapped_ a cap resource each, at their
  // cap_bps, in one pass over the fluid's transfers (FluidNetwork::Revise).
  void AttachCaps();
  void ArmTick(Time at);
  // The reaction point's events due by `now`, in time order.
  void RunReactionPoint(State& s, Time now);
  size_t QueueKey(PortId port, int traffic_class) const {
    return static_cast<size_t>(port) * 8 + static_cast<size_t>(traffic_class);
  }

  // Fixed at construction.
  Simulator& sim_;
  FluidNetwork& fluid_;
  const Topology& topology_;
  const FlowConfig config_;
  const PathOf path_of_;

  std::vector<int> cap_of_;         // by queue pair: its cap resource (-1: none)
  std::vector<Admitted> admitted_;  // by queue pair
  std::vector<int32_t> state_of_;   // by queue pair: index in states_ (kNoState, kReleased: none)
  std::vector<State> states_;
  std::vector<int32_t> free_states_;  // states_ indexes of done queue pairs, for the next StateFor
  std::vector<int> free_caps_;
  std::vector<uint32_t> uncapped_;  // queue pairs whose first cap AttachCaps adds
  std::vector<uint32_t> active_;    // states_ indexes
  std::vector<double> queue_;       // by QueueKey: payload bytes queued
  std::vector<size_t> queue_touched_;
  Time tick_at_ = Time::Infinite();  // the pending tick
  uint64_t tick_generation_ = 0;
  uint64_t cnps_ = 0, cuts_ = 0, marks_ = 0, ticks_ = 0;
};

}  // namespace aifabric
