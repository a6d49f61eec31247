#include "fabric/catalog_entry_reader.h"

#include <cctype>

#include "fabric/data_fields.h"

namespace aifabric {
namespace {

constexpr double kMaxPriceUsd = 1e12;
constexpr double kMaxPowerW = 1e7;

bool IsDate(const std::string& s) {
  if (s.size() != 7 || s[4] != '-') return false;
  for (size_t i : {0u, 1u, 2u, 3u, 5u, 6u}) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  return month >= 1 && month <= 12;
}

// The fields of one entry in one EntryMode: DataFields plus "is this field
// read?" and errors placed at a field (or at the entry when it is absent).
class Entry {
 public:
  Entry(const YAML::Node& node, const EntryPlace& at, EntryMode mode)
      : node_(node), fields_(node, at.origin, at.path), mode_(mode) {}

  DataFields& r() { return fields_; }
  EntryMode mode() const { return mode_; }
  bool Has(const char* key) const { return fields_.Has(key); }
  // A required field is always read (its getter reports it missing), except
  // when patching, where only the fields given are.
  bool Want(const char* key) const { return mode_ != EntryMode::kPatch || Has(key); }
  void Fail(const char* key, const std::string& what) {
    const YAML::Node v = node_[key];
    fields_.Fail(v.IsDefined() ? v : node_, fields_.Field(key) + ": " + what);
  }
  std::string Date(const char* key) {
    const std::string text = fields_.String(key);
    if (fields_.ok() && !IsDate(text)) Fail(key, "expected a month written YYYY-MM, got '" + text + "'");
    return text;
  }
  std::optional<Error> Done() const {
    if (fields_.ok()) return std::nullopt;
    return fields_.error();
  }

 private:
  const YAML::Node node_;
  DataFields fields_;
  const EntryMode mode_;
};

// price_source, price_date and the "assumed" flags; `read_notes`: whether
// this entry's mode wants its cost at all. `price_changed` / `power_changed`:
// the entry gave a new price / power (what kPatch needs to know).
void ReadCostNotes(Entry& e, bool read_notes, bool price_changed, bool power_changed, PartCost& c) {
  DataFields& r = e.r();
  const bool patch = e.mode() == EntryMode::kPatch;
  if (patch && price_changed && !e.Has("price_date")) {
    e.Fail("price_date", "required with a new price (when was it seen? YYYY-MM)");
  }
  if (read_notes && e.Want("price_source")) c.source = r.String("price_source");
  if (read_notes && e.Want("price_date")) c.date = e.Date("price_date");
  if (patch && (price_changed || power_changed) && !e.Has("price_source")) c.source = "the user's price file";
  if (patch && price_changed) c.price_assumed = false;
  if (patch && power_changed) c.power_assumed = false;
  c.price_assumed = r.OptionalBool("price_assumed", c.price_assumed);
  c.power_assumed = r.OptionalBool("power_assumed", c.power_assumed);
}

// A switch's, NIC's or GPU's cost: optional in a catalog file, but whole.
void ReadPartCost(Entry& e, PartCost& c) {
  DataFields& r = e.r();
  bool read = true;
  if (e.mode() == EntryMode::kCatalog) {
    read = false;
    for (const char* key : {"price_usd", "power_w", "price_source", "price_date", "price_assumed", "power_assumed"}) {
      read = read || e.Has(key);
    }
  }
  const bool price = read && e.Want("price_usd");
  const bool power = read && e.Want("power_w");
  if (price) c.price_usd = r.Number("price_usd", 0, kMaxPriceUsd);
  if (power) c.power_w = r.Number("power_w", 0, kMaxPowerW);
  ReadCostNotes(e, read, price, power, c);
}

}  // namespace

const char* SwitchFamilyName(SwitchFamily f) { return f == SwitchFamily::kInfiniband ? "infiniband" : "ethernet"; }

const char* MediaKindName(MediaKind k) {
  switch (k) {
    case MediaKind::kDac: return "dac";
    case MediaKind::kAcc: return "acc";
    case MediaKind::kAoc: return "aoc";
    case MediaKind::kOptics: return "optics";
  }
  return "dac";
}

std::optional<Error> ReadSwitchEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode,
                                     SwitchSpec& s) {
  Entry e(entry, at, mode);
  DataFields& r = e.r();
  r.CheckKeys({"name", "family", "radix", "port_rate", "latency", "buffer", "capacity", "source", "price_usd",
               "power_w", "price_source", "price_date", "price_assumed", "power_assumed"});
  if (e.Want("name")) s.name = r.String("name");
  if (e.Has("family")) {
    s.family = r.OptionalChoice("family", {"ethernet", "infiniband"}, "ethernet") == "infiniband"
                   ? SwitchFamily::kInfiniband
                   : SwitchFamily::kEthernet;
  }
  if (e.Want("radix")) s.radix = r.PositiveInt("radix");
  if (e.Want("port_rate")) s.port_rate = r.Rate("port_rate");
  if (e.Want("latency")) s.latency = r.Duration("latency");
  if (e.Want("buffer")) s.buffer_bytes = r.Bytes("buffer");
  if (e.Want("capacity")) s.capacity_tbps = r.Rate("capacity").gbps() / 1000.0;
  if (e.Want("source")) s.source = r.String("source");
  ReadPartCost(e, s.cost);
  return e.Done();
}

