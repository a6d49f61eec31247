// The hardware catalog: switches, NICs, GPUs and link media (cables and
// optics) with the figures the models use and what each part costs to buy
// and run, each with its source. The figures live in data/catalog.yaml
// (compiled into the binary at build time), not in code; a user's price file
// overrides them (WithOverrides). A Catalog is a value: read-only after it is
// built, safe to share between threads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

// What one unit of a part costs to buy and to run. A part without a price in
// its catalog has price_usd == 0 and an empty date.
struct PartCost {
  double price_usd = 0;        // purchase price of one unit, US dollars
  double power_w = 0;          // typical power draw of one unit, watts
  std::string source;          // where the price and power come from
  std::string date;            // when the price was seen, "YYYY-MM"
  bool price_assumed = false;  // no public price: an estimate; `source` says its basis
  bool power_assumed = false;  // no datasheet power: an estimate; `source` says its basis
};

// Which protocol a switch forwards. An InfiniBand switch cannot run RoCEv2;
// an Ethernet switch under fabric.kind ib runs on Ethernet figures.
enum class SwitchFamily { kEthernet, kInfiniband };
const char* SwitchFamilyName(SwitchFamily f);  // "ethernet" | "infiniband"

struct SwitchSpec {
  std::string name;            // e.g. "128x400G"
  int radix = 0;               // number of ports
  DataRate port_rate;          // per port
  Time latency;                // port-to-port forwarding latency
  uint64_t buffer_bytes = 0;   // shared packet buffer
  double capacity_tbps = 0;    // vendor "switching capacity" (both directions)
  std::string source;          // where the figures come from
  SwitchFamily family = SwitchFamily::kEthernet;
  PartCost cost;               // the switch without optics (media count those)
};

struct NicSpec {
  std::string name;            // e.g. "CX7-400G"
  DataRate rate;               // per port
  std::string source;
  int ports = 1;               // network ports, each at `rate`
  PartCost cost;               // the card without optics
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
  PartCost cost;                   // one GPU (module price and TDP)
};

// The physical medium of one link.
enum class MediaKind {
  kDac,     // passive direct-attach copper cable
  kAcc,     // active (or linear active) copper cable
  kAoc,     // active optical cable: fibre with transceivers built in
  kOptics,  // two pluggable transceivers and a separate fibre
};
const char* MediaKindName(MediaKind k);  // "dac" | "acc" | "aoc" | "optics"

// One way to build a link of `rate`: a cable, or a transceiver at each end
// and the fibre between. `cost` is of one complete link: price_usd is the
// cable, or 2 x transceiver_usd + fiber_usd; power_w counts both ends.
struct LinkMediaSpec {
  std::string name;            // e.g. "800G-2xDR4"
  MediaKind kind = MediaKind::kDac;
  DataRate rate;               // the link's rate
  double max_reach_m = 0;      // longest link it supports, metres
  double transceiver_usd = 0;  // optics: one transceiver (0 for a cable)
  double fiber_usd = 0;        // optics: the fibre of one link (0 for a cable)
  std::string source;          // where rate, reach and kind come from
  PartCost cost;
};

class Catalog {
 public:
  // The catalog compiled into the binary from data/catalog.yaml.
  static const Catalog& BuiltIn();
  // Parses a catalog in the data/catalog.yaml format; errors name the line.
  // Costs are optional for switches, NICs and GPUs (all or none of
  // price_usd, power_w, price_source, price_date); media need theirs.
  static Result<Catalog> Parse(const std::string& yaml_text, const std::string& origin);

  // This catalog with a user's price file applied (the same format): an
  // entry whose name exists replaces only the fields it gives; a new name
  // adds an entry, which must give every field a built-in entry has, its
  // cost included. Errors name "<origin>:<line>: <section>[i].<field>".
  Result<Catalog> WithOverrides(const std::string& yaml_text, const std::string& origin) const;

  const SwitchSpec* FindSwitch(const std::string& name) const;
  const NicSpec* FindNic(const std::string& name) const;
  const GpuSpec* FindGpu(const std::string& name) const;
  const LinkMediaSpec* FindMedia(const std::string& name) const;
  // The cheapest medium at exactly `rate` whose reach covers `length_m`
  // (ties: the one listed first); nullptr when none does.
  const LinkMediaSpec* CheapestMedia(DataRate rate, double length_m) const;

  const std::vector<SwitchSpec>& switches() const { return switches_; }
  const std::vector<NicSpec>& nics() const { return nics_; }
  const std::vector<GpuSpec>& gpus() const { return gpus_; }
  const std::vector<LinkMediaSpec>& media() const { return media_; }

 private:
  // Reads `yaml_text` into this catalog; `patch` = entries whose name exists
  // are patched and new ones must be complete (WithOverrides).
  std::optional<Error> Read(const std::string& yaml_text, const std::string& origin, bool patch);

  std::vector<SwitchSpec> switches_;
  std::vector<NicSpec> nics_;
  std::vector<GpuSpec> gpus_;
  std::vector<LinkMediaSpec> media_;
};

}  // namespace aifabric
