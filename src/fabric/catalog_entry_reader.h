// Readers of one entry of the hardware catalog's YAML (data/catalog.yaml or a
// user's price file), one per section, shared by Catalog::Parse and
// Catalog::WithOverrides. Each reads the fields of one map into a spec
// through DataFields and returns the first error, which reads
// "<origin>:<line>: <path>.<field>: <what>". Stateless.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "core/result.h"
#include "fabric/catalog.h"

namespace aifabric {

// How much of an entry must be there.
enum class EntryMode {
  // An entry of a catalog file: its figures are required; a switch's, NIC's
  // or GPU's cost is optional but whole (all of price_usd, power_w,
  // price_source, price_date, or none); a medium's cost is required.
  kCatalog,
  // A price file's entry with a new name: every field is required, the cost
  // included.
  kNew,
  // A price file's entry for a name that exists: only the fields it gives
  // are read, over the entry in `out`. A new price (price_usd,
  // transceiver_usd or fiber_usd) needs its price_date; a new price or power
  // clears its "assumed" flag unless the file sets it, and names the price
  // file as the source unless price_source is given.
  kPatch,
};

// Where an entry sits, for messages: "switches[2]" in "prices.yaml".
struct EntryPlace {
  std::string origin;
  std::string path;
};

// Each reads the map `entry` into `out`. REQUIRES: for kPatch, `out` holds
// the entry being patched.
std::optional<Error> ReadSwitchEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode, SwitchSpec& out);
std::optional<Error> ReadNicEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode, NicSpec& out);
std::optional<Error> ReadGpuEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode, GpuSpec& out);
std::optional<Error> ReadMediaEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode,
                                    LinkMediaSpec& out);

}  // namespace aifabric
