// CalibrationSpec holds the calibration constants the workload models use
// where the simulator does not model the mechanism itself: achieved compute
// efficiency, the optimizer step's memory traffic, achievable NIC bandwidth,
// and NCCL's latency tables. The figures live in data/calibration.yaml
// (compiled into the binary), each group with its source. Plain values; the
// built-in instance is immutable and safe to share between threads.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/result.h"

namespace aifabric {

// NCCL's protocols, in the order of its tables.
enum class NcclProtocolIndex : int { kLl = 0, kLl128 = 1, kSimple = 2 };

// One NCCL latency table (microseconds) per algorithm, each [LL, LL128, Simple];
// 0 where NCCL has no figure.
struct NcclLatencyTable {
  std::array<double, 3> tree{};
  std::array<double, 3> ring{};
  std::array<double, 3> collnet_direct{};
  std::array<double, 3> collnet_chain{};
  std::array<double, 3> nvls{};
  std::array<double, 3> nvls_tree{};
  std::array<double, 3> pat{};
};

struct NicBandwidthSpec {
  std::string name;                 // e.g. "CX7-400G"
  double line_bytes_per_s = 0;      // per direction
  double achievable_bytes_per_s = 0;
  std::string source;
  double achievable_fraction() const { return achievable_bytes_per_s / line_bytes_per_s; }
};

struct CalibrationSpec {
  double compute_efficiency = 0;  // achieved fraction of dense BF16 peak over a layer's model FLOPs
  std::string compute_source;
  double optimizer_bytes_per_param = 0;  // HBM bytes per parameter of an Adam step
  std::string optimizer_source;
  std::vector<NicBandwidthSpec> nics;
  double nccl_net_overhead_us = 0;
  NcclLatencyTable nccl_base_us;
  NcclLatencyTable nccl_nvlink_us;
  NcclLatencyTable nccl_pci_us;
  NcclLatencyTable nccl_net_us;
  std::string nccl_source;
  // The fraction of the rates a scenario gives (the catalog's achievable
  // NVLink rate, the NIC's line rate) that collectives get; 1 = as given.
  // `aifabric calibrate` fits them to a system's nccl-tests logs.
  double nvlink_bus_efficiency = 1.0;
  double nic_bus_efficiency = 1.0;
  // Per protocol [LL, LL128, Simple]: the fraction of the link rate its
  // payload gets beyond its line format (NCCL caps LL and LL128 below it).
  std::array<double, 3> protocol_bus_efficiency{1.0, 1.0, 1.0};
  // NVLS across servers (NCCL's NVLSTree): the fraction of NVLS's one-server
  // bandwidth it gets, as NCCL's tuner has it; on every transfer of the
  // NVLS DAG when it spans servers.
  double nvls_tree_bus_efficiency = 1.0;
  std::string bus_efficiency_source;

  const NicBandwidthSpec* FindNic(const std::string& name) const;
};

// Parses a file in the data/calibration.yaml format; errors name the line and field.
Result<CalibrationSpec> ParseCalibration(const std::string& yaml_text, const std::string& origin);

// A user's calibration file merged over the built-in data/calibration.yaml:
// every key the file gives replaces the built-in one (maps merge key by key,
// lists and [LL, LL128, Simple] triples are replaced whole), so the file may
// hold only the figures it changes. Errors name origin:line and the field.
Result<CalibrationSpec> ParseCalibrationOverBuiltIn(const std::string& yaml_text, const std::string& origin);

// The constants compiled in from data/calibration.yaml.
const CalibrationSpec& BuiltInCalibration();

}  // namespace aifabric
