#include "sched/replay_fabric.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <unordered_map>

#include "fabric/ecmp_path.h"

namespace aifabric {
namespace {

constexpr int kPathCandidates = 16;  // ECMP hashes Crux's path selection tries
constexpr int kDetourCandidates = 32;  // hashes tried for a path around a down link
constexpr uint64_t kCandidateStride = 0x632BE59BD9B4E019ull;

}  // namespace

ReplayFabric::ReplayFabric(Simulator& sim, const Topology& topology, const RoutingTable& routes,
                           double payload_efficiency, uint64_t ecmp_seed, Time load_window,
                           std::vector<int> storage_servers, FluidNetwork::DoneCallback done)
    : sim_(sim),
      topology_(topology),
      routes_(routes),
      salts_(EcmpSalts(topology, ecmp_seed)),
      storage_servers_(std::move(storage_servers)),
      load_window_(load_window),
      network_(sim, std::move(done)) {
  assert(payload_efficiency > 0 && payload_efficiency <= 1 && load_window > Time::Zero());
  const size_t ports = topology.ports().size();
  capacity_bps_.resize(ports);
  for (const Port& p : topology.ports()) {
    capacity_bps_[static_cast<size_t>(p.id)] = static_cast<double>(p.rate.bps()) * payload_efficiency;
    const int resource = network_.AddResource(capacity_bps_[static_cast<size_t>(p.id)]);
    assert(resource == p.id);
    (void)resource;
  }
  link_down_.assign(topology.num_links(), false);
  expected_bps_.assign(ports, 0.0);
  measured_.assign(ports, 0.0);
  older_ = {Time::Zero(), std::vector<double>(ports, 0.0)};
  newer_ = older_;
}

void ReplayFabric::AppendPath(NodeId src, NodeId dst, uint32_t hash, std::vector<PortId>& out) const {
  AppendEcmpPath(topology_, routes_, salts_, src, dst, hash, out);
}

bool ReplayFabric::PathUp(std::span<const PortId> path) const {
  for (PortId p : path) {
    if (!PortUp(p)) return false;
  }
  return true;
}

void ReplayFabric::AvoidDownLinks(NodeId src, NodeId dst, uint64_t base, std::vector<PortId>& path) const {
  if (PathUp(path)) return;
  std::vector<PortId> detour;
  for (int c = 1; c < kDetourCandidates; ++c) {
    detour.clear();
    AppendPath(src, dst, MixHash(base + static_cast<uint64_t>(c) * kCandidateStride), detour);
    if (PathUp(detour)) {
      path = detour;
      return;
    }
  }
  ++unroutable_edges_;
}

bool ReplayFabric::CrossesDownLink(const CoflowPlan& plan) const { return !PathUp(plan.ports); }

CoflowPlan ReplayFabric::Route(std::span<const CommEdge> edges, uint64_t flow_key, bool least_loaded,
                               double bytes_per_s_per_byte) const {
  CoflowPlan plan;
  for (const CommEdge& e : edges) plan.reference_bytes = std::max(plan.reference_bytes, e.bytes);
  if (plan.reference_bytes <= 0) return plan;
  std::unordered_map<int, size_t> slot;  // port -> index in plan.ports
  std::unordered_map<int, double> planned_bps;  // this plan's own edges, for least_loaded
  std::vector<PortId> path, best;
  Time latency;
  uint64_t edge_index = 0;
  for (const CommEdge& e : edges) {
    ++edge_index;
    if (e.src == e.dst || e.bytes <= 0) continue;
    const uint64_t base = flow_key * 0x9E3779B97F4A7C15ull + edge_index;
    best.clear();
    if (!least_loaded) {
      AppendPath(e.src, e.dst, MixHash(base), best);
      AvoidDownLinks(e.src, e.dst, base, best);
    } else {
      double best_max = 0, best_sum = 0;
      for (int c = 0; c < kPathCandidates; ++c) {
        path.clear();
        AppendPath(e.src, e.dst, MixHash(base + static_cast<uint64_t>(c) * kCandidateStride), path);
        if (!PathUp(path)) continue;
        double max_load = 0, sum_load = 0;
        for (PortId p : path) {
          const auto it = planned_bps.find(p);
          const double own = it == planned_bps.end() ? 0.0 : it->second;
          const double load = PortLoad(p) + own * 8 / capacity_bps_[static_cast<size_t>(p)];
          max_load = std::max(max_load, load);
          sum_load += load;
        }
        if (best.empty() || max_load < best_max || (max_load == best_max && sum_load < best_sum)) {
          best = path;
          best_max = max_load;
          best_sum = sum_load;
        }
      }
      if (best.empty()) {  // every candidate crosses a down link: as plain ECMP would
        AppendPath(e.src, e.dst, MixHash(base), best);
        AvoidDownLinks(e.src, e.dst, base, best);
      }
      for (PortId p : best) planned_bps[p] += e.bytes * bytes_per_s_per_byte;
    }
    Time path_latency;
    for (PortId p : best) {
      path_latency += topology_.port(p).latency;
      const auto [it, fresh] = slot.try_emplace(p, plan.ports.size());
      if (fresh) {
        plan.ports.push_back(p);
        plan.coefficients.push_back(0);
      }
      plan.coefficients[it->second] += e.bytes / plan.reference_bytes;
    }
    latency = std::max(latency, path_latency);
  }
  plan.latency = latency;
  return plan;
}

Time ReplayFabric::IdleDuration(const CoflowPlan& plan) const { return IdleDuration(plan, 1.0); }

Time ReplayFabric::IdleDuration(const CoflowPlan& plan, double scale) const {
  double rate_bps = 0;  // reference bytes' rate, the tightest port's
  for (size_t i = 0; i < plan.ports.size(); ++i) {
    const double r = capacity_bps_[static_cast<size_t>(plan.ports[i])] / plan.coefficients[i];
    rate_bps = i == 0 ? r : std::min(rate_bps, r);
  }
  if (plan.empty()) return Time::Zero();
  return Time::FromSeconds(scale * plan.reference_bytes * 8 / rate_bps) + plan.latency;
}

void ReplayFabric::Start(uint64_t id, const CoflowPlan& plan, double scale, double weight) {
  assert(!plan.empty() && scale > 0);
  CoflowTiming timing;
  timing.latency = plan.latency;
  const uint64_t bytes = static_cast<uint64_t>(std::max(1.0, std::round(scale * plan.reference_bytes)));
  network_.StartCoflow(id, bytes, plan.ports, plan.coefficients, timing, weight);
}

void ReplayFabric::AddExpectedLoad(const CoflowPlan& plan, double reference_bytes_per_s, int sign) {
  for (size_t i = 0; i < plan.ports.size(); ++i) {
    double& v = expected_bps_[static_cast<size_t>(plan.ports[i])];
    v += sign * plan.coefficients[i] * reference_bytes_per_s * 8;
    if (v < 1e-6) v = 0;  // what rounding leaves once every job has left
  }
}

double ReplayFabric::PortLoad(PortId port) const {
  const size_t p = static_cast<size_t>(port);
  return std::max(measured_[p], expected_bps_[p] / capacity_bps_[p]);
}

void ReplayFabric::RefreshMeasuredLoad() {
  const Time now = sim_.Now();
  if (now - newer_.at < load_window_) return;
  older_ = std::move(newer_);
  newer_ = {now, BytesCarried()};
  const double seconds = (newer_.at - older_.at).seconds();
  for (size_t p = 0; p < measured_.size(); ++p) {
    measured_[p] = (newer_.bytes[p] - older_.bytes[p]) * 8 / (capacity_bps_[p] * seconds);
  }
}

std::vector<double> ReplayFabric::BytesCarried() const {
  std::vector<double> out(capacity_bps_.size(), 0.0);
  network_.BytesCarried(out);
  return out;
}

double ReplayFabric::SwitchPortUtilization(double seconds) const {
  const std::vector<double> carried = BytesCarried();
  double bytes = 0, capacity_bytes_per_s = 0;
  for (const Port& p : topology_.ports()) {
    if (topology_.node(p.node).kind == NodeKind::kHost || topology_.node(p.peer).kind == NodeKind::kHost) continue;
    bytes += carried[static_cast<size_t>(p.id)];
    capacity_bytes_per_s += capacity_bps(p.id) / 8;
  }
  if (capacity_bytes_per_s > 0 && seconds > 0) return bytes / (capacity_bytes_per_s * seconds);
  return 0;
}

}  // namespace aifabric
