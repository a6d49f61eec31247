// ShareWork runs a plan's independent work items (designs to evaluate, the
// best designs' packet checks) on this process's threads and, under
// mpirun, across its processes: item i is process (i mod N)'s, taken by
// its threads in turn. Each item's answer is bytes or an error; every
// process gets every item's answer, so each goes on alike. Call from the
// thread that started the processes; `work` runs on several threads at
// once and must be thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "plan/plan_processes.h"

namespace aifabric {

// The answers by item; the error of the first item (in item order) that
// failed. `processes` null: this process alone.
Result<std::vector<std::string>> ShareWork(size_t items, int threads, const PlanProcesses* processes,
                                           const std::function<Result<std::string>(size_t)>& work);

}  // namespace aifabric
