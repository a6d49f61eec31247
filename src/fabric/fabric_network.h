// FabricNetwork is a NetworkModel of a whole fabric whose endpoints are the
// hosts' NICs: the packet, flow and analytic levels implement it (GpuNetwork,
// over GPU ids, does not). Beyond starting transfers it answers what a
// caller asks of the model that ran — its kind, what each port carried, a
// transfer's time alone on the idle fabric, the run's totals, the transfers
// it tracked — so that no caller works out which model it is. Not thread-safe; lives inside one
// Simulator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "core/time.h"
#include "fabric/fabric_observation.h"
#include "fabric/fault_timeline.h"
#include "fabric/link_fault.h"
#include "fabric/network_model.h"
#include "fabric/port_counters.h"

namespace aifabric {

// Payload byte totals over all transfers; conservation says
// sent == delivered + dropped + discarded + in_flight.
struct PayloadTotals {
  uint64_t sent = 0;          // put on the wire by sources, retransmissions included
  uint64_t delivered = 0;     // in order at destinations (each byte once)
  uint64_t dropped = 0;       // lost in switch buffers
  uint64_t discarded = 0;     // thrown away by receivers (out of order, duplicate)
  uint64_t in_flight = 0;
  uint64_t retransmitted = 0;
};

// What a model counted over a run beyond its ports. The fluid models move
// no packets and run no transport: their payload is that of the transfers
// they started (sent) and finished (delivered), plus, with faults at flow
// level, what dead links destroyed on the wire (dropped, retransmitted,
// and sent again); the rest is 0.
struct NetworkTotals {
  PayloadTotals payload;
  uint64_t timeouts = 0;              // retransmission timeouts that fired
  uint64_t out_of_order_packets = 0;  // data that arrived ahead of the expected offset
  uint64_t cnps = 0;                  // congestion notifications receivers sent
  uint64_t acks = 0;                  // ACK and NAK packets receivers sent
  uint64_t pfc_deadlocks = 0;         // cycles of paused ports seen (a persisting one once)
};

class FabricNetwork : public NetworkModel {
 public:
  virtual ModelKind kind() const = 0;
  const char* name() const final { return ModelKindName(kind()); }
  // The completion time of `request` alone on the idle fabric, along the
  // path the model gives it (its ECMP hash): the reference a slowdown is
  // measured against.
  virtual Time IdealFct(const TransferRequest& request) const = 0;
  // What the egress port `port` carried and lost so far. The fluid models
  // know only bytes: payload plus the per-packet overhead of the whole
  // packets it took; no drops, marks, pauses or queues.
  virtual PortCounters LinkCounters(PortId port) const = 0;
  virtual NetworkTotals RunTotals() const = 0;
  // Transfers (queue pairs) completed so far: a scan, for live figures.
  virtual size_t TransfersCompleted() const = 0;
  // Closes time-based counters (a PFC pause still on) at the end of a run.
  virtual void FinishRun(Time /*end*/) {}
  // Adds what the model tracked to `observation`: every queue pair it
  // carried, in start order, with its path and IdealFct (at flow level
  // coflows are no transfers and are left out), and at packet level the
  // port that caused each PFC pause. The analytic model tracks no queue
  // pairs and adds nothing. Sets observation.model.
  virtual void Observe(FabricObservation& observation) const = 0;
  // Plays `faults` during the run (fabric/link_fault.h); call before the
  // run starts. Once routing hears of a change, the routes `rebuild` makes
  // over the links still up replace the model's (none given: shortest
  // paths, which InfiniBand forwarding tables cannot be rebuilt by; a
  // fault on them that routing would hear of is refused). A model that
  // does not model faults says so.
  virtual Status InjectFaults(std::span<const LinkFault> faults, RouteBuilder rebuild = {}) {
    (void)rebuild;
    if (faults.empty()) return {};
    return Error{"faults: this network model does not model faults (use simulation.model: packet or flow)"};
  }
  // What each injected fault did so far, in injection order.
  virtual std::vector<FaultOutcome> FaultOutcomes() const { return {}; }
};

}  // namespace aifabric