std::optional<Error> ReadNicEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode, NicSpec& n) {
  Entry e(entry, at, mode);
  DataFields& r = e.r();
  r.CheckKeys({"name", "rate", "ports", "source", "price_usd", "power_w", "price_source", "price_date",
               "price_assumed", "power_assumed"});
  if (e.Want("name")) n.name = r.String("name");
  if (e.Want("rate")) n.rate = r.Rate("rate");
  n.ports = static_cast<int>(r.OptionalInt("ports", 1, 16, n.ports));
  if (e.Want("source")) n.source = r.String("source");
  ReadPartCost(e, n.cost);
  return e.Done();
}

std::optional<Error> ReadGpuEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode, GpuSpec& g) {
  Entry e(entry, at, mode);
  DataFields& r = e.r();
  r.CheckKeys({"name", "bf16_dense_tflops", "hbm", "hbm_bandwidth", "nvlink_per_dir", "nvlink_achievable_per_dir",
               "nvls", "source", "price_usd", "power_w", "price_source", "price_date", "price_assumed",
               "power_assumed"});
  if (e.Want("name")) g.name = r.String("name");
  if (e.Want("bf16_dense_tflops")) g.bf16_dense_tflops = r.PositiveNumber("bf16_dense_tflops");
  if (e.Want("hbm")) g.hbm_bytes = r.Bytes("hbm");
  if (e.Want("hbm_bandwidth")) g.hbm_tbps = r.ByteRate("hbm_bandwidth", 1e12);
  if (e.Want("nvlink_per_dir")) g.nvlink_gbps_per_dir = r.ByteRate("nvlink_per_dir", 1e9);
  if (e.Want("nvlink_achievable_per_dir")) {
    g.nvlink_achievable_gbps_per_dir = r.ByteRate("nvlink_achievable_per_dir", 1e9);
  }
  if (e.Want("nvls")) g.nvls = r.Bool("nvls");
  if (e.Want("source")) g.source = r.String("source");
  ReadPartCost(e, g.cost);
  return e.Done();
}

std::optional<Error> ReadMediaEntry(const YAML::Node& entry, const EntryPlace& at, EntryMode mode,
                                    LinkMediaSpec& m) {
  Entry e(entry, at, mode);
  DataFields& r = e.r();
  r.CheckKeys({"name", "kind", "rate", "max_reach_m", "price_usd", "transceiver_usd", "fiber_usd",
               "power_per_end_w", "source", "price_source", "price_date", "price_assumed", "power_assumed"});
  if (e.Want("name")) m.name = r.String("name");
  if (e.Want("kind")) {
    const std::string kind = r.String("kind");
    if (kind == "dac") m.kind = MediaKind::kDac;
    else if (kind == "acc") m.kind = MediaKind::kAcc;
    else if (kind == "aoc") m.kind = MediaKind::kAoc;
    else if (kind == "optics") m.kind = MediaKind::kOptics;
    else if (r.ok()) e.Fail("kind", "expected one of dac, acc, aoc, optics, got '" + kind + "'");
  }
  if (e.Want("rate")) m.rate = r.Rate("rate");
  if (e.Want("max_reach_m")) m.max_reach_m = r.PositiveNumber("max_reach_m");
  if (e.Want("source")) m.source = r.String("source");
  // A cable is priced whole; optics per transceiver (one at each end) plus
  // the fibre between them.
  bool price_changed = false;
  if (m.kind == MediaKind::kOptics) {
    if (e.Has("price_usd")) e.Fail("price_usd", "optics are priced per part: give transceiver_usd and fiber_usd");
    if (e.Want("transceiver_usd")) m.transceiver_usd = r.Number("transceiver_usd", 0, kMaxPriceUsd);
    if (e.Want("fiber_usd")) m.fiber_usd = r.Number("fiber_usd", 0, kMaxPriceUsd);
    price_changed = e.Has("transceiver_usd") || e.Has("fiber_usd");
    m.cost.price_usd = 2 * m.transceiver_usd + m.fiber_usd;
  } else {
    for (const char* key : {"transceiver_usd", "fiber_usd"}) {
      if (e.Has(key)) e.Fail(key, "a cable is priced whole: give price_usd (or kind: optics)");
    }
    if (e.Want("price_usd")) m.cost.price_usd = r.Number("price_usd", 0, kMaxPriceUsd);
    price_changed = e.Has("price_usd");
    m.transceiver_usd = 0;
    m.fiber_usd = 0;
  }
  const bool power_changed = e.Has("power_per_end_w");
  if (e.Want("power_per_end_w")) m.cost.power_w = 2 * r.Number("power_per_end_w", 0, kMaxPowerW);
  ReadCostNotes(e, true, price_changed, power_changed, m.cost);
  return e.Done();
}

}  // namespace aifabric
