// What a finished simulation saw of its fabric, as a FabricObservation
// (fabric/fabric_observation.h), whichever the model: per-port totals and
// utilization (with the peak over one sampling interval when the run was
// sampled), and what the model tracked (FabricNetwork::Observe: every
// queue pair with its path, the PFC pause causes). ObserveSimulation does
// it for any simulation (job runs, services); ObserveRun for a flows run,
// which also knows each flow's workload entry and its ideal FCT as a whole
// transfer.
#pragma once

#include <vector>

#include "core/data_rate.h"
#include "fabric/fabric_observation.h"
#include "run/fabric_simulation.h"
#include "run/finished_simulation.h"
#include "run/scenario_run.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// The utilization of a kTxBytes series per kept interval, at most 1: the
// packet level counts a packet's bytes when it starts on the wire, so one
// interval can show up to a packet more than its line rate carries.
std::vector<double> SampledUtilization(const TimeSeriesStore& store, int id, DataRate line_rate);

// Ports and the transfers the model tracked, up to `end` (where an
// unfinished transfer stops counting).
FabricObservation ObserveSimulation(const FabricSimulation& simulation, Time end);

// A finished job's simulation, with the job's ranks (JobRunResult::ranks).
FabricObservation ObserveJob(const FinishedJob& job);

// REQUIRES: run.Execute() has returned.
FabricObservation ObserveRun(const ScenarioRun& run);

}  // namespace aifabric
