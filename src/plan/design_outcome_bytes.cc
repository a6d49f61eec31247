#include "plan/design_outcome_bytes.h"

#include "plan/exchange_bytes.h"

namespace aifabric {

namespace {

void PutWorkload(ByteWriter& w, const WorkloadOutcome& o) {
  w.Str(o.name);
  w.Str(o.kind);
  w.Bool(o.fits);
  w.U64(o.memory_per_gpu_bytes);
  w.Str(o.parallelism);
  for (int v : {o.tp, o.pp, o.dp, o.ep}) w.I64(v);
  w.I64(o.gpus);
  w.F64(o.step_time_s);
  w.F64(o.mfu);
  w.F64(o.effective_gpu_utilization);
  w.F64(o.tokens_per_s);
  w.Str(o.bottleneck);
  w.I64(static_cast<int64_t>(o.bottleneck_dimension));
  w.F64(o.exposed_comm_s);
  w.Str(o.bottleneck_tier);
  w.Str(o.bottleneck_link);
  w.F64(o.bottleneck_link_busy);
  w.F64(o.goodput_per_s);
  w.F64(o.ttft_p50_s);
  w.F64(o.tpot_p50_s);
  w.F64(o.slo_attainment);
}

WorkloadOutcome GetWorkload(ByteReader& r) {
  WorkloadOutcome o;
  o.name = r.Str();
  o.kind = r.Str();
  o.fits = r.Bool();
  o.memory_per_gpu_bytes = r.U64();
  o.parallelism = r.Str();
  for (int* v : {&o.tp, &o.pp, &o.dp, &o.ep}) *v = static_cast<int>(r.I64());
  o.gpus = static_cast<int>(r.I64());
  o.step_time_s = r.F64();
  o.mfu = r.F64();
  o.effective_gpu_utilization = r.F64();
  o.tokens_per_s = r.F64();
  o.bottleneck = r.Str();
  o.bottleneck_dimension = static_cast<CommDimension>(r.I64());
  o.exposed_comm_s = r.F64();
  o.bottleneck_tier = r.Str();
  o.bottleneck_link = r.Str();
  o.bottleneck_link_busy = r.F64();
  o.goodput_per_s = r.F64();
  o.ttft_p50_s = r.F64();
  o.tpot_p50_s = r.F64();
  o.slo_attainment = r.F64();
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

std::string EncodePacketCheck(const PacketCheck& c) {
  ByteWriter w;
  w.Str(c.scenario_yaml);
  w.I64(c.servers);
  w.I64(c.gpus);
  w.U64(c.workloads.size());
  for (const PacketCheckWorkload& wl : c.workloads) {
    w.Str(wl.name);
    w.Str(wl.parallelism);
    w.F64(wl.flow_step_time_s);
    w.F64(wl.packet_step_time_s);
  }
  w.F64(c.error_bar);
  w.F64(c.wall_s);
  return w.Take();
}

Result<PacketCheck> DecodePacketCheck(std::string_view bytes) {
  ByteReader r(bytes);
  PacketCheck c;
  c.scenario_yaml = r.Str();
  c.servers = static_cast<int>(r.I64());
  c.gpus = static_cast<int>(r.I64());
  const uint64_t workloads = r.U64();
  for (uint64_t i = 0; i < workloads && !r.failed(); ++i) {
    PacketCheckWorkload wl;
    wl.name = r.Str();
    wl.parallelism = r.Str();
    wl.flow_step_time_s = r.F64();
    wl.packet_step_time_s = r.F64();
    c.workloads.push_back(std::move(wl));
  }
  c.error_bar = r.F64();
  c.wall_s = r.F64();
  if (r.failed()) return Error{"a packet check's bytes are cut short"};
  if (!r.at_end()) return Error{"bytes left over after a packet check"};
  return c;
}

}  // namespace aifabric
