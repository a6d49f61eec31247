#include "plan/plan_processes.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace aifabric {

namespace {

// Whether mpirun started this process (OpenMPI's or any PMIx launcher's
// environment).
bool StartedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

}  // namespace

Result<std::unique_ptr<PlanProcesses>> PlanProcesses::Start() {
  if (!StartedByMpirun()) return std::unique_ptr<PlanProcesses>(new PlanProcesses(0, 1, false));
  // The designs' threads never call MPI: only this one does.
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    return Error{"mpirun started this process, but it could not join MPI's world (MPI_Init_thread failed)"};
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<PlanProcesses>(new PlanProcesses(rank, size, true));
}

void PlanProcesses::AbortOnInternalError(std::exception_ptr error) const {
  std::string what = "unknown exception";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr, "aifabric: internal error (process %d of mpirun): %s\n", rank_, what.c_str());
  std::fflush(stderr);
  if (joined_) MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

PlanProcesses::~PlanProcesses() {
  if (joined_) MPI_Finalize();
}

Result<std::vector<std::string>> PlanProcesses::AllGather(const std::string& mine) const {
  if (!joined_) return std::vector<std::string>{mine};
  // Sizes first, as 64-bit counts, so every process sees the same total
  // and refuses alike when it is beyond what MPI's int counts can carry.
  const long long my_size = static_cast<long long>(mine.size());
  std::vector<long long> sizes(static_cast<size_t>(size_));
  MPI_Allgather(&my_size, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  long long total = 0;
  for (long long n : sizes) total += n;
  if (total > std::numeric_limits<int>::max()) {
    return Error{"the plan's processes have " + std::to_string(total) +
                 " bytes of results to exchange, more than one MPI message carries (2 GiB)"};
  }
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  int offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    counts[i] = static_cast<int>(sizes[i]);
    offsets[i] = offset;
    offset += counts[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), static_cast<int>(my_size), MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (size_t i = 0; i < counts.size(); ++i) out.push_back(all.substr(static_cast<size_t>(offsets[i]), counts[i]));
  return out;
}

}  // namespace aifabric
