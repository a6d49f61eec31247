// The hardware catalog: switches, NICs and GPUs with the figures the models
// use, each with its source. The figures live in data/catalog.yaml (compiled
// into the binary at build time), not in code. Read-only after loading.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

struct SwitchSpec {
  std::string name;            // e.g. "128x400G"
  int radix = 0;               // number of ports
  DataRate port_rate;          // per port
  Time latency;                // port-to-port forwarding latency
  uint64_t buffer_bytes = 0;   // shared packet buffer
  double capacity_tbps = 0;    // vendor "switching capacity" (both directions)
  std::string source;          // where the figures come from
};

struct NicSpec {
  std::string name;            // e.g. "CX7-400G"
  DataRate rate;
  std::string source;
};

struct GpuSpec {
  std::string name;            // e.g. "H100"
  double bf16_dense_tflops = 0;
  uint64_t hbm_bytes = 0;
  double hbm_tbps = 0;         // HBM bandwidth, TB/s
  double nvlink_gbps_per_dir = 0;  // NVLink bandwidth per direction, GB/s (1e9 B/s)
  // What NCCL's tuning model expects a GPU to move over NVLink per direction
  // (per-link bandwidth x links); the rate the model gives each GPU's port.
  double nvlink_achievable_gbps_per_dir = 0;
  bool nvls = false;               // NVSwitch in-network reduction (NVLink SHARP)
  std::string source;
};

class Catalog {
 public:
  // The catalog compiled into the binary from data/catalog.yaml.
  static const Catalog& BuiltIn();
  // Parses a catalog in the data/catalog.yaml format; errors name the line.
  static Result<Catalog> Parse(const std::string& yaml_text, const std::string& origin);

  const SwitchSpec* FindSwitch(const std::string& name) const;
  const NicSpec* FindNic(const std::string& name) const;
  const GpuSpec* FindGpu(const std::string& name) const;
  const std::vector<SwitchSpec>& switches() const { return switches_; }
  const std::vector<NicSpec>& nics() const { return nics_; }
  const std::vector<GpuSpec>& gpus() const { return gpus_; }

 private:
  std::vector<SwitchSpec> switches_;
  std::vector<NicSpec> nics_;
  std::vector<GpuSpec> gpus_;
};

}  // namespace aifabric
