// PauseForest is the PFC pause graph of a run, resolved: each paused port's
// dominant cause (the egress whose queue made most of its pause frames),
// the root its chain of dominant causes ends at, and the cycles such chains
// fall into (cyclic buffer dependencies). Built once in time linear in
// ports + causes; a plain value, not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "fabric/fabric_observation.h"

namespace aifabric {

struct PauseForest {
  // By port id. cause: the dominant cause (most frames; ties: lowest id),
  // kNoPort when the port has no cause edge (it was not paused by a
  // recorded cause).
  std::vector<PortId> cause;
  std::vector<uint64_t> frames_paused;  // frames summed over its cause edges
  std::vector<uint64_t> frames_caused;  // frames of the edges naming it as the cause
  // The end of the port's chain of dominant causes: a port with no cause
  // edge, or for chains that reach a cycle the cycle's lowest port id.
  // kNoPort for ports that have no cause edge and are nobody's cause.
  std::vector<PortId> root;
  std::vector<int> depth;        // hops from the port to its root (0: the root or on the cycle)
  std::vector<int> cycle;        // index into cycles of the cycle the chain ends in, -1 if none
  std::vector<PortId> roots;     // distinct non-cycle roots reached from another port, ascending
  // Each cycle in chain order, starting from its lowest port id.
  std::vector<std::vector<PortId>> cycles;

  bool HasCause(PortId p) const { return cause[p] != kNoPort; }
};

// Resolves `causes` over ports [0, num_ports). Edges naming a port out of
// range, with zero frames, or pausing a port for itself are ignored.
PauseForest BuildPauseForest(size_t num_ports, const std::vector<PauseCause>& causes);

}  // namespace aifabric
