#include "sched/gpu_allocation.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

GpuAllocation::GpuAllocation(int servers, int gpus_per_server)
    : servers_(servers),
      gpus_per_server_(gpus_per_server),
      free_count_(servers * gpus_per_server),
      owner_slot_(static_cast<size_t>(servers * gpus_per_server), -1),
      free_per_server_(static_cast<size_t>(servers), gpus_per_server) {
  assert(servers >= 0 && gpus_per_server >= 1);
}

GpuAllocation::GpuAllocation(const ClusterLayout& layout)
    : GpuAllocation(layout.servers(), layout.gpus_per_server()) {}

Status GpuAllocation::Allocate(std::string_view job, std::span<const GpuId> gpus) {
  const std::string who = "allocate job '" + std::string(job) + "'";
  if (job.empty()) return Error{"allocate: the job id is empty"};
  if (gpus.empty()) return Error{who + ": no GPUs given (expected at least one)"};
  if (jobs_.count(std::string(job)) != 0) return Error{who + ": the job already holds GPUs"};
  // Validate everything before changing anything. A GPU listed twice is
  // caught by marking each as seen (-2) and undoing the marks afterwards.
  Status status;
  size_t marked = 0;
  for (; marked < gpus.size(); ++marked) {
    const GpuId g = gpus[marked];
    if (g < 0 || g >= this->gpus()) {
      status = Error{who + ": GPU " + std::to_string(g) + " is out of range (expected 0.." +
                     std::to_string(this->gpus() - 1) + ")"};
      break;
    }
    const int32_t slot = owner_slot_[Index(g)];
    if (slot == -2) {
      status = Error{who + ": GPU " + std::to_string(g) + " is listed twice"};
      break;
    }
    if (slot >= 0) {
      status = Error{who + ": GPU " + std::to_string(g) + " is already held by job '" +
                     slot_job_[static_cast<size_t>(slot)] + "'"};
      break;
    }
    owner_slot_[Index(g)] = -2;
  }
  for (size_t i = 0; i < marked; ++i) owner_slot_[Index(gpus[i])] = -1;
  if (!status.ok()) return status;

  int32_t slot;
  if (!unused_slots_.empty()) {
    slot = unused_slots_.back();
    unused_slots_.pop_back();
    slot_job_[static_cast<size_t>(slot)] = std::string(job);
  } else {
    slot = static_cast<int32_t>(slot_job_.size());
    slot_job_.emplace_back(job);
  }
  for (GpuId g : gpus) {
    owner_slot_[Index(g)] = slot;
    --free_per_server_[static_cast<size_t>(g / gpus_per_server_)];
  }
  free_count_ -= static_cast<int>(gpus.size());
  jobs_.emplace(std::string(job), Holding{slot, std::vector<GpuId>(gpus.begin(), gpus.end())});
  return Status::Ok();
}

Status GpuAllocation::Release(std::string_view job) {
  auto it = jobs_.find(std::string(job));
  if (it == jobs_.end()) return Error{"release job '" + std::string(job) + "': the job holds no GPUs"};
  for (GpuId g : it->second.gpus) {
    owner_slot_[Index(g)] = -1;
    ++free_per_server_[static_cast<size_t>(g / gpus_per_server_)];
  }
  free_count_ += static_cast<int>(it->second.gpus.size());
  slot_job_[static_cast<size_t>(it->second.slot)].clear();
  unused_slots_.push_back(it->second.slot);
  jobs_.erase(it);
  return Status::Ok();
}

std::string_view GpuAllocation::owner(GpuId gpu) const {
  const int32_t slot = owner_slot_[Index(gpu)];
  if (slot < 0) return {};
  return slot_job_[static_cast<size_t>(slot)];
}

std::vector<GpuId> GpuAllocation::FreeGpusOnServer(int server) const {
  std::vector<GpuId> out;
  const GpuId first = server * gpus_per_server_;
  for (GpuId g = first; g < first + gpus_per_server_; ++g) {
    if (is_free(g)) out.push_back(g);
  }
  return out;
}

std::vector<GpuId> GpuAllocation::FreeGpus() const {
  std::vector<GpuId> out;
  out.reserve(static_cast<size_t>(free_count_));
  for (GpuId g = 0; g < gpus(); ++g) {
    if (is_free(g)) out.push_back(g);
  }
  return out;
}

std::span<const GpuId> GpuAllocation::gpus_of(std::string_view job) const {
  auto it = jobs_.find(std::string(job));
  if (it == jobs_.end()) return {};
  return it->second.gpus;
}

std::vector<std::string> GpuAllocation::Jobs() const {
  std::vector<std::string> out;
  out.reserve(jobs_.size());
  for (const auto& [job, holding] : jobs_) out.push_back(job);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace aifabric
