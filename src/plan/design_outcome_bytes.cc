#include "plan/design_outcome_bytes.h"

#include <bit>
#include <cstdint>
#include <cstring>

namespace aifabric {

namespace {

class ByteWriter {
 public:
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v) { U64(std::bit_cast<uint64_t>(v)); }
  void Bool(bool v) { out_.push_back(v ? 1 : 0); }
  void Str(const std::string& s) {
    U64(s.size());
    out_ += s;
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ByteWriter wrote; a read past the end sets failed() and
// returns zeros, so a decoder reads on and checks once.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  uint64_t U64() {
    if (!Have(8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  double F64() { return std::bit_cast<double>(U64()); }
  bool Bool() {
    if (!Have(1)) return false;
    return in_[pos_++] != 0;
  }
  std::string Str() {
    const uint64_t n = U64();
    if (!Have(n)) return {};
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool Have(uint64_t n) {
    if (failed_ || n > in_.size() - pos_) failed_ = true;
    return !failed_;
  }
  std::string_view in_;
  size_t pos_ = 0;
  bool failed_ = false;
};

void PutWorkload(ByteWriter& w, const WorkloadOutcome& o) {
  w.Str(o.name);
  w.Str(o.kind);
  w.Bool(o.fits);
  w.U64(o.memory_per_gpu_bytes);
  w.Str(o.parallelism);
  w.I64(o.gpus);
  w.F64(o.step_time_s);
  w.F64(o.mfu);
  w.F64(o.effective_gpu_utilization);
  w.F64(o.tokens_per_s);
  w.Str(o.bottleneck);
  w.I64(static_cast<int64_t>(o.bottleneck_dimension));
  w.F64(o.exposed_comm_s);
  w.F64(o.goodput_per_s);
  w.F64(o.ttft_p50_s);
  w.F64(o.tpot_p50_s);
}

WorkloadOutcome GetWorkload(ByteReader& r) {
  WorkloadOutcome o;
  o.name = r.Str();
  o.kind = r.Str();
  o.fits = r.Bool();
  o.memory_per_gpu_bytes = r.U64();
  o.parallelism = r.Str();
  o.gpus = static_cast<int>(r.I64());
  o.step_time_s = r.F64();
  o.mfu = r.F64();
  o.effective_gpu_utilization = r.F64();
  o.tokens_per_s = r.F64();
  o.bottleneck = r.Str();
  o.bottleneck_dimension = static_cast<CommDimension>(r.I64());
  o.exposed_comm_s = r.F64();
  o.goodput_per_s = r.F64();
  o.ttft_p50_s = r.F64();
  o.tpot_p50_s = r.F64();
  return o;
}

}  // namespace

std::string EncodeDesignOutcome(const DesignOutcome& o) {
  ByteWriter w;
  w.Str(o.rejected);
  w.Str(o.scenario_yaml);
  w.U64(o.bill.lines.size());
  for (const BillLine& l : o.bill.lines) {
    w.Str(l.category);
    w.Str(l.part);
    w.Str(l.where);
    w.I64(l.count);
    w.F64(l.unit_price_usd);
    w.F64(l.unit_power_w);
    w.Bool(l.price_assumed);
  }
  w.I64(o.bill.switches);
  w.I64(o.bill.links);
  w.I64(o.bill.tiers);
  w.F64(o.cost.network_capex_usd);
  w.F64(o.cost.network_power_w);
  w.F64(o.cost.network_energy_usd);
  w.F64(o.cost.network_tco_usd);
  w.F64(o.cost.gpu_capex_usd);
  w.F64(o.cost.gpu_energy_usd);
  w.U64(o.workloads.size());
  for (const WorkloadOutcome& wo : o.workloads) PutWorkload(w, wo);
  w.F64(o.effective_gpu_utilization);
  w.F64(o.useful_gpu_hours);
  w.F64(o.useful_gpu_hours_per_usd);
  w.F64(o.wall_s);
  return w.Take();
}

Result<DesignOutcome> DecodeDesignOutcome(std::string_view bytes, const Design& design) {
  ByteReader r(bytes);
  DesignOutcome o;
  o.design = design;
  o.rejected = r.Str();
  o.scenario_yaml = r.Str();
  // A corrupt count stops at the first read past the end.
  const uint64_t lines = r.U64();
  for (uint64_t i = 0; i < lines && !r.failed(); ++i) {
    BillLine l;
    l.category = r.Str();
    l.part = r.Str();
    l.where = r.Str();
    l.count = r.I64();
    l.unit_price_usd = r.F64();
    l.unit_power_w = r.F64();
    l.price_assumed = r.Bool();
    o.bill.lines.push_back(std::move(l));
  }
  o.bill.switches = r.I64();
  o.bill.links = r.I64();
  o.bill.tiers = static_cast<int>(r.I64());
  o.cost.network_capex_usd = r.F64();
  o.cost.network_power_w = r.F64();
  o.cost.network_energy_usd = r.F64();
  o.cost.network_tco_usd = r.F64();
  o.cost.gpu_capex_usd = r.F64();
  o.cost.gpu_energy_usd = r.F64();
  const uint64_t workloads = r.U64();
  for (uint64_t i = 0; i < workloads && !r.failed(); ++i) o.workloads.push_back(GetWorkload(r));
  o.effective_gpu_utilization = r.F64();
  o.useful_gpu_hours = r.F64();
  o.useful_gpu_hours_per_usd = r.F64();
  o.wall_s = r.F64();
  if (r.failed()) return Error{"design " + design.name + ": its outcome's bytes are cut short"};
  if (!r.at_end()) return Error{"design " + design.name + ": bytes left over after its outcome"};
  return o;
}

std::string EncodeDesignResults(const DesignResults& results) {
  ByteWriter w;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i]) continue;
    w.U64(i);
    w.Bool(results[i]->ok());
    w.Str(results[i]->ok() ? EncodeDesignOutcome(**results[i]) : results[i]->error().message);
  }
  return w.Take();
}

Status DecodeDesignResults(std::string_view bytes, const std::vector<Design>& designs, DesignResults& into) {
  ByteReader r(bytes);
  while (!r.at_end()) {
    const uint64_t index = r.U64();
    const bool ok = r.Bool();
    const std::string body = r.Str();
    if (r.failed()) return Error{"a process's design results are cut short"};
    if (index >= designs.size() || index >= into.size()) {
      return Error{"a process sent the result of design " + std::to_string(index) + " of " +
                   std::to_string(designs.size())};
    }
    if (into[index]) return Error{"design " + designs[index].name + " came back from two processes"};
    if (!ok) {
      into[index] = Result<DesignOutcome>(Error{body});
      continue;
    }
    Result<DesignOutcome> outcome = DecodeDesignOutcome(body, designs[index]);
    if (!outcome) return outcome.error();
    into[index] = std::move(outcome);
  }
  return Status{};
}

}  // namespace aifabric
