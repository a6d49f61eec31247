// What a window of a real fabric's port counters says, as the
// FabricObservation (fabric/fabric_observation.h) the simulator builds, so
// the same Diagnose (diagnosis/diagnosis.h) reads it. PortWindow holds one
// port's figures over the window, in the field units; ObservationFromWindows
// turns them into PortObservations and infers the PFC pause causes that
// counters cannot name. Counters give no transfers: the observation has
// none, so the rules that need them (incast, oversubscribed uplink, ECMP
// collision) find nothing and a finding lists no flows. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "fabric/fabric_observation.h"
#include "fabric/topology.h"

namespace aifabric {

struct PortWindow {
  bool seen = false;          // some series named this port
  double tx_bytes = 0;        // bytes sent in the window
  double seconds = 0;         // clock time those bytes' samples span
  double peak_bps = 0;        // highest rate between two consecutive samples
  double drop_packets = 0;
  double ecn_marks = 0;
  double pause_seconds = 0;   // summed over priorities
  double pfc_frames_tx = 0;   // frames the port's node sent its peer
  double max_queue_bytes = 0;
  double fcs_error_packets = 0;  // frames this port sent that arrived corrupted
};

// `windows` is indexed by port id (one per topology port). Per port:
// utilization = tx_bytes x 8 / (line rate x seconds), peak_utilization =
// min(1, peak_bps / line rate); active_time is the longest span of any
// port. Pause causes are inferred (InferPauseCauses).
// REQUIRES: windows.size() == topology.ports().size().
FabricObservation ObservationFromWindows(const Topology& topology, const std::vector<PortWindow>& windows);

// A port S->U whose node S sent PFC frames to U paused U's egress U->S
// (its reverse). Counters do not say which of S's egresses filled the
// buffer, so the cause is taken to be S's egress with the deepest queue
// peak in the window (ties, or no queue figures: the highest utilization,
// then the lowest port id), other than S->U itself, and only one with a
// queue peak or utilization above 0: one PauseCause per such port with
// frames = the frames sent. Sorted by paused port.
std::vector<PauseCause> InferPauseCauses(const Topology& topology, const FabricObservation& observation);

}  // namespace aifabric
