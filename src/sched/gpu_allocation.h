// GpuAllocation is the cluster's GPU bookkeeping: which GPUs are free and
// which job holds each used one. It never over-allocates: Allocate refuses a
// GPU that is taken, out of range or listed twice, and changes nothing then.
// Memory is O(GPUs + jobs); Allocate and Release cost O(k) for a job of k
// GPUs (plus one hash lookup of the job id). Owned by the scheduler; a plain
// value type, not thread-safe (read concurrently only while nobody writes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "fabric/cluster_layout.h"

namespace aifabric {

class GpuAllocation {
 public:
  // All GPUs free. GPU g sits on server g / gpus_per_server, as in
  // ClusterLayout. REQUIRES: servers >= 0, gpus_per_server >= 1.
  GpuAllocation(int servers, int gpus_per_server);
  explicit GpuAllocation(const ClusterLayout& layout);

  // Gives `gpus` to `job`. Errors (and changes nothing) if the job id is
  // empty or already holds GPUs, the list is empty, or any GPU is out of
  // range, already taken, or listed twice.
  [[nodiscard]] Status Allocate(std::string_view job, std::span<const GpuId> gpus);
  // Frees every GPU of `job`; errors if it holds none.
  [[nodiscard]] Status Release(std::string_view job);

  int servers() const { return servers_; }
  int gpus_per_server() const { return gpus_per_server_; }
  int gpus() const { return servers_ * gpus_per_server_; }
  int free_count() const { return free_count_; }
  int used_count() const { return gpus() - free_count_; }
  // REQUIRES: 0 <= gpu < gpus().
  bool is_free(GpuId gpu) const { return owner_slot_[Index(gpu)] < 0; }
  // The job holding `gpu`; empty when it is free. REQUIRES: 0 <= gpu < gpus().
  std::string_view owner(GpuId gpu) const;
  // Free GPUs on `server`. REQUIRES: 0 <= server < servers().
  int free_on_server(int server) const { return free_per_server_[static_cast<size_t>(server)]; }
  bool server_fully_free(int server) const { return free_on_server(server) == gpus_per_server_; }
  // The free GPUs of `server`, ascending. O(gpus_per_server).
  std::vector<GpuId> FreeGpusOnServer(int server) const;
  // Every free GPU, ascending. O(GPUs).
  std::vector<GpuId> FreeGpus() const;
  // The GPUs of `job` in the order it was given them; empty if unknown.
  std::span<const GpuId> gpus_of(std::string_view job) const;
  // The jobs holding GPUs, sorted by id (deterministic). O(J log J).
  std::vector<std::string> Jobs() const;

 private:
  size_t Index(GpuId gpu) const { return static_cast<size_t>(gpu); }

  struct Holding {
    int32_t slot = -1;          // index into slot_job_
    std::vector<GpuId> gpus;
  };
  // Fixed at construction.
  int servers_;
  int gpus_per_server_;
  // State.
  int free_count_;
  std::vector<int32_t> owner_slot_;       // per GPU: -1 free, else a slot
  std::vector<int32_t> free_per_server_;  // per server
  std::vector<std::string> slot_job_;     // slot -> job id ("" when unused)
  std::vector<int32_t> unused_slots_;
  std::unordered_map<std::string, Holding> jobs_;
};

}  // namespace aifabric
