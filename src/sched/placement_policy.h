// PlacementPolicy is the plugin interface for choosing a job's GPUs: given
// a request and the current GpuAllocation, it proposes GPUs (the caller
// allocates them) or declines for now. Policies: "first_fit", "random",
// "topology", "network_aware" (see their headers); MakePlacementPolicy
// builds one by name.
//
// The rule all policies share: a job of at least gpus_per_server GPUs takes
// ceil(gpus / gpus_per_server) whole free servers (as schedulers place
// multi-node training) and is given the first `gpus` GPUs of them in server
// order, so a job that is not a multiple of a server leaves the rest of its
// last server free; a smaller job packs inside one server.
//
// A policy is owned by its scheduler and holds state (the random policy's
// generator), so it is not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/fabric_load.h"
#include "sched/gpu_allocation.h"

namespace aifabric {

struct PlacementRequest {
  std::string job_id;
  int32_t gpus = 0;  // GPUs the job needs; must be >= 1 to be placed
  // What the job will ask of the network, for policies that weigh it
  // (0 = none or unknown): the average bytes per second each of its GPUs
  // sends to other servers when the job spans servers, and to storage.
  double fabric_bytes_per_s_per_gpu = 0;
  double storage_bytes_per_s_per_gpu = 0;
};

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual std::string_view name() const = 0;
  // GPUs for the job (exactly request.gpus, all free, ascending), or
  // nullopt if it cannot be placed now (including gpus < 1). Must not
  // modify `allocation`.
  virtual std::optional<std::vector<GpuId>> Place(const PlacementRequest& request,
                                                  const GpuAllocation& allocation) = 0;
};

// Builds the policy called `name` ("first_fit", "random", "topology",
// "network_aware") for this cluster; `seed` feeds the policies that draw at
// random; `load` is the live fabric state the network-aware policy reads
// (it must outlive the policy; that policy errors without it). The error
// names the unknown policy and lists the accepted names.
Result<std::unique_ptr<PlacementPolicy>> MakePlacementPolicy(std::string_view name, const Topology& topology,
                                                             const ClusterLayout& layout, uint64_t seed,
                                                             const FabricLoad* load = nullptr);

// The names MakePlacementPolicy accepts, in documentation order.
std::span<const std::string_view> PlacementPolicyNames();

// Whole servers a job of `gpus` needs under the shared rule: 0 when it
// packs inside one server (gpus < gpus_per_server), else
// ceil(gpus / gpus_per_server).
int WholeServersNeeded(int gpus, int gpus_per_server);

// The first `gpus` GPUs of `servers` (taken in the given order), sorted
// ascending. REQUIRES: servers hold at least `gpus` GPUs.
std::vector<GpuId> GpusOfServers(std::span<const int> servers, int gpus, int gpus_per_server);

}  // namespace aifabric
