// The processes that share one plan's designs: one when aifabric runs on
// its own, N when it is started by OpenMPI's `mpirun -np N` (on one machine
// or many). Launched by mpirun (its environment names the rank), Start
// joins MPI's world; otherwise it is a world of one and MPI is never
// initialised, so a plain run pays nothing for it. AllGather is what the
// plan's processes exchange: every process calls it in the same order, and
// each gets every process's bytes in rank order. Call from one thread (the
// one that started it); one PlanProcesses per process.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace aifabric {

class PlanProcesses {
 public:
  static Result<std::unique_ptr<PlanProcesses>> Start();
  ~PlanProcesses();  // leaves MPI's world, if it joined it
  PlanProcesses(const PlanProcesses&) = delete;
  PlanProcesses& operator=(const PlanProcesses&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  // An error (the same on every process) only when the bytes together
  // exceed what one MPI message carries.
  Result<std::vector<std::string>> AllGather(const std::string& mine) const;

  // An internal error in this process while others may wait for it:
  // prints it as the CLI does ("aifabric: internal error: ...") and ends
  // every process of the world with exit code 1 (MPI_Abort).
  [[noreturn]] void AbortOnInternalError(std::exception_ptr error) const;

 private:
  PlanProcesses(int rank, int size, bool joined) : rank_(rank), size_(size), joined_(joined) {}
  int rank_ = 0;
  int size_ = 1;
  bool joined_ = false;
};

}  // namespace aifabric
