// ApplyPxn rewrites a collective DAG for NCCL's PXN (PCI x NVLink): a
// transfer between GPUs of different servers whose local ranks differ (so
// different rails of a rail-optimized fabric) is relayed through the GPU on
// the sender's server with the receiver's local rank: an intra-server hop
// (NVLink) to the relay, then the inter-server hop on the receiver's rail.
// Pure function; thread-safe.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "workload/collective_dag.h"

namespace aifabric {

// Ranks are server-major (rank = server * ranks_per_server + local rank).
// Both hops keep the original's phase, step, chunk, channel, bytes, wire
// bytes and latency (each is a protocol step); the first hop takes the
// original's dependencies, the second its dependents. Switch ranks are left
// alone. REQUIRES: ranks_per_server divides dag.num_gpu_ranks().
// `connection_window` as in CollectiveDagBuilder, for the new connections.
Result<CollectiveDag> ApplyPxn(const CollectiveDag& dag, int32_t ranks_per_server, uint32_t connection_window = 1);

}  // namespace aifabric
