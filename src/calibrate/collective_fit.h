// FitCollectiveCalibration fits the figures of data/calibration.yaml that
// govern a system's collectives to its nccl-tests logs, through the
// simulator itself: each candidate set of figures is put into a copy of the
// cluster's scenario and every logged size is run with RunCollectiveSweep
// (run/collective_run.h), so "fitted" means `aifabric collective` on that
// scenario with the fitted file reproduces the logs as closely as the
// model can. Pure function of its inputs; not thread-safe on one Scenario.
//
// What is fitted (what the model uses; docs/validation.md):
//   nccl.base_latency_us.ring[p]        once per collective, protocol p
//   nccl.hw_latency_us.nvlink.ring[p]   per step between GPUs of a server
//   nccl.hw_latency_us.net.ring[p]      per step between servers
//   bus_efficiency.protocol[p]          LL's and LL128's fraction of the rate
//                                       (Simple's is the NVLink/NIC one)
//   bus_efficiency.nvlink, .nic         fraction of the NVLink / NIC rate
// for the protocols the logs' sizes run (NCCL_DEBUG=INFO's choice where
// the log has it, else the model's own choice, as `aifabric collective`
// makes it); the per-step NVLink figures only with several GPUs to a
// server, the network ones only across servers. The model uses the Ring
// row of NCCL's tables for every algorithm, so the Ring row is what it
// fits.
//
// Least squares on the relative error of the out-of-place time, by
// Levenberg's damped Gauss-Newton over the logarithms of the figures (they
// stay positive; the damping is the same for each, so a step is a
// multiple of each figure and a gap the logs leave undivided goes to the
// figures the times answer most to), with slopes by 2% secants (a step
// DAG's time is not smooth at finer scale) and a weak pull (weight 1e-2 per
// unit of log) toward the starting figures.
// An efficiency stays physical: a protocol's and the NIC's at most 1 (a
// fraction of the rate), NVLink's at most the GPU's raw NVLink rate over
// the achievable one the scenario starts from (the catalog's
// nvlink_per_dir / nvlink_achievable_per_dir).
//
// Cross-validation: each size left out in turn (the fit from the start
// without it predicts it), and, with several logs, each log left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/nccl_tests_log.h"
#include "core/result.h"
#include "scenario/scenario.h"
#include "workload/collective_algorithms.h"

namespace aifabric {

enum class CalibrationFigure : uint8_t {
  kBaseLatency,
  kNvlinkStepLatency,
  kNetStepLatency,
  kProtocolEfficiency,
  kNvlinkEfficiency,
  kNicEfficiency,
};

struct FittedFigure {
  CalibrationFigure figure = CalibrationFigure::kBaseLatency;
  CollectiveProtocol protocol = CollectiveProtocol::kSimple;  // latencies only
  double start = 0;  // us, or a fraction
  double value = 0;
  std::string Name() const;  // "nccl.base_latency_us.ring[simple]", "bus_efficiency.nic"
};

// One logged size.
struct CalibrationPoint {
  size_t log = 0;  // index into the logs
  uint64_t bytes = 0;
  double measured_us = 0;
  double start_us = 0;   // the model with the starting figures
  double fitted_us = 0;  // with the fitted figures
  double held_out_size_us = 0;  // fitted without this size; 0 if not cross-validated
  double held_out_log_us = 0;   // fitted without this log; 0 if one log or not cross-validated
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;  // what the fitted model ran
  CollectiveProtocol protocol = CollectiveProtocol::kSimple;
};

struct CalibrationFit {
  std::vector<FittedFigure> figures;
  CalibrationSpec calibration;  // the scenario's calibration with the fitted figures in
  std::vector<CalibrationPoint> points;
  int iterations = 0;
};

struct CalibrationFitOptions {
  bool cross_validate = true;
  int max_iterations = 40;
  // Nonzero: the step DAGs the fit runs (NVLS, and every algorithm on the
  // packet level) move k of NCCL's chunks as one past this many nodes
  // (docs/collectives.md, "Chunks"): the same bytes over the same links in
  // fewer steps, each paying one step latency, so a fit that runs every
  // size hundreds of times costs minutes, not hours (NVLS at 16 GiB on 2 x
  // 8 GPUs is 7.3M nodes), at a cost in fidelity the caller states. 0:
  // the DAGs `aifabric collective` runs. Coflows have no nodes.
  uint64_t max_dag_nodes = 0;
};

// `cluster` is the scenario the logs ran on (servers, GPUs, NICs, fabric).
// Errors: a log without its rank count, with more ranks than the cluster,
// with ranks spread over more or fewer hosts than the cluster's servers
// would hold them, or without a size > 0.
Result<CalibrationFit> FitCollectiveCalibration(const Scenario& cluster, const std::vector<NcclTestsLog>& logs,
                                                const CalibrationFitOptions& options = {});

// The relative error (predicted - measured) / measured.
inline double RelativeError(double predicted, double measured) { return (predicted - measured) / measured; }

}  // namespace aifabric
