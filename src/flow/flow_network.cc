#include "flow/flow_network.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "fabric/ecmp_path.h"
#include "flow/flow_dcqcn.h"
#include "flow/flow_faults.h"

namespace aifabric {

FlowNetwork::FlowNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes,
                         const FlowConfig& config)
    : sim_(sim),
      topology_(topology),
      routes_(routes),
      config_(config),
      salts_(EcmpSalts(topology, config.ecmp_seed)),
      fluid_(sim, [this](uint64_t index, Time at) {
        if (index & kCoflowBit) {
          live_coflows_.erase(index & ~kCoflowBit);
          if (observer_ != nullptr) observer_->OnTransferDone(coflows_[index & ~kCoflowBit], at);
          return;
        }
        OnQueuePairDone(static_cast<uint32_t>(index), at);
      }),
      splitter_(topology, routes),
      active_routes_(&routes) {
  assert(config.mtu_bytes > 0 && config.qps_per_transfer >= 1);
  fluid_.SetClasses(config.priority_classes);
  hop_latency_.reserve(topology.ports().size());
  full_packet_time_.reserve(topology.ports().size());
  for (const Port& port : topology.ports()) {
    const int id = fluid_.AddResource(payload_capacity_bps(port.id));
    assert(id == port.id);
    (void)id;
    const Node& peer = topology.node(port.peer);
    hop_latency_.push_back(port.latency + (peer.kind == NodeKind::kSwitch
                                               ? topology.switch_specs()[peer.switch_spec].latency
                                               : Time::Zero()));
    full_packet_time_.push_back(port.rate.TransmitTime(config.mtu_bytes + config.wire_overhead_bytes));
  }
  if (config.balancing == FlowBalancing::kAdaptive) offered_.assign(topology.ports().size(), 0.0);
  if (config.dcqcn) {
    dcqcn_ = std::make_unique<FlowDcqcn>(sim, fluid_, topology, config_,
                                         [this](uint32_t qp) { return path(qp); });
    fluid_.SetRateObserver([this](uint64_t id, double rate_bps, double remaining_bytes) {
      if (!(id & kCoflowBit)) dcqcn_->OnRate(static_cast<uint32_t>(id), rate_bps, remaining_bytes);
    });
  }
}

double FlowNetwork::payload_capacity_bps(PortId port) const {
  return static_cast<double>(topology_.port(port).rate.bps()) * config_.mtu_bytes /
         (config_.mtu_bytes + config_.wire_overhead_bytes);
}

std::span<const PortId> FlowNetwork::path(uint32_t flow_index) const {
  const QueuePair& qp = flows_[flow_index];
  return std::span<const PortId>(path_arena_).subspan(qp.path_offset, qp.path_length);
}

void FlowNetwork::StartTransfer(const TransferRequest& request) {
  assert(request.bytes > 0 && request.src != request.dst);
  assert(routes_.Distance(request.src, request.dst) > 0);
  const uint32_t transfer = static_cast<uint32_t>(transfers_.size());
  payload_.sent += request.bytes;
  if (config_.qps_per_transfer == 1) {  // SplitIntoQueuePairs' one part, without its vector
    transfers_.push_back(Transfer{request.id, 1, request.bytes});
    StartQueuePair(WithSourcePort(request), transfer);
    return;
  }
  const std::vector<TransferRequest> parts = SplitIntoQueuePairs(request, config_.mtu_bytes, config_.qps_per_transfer);
  transfers_.push_back(Transfer{request.id, static_cast<uint32_t>(parts.size()), request.bytes});
  for (const TransferRequest& part : parts) StartQueuePair(part, transfer);
}

std::optional<std::span<const PortId>> FlowNetwork::KnownPath(const TransferRequest& request, uint32_t hash) const {
  const std::optional<uint32_t> known = paths_.Find(ConnectionKey(request, hash));
  if (!known) return std::nullopt;
  const QueuePair& seen = flows_[*known];
  if (seen.request.src != request.src || seen.request.dst != request.dst || seen.hash != hash) {
    return std::nullopt;
  }
  return path(*known);
}

uint64_t FlowNetwork::ConnectionKey(const TransferRequest& request, uint32_t hash) {
  return (static_cast<uint64_t>(request.src) * 0x9E3779B97F4A7C15ull) ^ (static_cast<uint64_t>(request.dst) << 32) ^
         hash;
}

void FlowNetwork::StartQueuePair(const TransferRequest& request, uint32_t transfer) {
  QueuePair qp;
  qp.request = request;
  qp.transfer = transfer;
  // A connection (src, dst, 5-tuple hash) seen before reuses its path in the arena.
  const uint32_t hash = FlowHash(request);
  qp.hash = hash;
  if (spread()) {
    StartSpreadQueuePair(qp);
    return;
  }
  if (const auto known = KnownPath(request, hash)) {
    qp.path_offset = static_cast<uint32_t>(known->data() - path_arena_.data());
    qp.path_length = static_cast<uint32_t>(known->size());
  } else {
    qp.path_offset = static_cast<uint32_t>(path_arena_.size());
    AppendEcmpPath(topology_, RoutesFor(request.src, request.dst), salts_, request.src, request.dst, hash, path_arena_);
    qp.path_length = static_cast<uint32_t>(path_arena_.size() - qp.path_offset);
    paths_.Set(ConnectionKey(request, hash), static_cast<uint32_t>(flows_.size()));
  }
  const std::span<const PortId> ports(path_arena_.data() + qp.path_offset, qp.path_length);
  qp.latency = PathLatency(ports, request.bytes);
  qp.start = sim_.Now();
  const uint32_t index = static_cast<uint32_t>(flows_.size());
  flows_.push_back(qp);
  resources_.assign(ports.begin(), ports.end());
  if (dcqcn_ != nullptr) dcqcn_->Admit(index, ports.front(), request.bytes, request.priority & 7, qp.latency);
  fluid_.Start(index, request.bytes, resources_, qp.latency, 1.0, request.priority & 7);
}

void FlowNetwork::StartSpreadQueuePair(QueuePair& qp) {
  const TransferRequest& request = qp.request;
  // Sprayed, a pair (src, dst) always splits the same way: its ports are
  // kept once, under the key of hash 0. Adaptive splits by the load now.
  const bool spray = config_.balancing == FlowBalancing::kSpray;
  std::optional<uint32_t> known;
  if (spray) known = paths_.Find(ConnectionKey(request, 0));
  if (known && (flows_[*known].request.src != request.src || flows_[*known].request.dst != request.dst)) {
    known.reset();
  }
  if (known) {
    qp.path_offset = flows_[*known].path_offset;
    qp.path_length = flows_[*known].path_length;
  } else {
    qp.path_offset = static_cast<uint32_t>(path_arena_.size());
    split_.clear();
    SplitNow(request.src, request.dst, spray ? std::span<const double>() : offered_, split_);
    for (const PortShare& share : split_) {
      path_arena_.push_back(share.port);
      share_arena_.push_back(share.fraction);
    }
    qp.path_length = static_cast<uint32_t>(path_arena_.size() - qp.path_offset);
    if (spray) paths_.Set(ConnectionKey(request, 0), static_cast<uint32_t>(flows_.size()));
  }
  const std::span<const PortId> ports(path_arena_.data() + qp.path_offset, qp.path_length);
  const std::span<const double> fractions(share_arena_.data() + qp.path_offset, qp.path_length);
  if (!spray) {
    for (size_t k = 0; k < ports.size(); ++k) offered_[static_cast<size_t>(ports[k])] += fractions[k];
  }
  ecmp_scratch_.clear();
  AppendEcmpPath(topology_, RoutesFor(request.src, request.dst), salts_, request.src, request.dst, qp.hash, ecmp_scratch_);
  qp.latency = PathLatency(ecmp_scratch_, request.bytes);
  qp.start = sim_.Now();
  const uint32_t index = static_cast<uint32_t>(flows_.size());
  flows_.push_back(qp);
  resources_.assign(ports.begin(), ports.end());
  if (dcqcn_ != nullptr) dcqcn_->Admit(index, ecmp_scratch_.front(), request.bytes, request.priority & 7, qp.latency);
  fluid_.Start(index, request.bytes, resources_, fractions, qp.latency, 1.0, request.priority & 7);
}

std::vector<double> FlowNetwork::path_fractions(uint32_t flow_index) const {
  const QueuePair& qp = flows_[flow_index];
  if (!spread()) return std::vector<double>(qp.path_length, 1.0);
  return std::vector<double>(share_arena_.begin() + qp.path_offset,
                             share_arena_.begin() + qp.path_offset + qp.path_length);
}

namespace {
constexpr size_t kMaxRoutedCoflows = 1024;  // then the cache starts afresh

bool SameEdges(const std::vector<CoflowEdge>& a, const std::vector<CoflowEdge>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const CoflowEdge& x, const CoflowEdge& y) {
    return x.src == y.src && x.dst == y.dst && x.bytes == y.bytes && x.sport == y.sport &&
           x.latency_weight == y.latency_weight;
  });
}
}  // namespace

const FlowNetwork::RoutedCoflow& FlowNetwork::Route(const CoflowRequest& request) {
  uint64_t key = request.priority;
  const auto mix = [&key](uint64_t v) { key = (key ^ v) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull; };
  for (const CoflowEdge& e : request.edges) {
    mix(static_cast<uint64_t>(e.src));
    mix(static_cast<uint64_t>(e.dst));
    mix(e.bytes);
    mix(e.sport);
  }
  auto it = routed_.find(key);
  if (it != routed_.end() && it->second.priority == request.priority && SameEdges(it->second.edges, request.edges)) {
    return it->second;
  }
  if (routed_.size() >= kMaxRoutedCoflows) routed_.clear();
  RoutedCoflow& r = routed_[key];
  r = RoutedCoflow{};
  r.edges = request.edges;
  r.priority = request.priority;
  for (const CoflowEdge& e : request.edges) r.reference = std::max(r.reference, e.bytes);
  if (spread()) {
    RouteSpread(request, r);
    return r;
  }
  std::vector<std::pair<int, double>> merged;
  for (const CoflowEdge& e : request.edges) {
    assert(e.src != e.dst && routes_.Distance(e.src, e.dst) > 0);
    const TransferRequest whole = EdgeAsTransfer(e, request.priority);
    if (config_.qps_per_transfer == 1 || e.bytes == 0) {
      const std::vector<PortId> ports = RoutePath(whole);
      r.path_chain_ps += e.latency_weight * static_cast<double>(PathLatency(ports, std::max<uint64_t>(e.bytes, 1)).ps());
      if (e.bytes == 0) continue;
      const double coefficient = static_cast<double>(e.bytes) / static_cast<double>(r.reference);
      for (PortId p : ports) merged.emplace_back(p, coefficient);
      continue;
    }
    // An edge is a connection: over several queue pairs (NCCL's
    // NCCL_IB_QPS_PER_CONNECTION) it is split as a transfer is, each part
    // on its own 5-tuple's path, the path latency counted once in all.
    const std::vector<TransferRequest> parts = SplitIntoQueuePairs(whole, config_.mtu_bytes, config_.qps_per_transfer);
    const double part_weight = e.latency_weight / static_cast<double>(parts.size());
    for (const TransferRequest& part : parts) {
      const std::vector<PortId> ports = RoutePath(part);
      r.path_chain_ps += part_weight * static_cast<double>(PathLatency(ports, part.bytes).ps());
      const double coefficient = static_cast<double>(part.bytes) / static_cast<double>(r.reference);
      for (PortId p : ports) merged.emplace_back(p, coefficient);
    }
  }
  // Sorted by port, repeats summed: the solver's form, once.
  std::sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [p, a] : merged) {
    if (!r.resources.empty() && r.resources.back() == p) {
      r.coefficients.back() += a;
    } else {
      r.resources.push_back(p);
      r.coefficients.push_back(a);
    }
  }
  return r;
}

void FlowNetwork::RouteSpread(const CoflowRequest& request, RoutedCoflow& r) {
  // Every edge's split, summed per port in a dense array (a coflow of
  // thousands of edges over paths of thousands of ports would otherwise
  // sort millions of pairs). Adaptive: each edge evens out the load the
  // coflow's earlier edges put on its next hops, in bytes per reference byte.
  const bool adaptive = config_.balancing == FlowBalancing::kAdaptive;
  coflow_dense_.resize(topology_.ports().size(), 0.0);
  if (adaptive) coflow_load_.resize(topology_.ports().size(), 0.0);
  coflow_touched_.clear();
  for (const CoflowEdge& e : request.edges) {
    assert(e.src != e.dst && routes_.Distance(e.src, e.dst) > 0);
    const std::vector<PortId> ports = RoutePath(EdgeAsTransfer(e, request.priority));
    r.path_chain_ps += e.latency_weight * static_cast<double>(PathLatency(ports, std::max<uint64_t>(e.bytes, 1)).ps());
    if (e.bytes == 0) continue;
    const double coefficient = static_cast<double>(e.bytes) / static_cast<double>(r.reference);
    split_.clear();
    SplitNow(e.src, e.dst, adaptive ? std::span<const double>(coflow_load_) : std::span<const double>(), split_);
    for (const PortShare& share : split_) {
      const size_t p = static_cast<size_t>(share.port);
      if (coflow_dense_[p] == 0) coflow_touched_.push_back(share.port);
      coflow_dense_[p] += coefficient * share.fraction;
      if (adaptive) coflow_load_[p] += coefficient * share.fraction;
    }
  }
  std::sort(coflow_touched_.begin(), coflow_touched_.end());
  for (PortId p : coflow_touched_) {
    r.resources.push_back(p);
    r.coefficients.push_back(coflow_dense_[static_cast<size_t>(p)]);
    coflow_dense_[static_cast<size_t>(p)] = 0;
    if (adaptive) coflow_load_[static_cast<size_t>(p)] = 0;
  }
}

Status FlowNetwork::StartCoflow(const CoflowRequest& request) {
  const RoutedCoflow& r = Route(request);
  const uint64_t index = coflows_.size();
  coflows_.push_back(request.id);
  if (faults_ != nullptr) live_coflows_.emplace(index, request);  // a fault may route it again
  CoflowTiming timing = request.timing;
  timing.chain += Time::FromPs(static_cast<int64_t>(std::llround(r.path_chain_ps)));
  fluid_.StartCoflow(kCoflowBit | index, r.reference, r.resources, r.coefficients, timing,
                     1.0, request.priority & 7);
  return Status::Ok();
}

void FlowNetwork::OnQueuePairDone(uint32_t flow_index, Time finish) {
  QueuePair& qp = flows_[flow_index];
  qp.finish = finish;
  if (dcqcn_ != nullptr) dcqcn_->OnDone(flow_index);
  if (!offered_.empty()) {  // adaptive: its load leaves the ports
    for (uint32_t k = 0; k < qp.path_length; ++k) {
      offered_[static_cast<size_t>(path_arena_[qp.path_offset + k])] -= share_arena_[qp.path_offset + k];
    }
  }
  Transfer& t = transfers_[qp.transfer];
  if (--t.open_queue_pairs > 0) return;
  payload_.delivered += t.bytes;
  if (observer_ != nullptr) observer_->OnTransferDone(t.id, finish);
}

NetworkTotals FlowNetwork::RunTotals() const {
  NetworkTotals t;
  t.payload = payload_;
  t.payload.in_flight = payload_.sent - payload_.delivered - payload_.dropped;
  return t;
}

void FlowNetwork::Observe(FabricObservation& observation) const {
  observation.model = kind();
  for (uint32_t i = 0; i < flows_.size(); ++i) {
    const QueuePair& q = flows_[i];
    const std::span<const PortId> ports = path(i);
    observation.transfers.push_back(TransferObservation{q.request.id, q.request.src, q.request.dst, q.request.bytes,
                                                        q.start, q.finish, IdealFct(q.request),
                                                        std::vector<PortId>(ports.begin(), ports.end()), ""});
  }
}

size_t FlowNetwork::TransfersCompleted() const {
  size_t done = 0;
  for (const QueuePair& q : flows_) done += q.done();
  return done;
}

Time FlowNetwork::PathLatency(std::span<const PortId> path, uint64_t bytes) const {
  if (bytes >= config_.mtu_bytes) {
    // The general form below with the first packet a full one, from the
    // per-port figures: the bottleneck (slowest) port is the one whose
    // packet time is the longest.
    Time latency;
    Time longest;
    for (PortId id : path) {
      latency += hop_latency_[static_cast<size_t>(id)] + full_packet_time_[static_cast<size_t>(id)];
      longest = Max(longest, full_packet_time_[static_cast<size_t>(id)]);
    }
    return latency - longest;
  }
  const uint64_t first_wire = std::min<uint64_t>(bytes, config_.mtu_bytes) + config_.wire_overhead_bytes;
  Time latency;
  DataRate bottleneck = topology_.port(path.front()).rate;
  for (PortId id : path) {
    const Port& port = topology_.port(id);
    bottleneck = Min(bottleneck, port.rate);
    latency += port.latency + port.rate.TransmitTime(first_wire);
    const Node& peer = topology_.node(port.peer);
    if (peer.kind == NodeKind::kSwitch) latency += topology_.switch_specs()[peer.switch_spec].latency;
  }
  return latency - bottleneck.TransmitTime(first_wire);
}

std::vector<PortId> FlowNetwork::RoutePath(const TransferRequest& request) const {
  const TransferRequest r = WithSourcePort(request);
  return EcmpPath(topology_, RoutesFor(r.src, r.dst), salts_, r.src, r.dst, FlowHash(r));
}

Time FlowNetwork::PayloadTime(std::span<const PortId> path, uint64_t bytes) const {
  DataRate bottleneck = topology_.port(path.front()).rate;
  for (PortId id : path) bottleneck = Min(bottleneck, topology_.port(id).rate);
  // bytes * 8 / (rate * mtu / (mtu + overhead)) seconds, in whole ps rounded up.
  const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * 8u * 1000000000000ull *
                                (config_.mtu_bytes + config_.wire_overhead_bytes);
  const unsigned __int128 den = static_cast<unsigned __int128>(bottleneck.bps()) * config_.mtu_bytes;
  return Time::FromPs(static_cast<int64_t>((num + den - 1) / den));
}

Time FlowNetwork::SpreadPayloadTime(const TransferRequest& request) const {
  // Alone on the idle fabric the split is the spray one (adaptive, with no
  // load anywhere: in proportion to the rates, the spray split when they are
  // equal), and the fluid runs at min over its ports of capacity / fraction.
  // When that is a port the whole transfer crosses (a host's link), the
  // closed form in whole picoseconds, as on one path.
  split_.clear();
  const std::vector<double> idle(config_.balancing == FlowBalancing::kAdaptive ? topology_.ports().size() : 0, 0.0);
  SplitNow(request.src, request.dst, idle, split_);
  double rate = 0;
  PortId at = kNoPort;
  double at_fraction = 0;
  for (const PortShare& s : split_) {
    const double r = payload_capacity_bps(s.port) / s.fraction;
    if (at == kNoPort || r < rate) {
      rate = r;
      at = s.port;
      at_fraction = s.fraction;
    }
  }
  if (at_fraction == 1.0) return PayloadTime(std::span<const PortId>(&at, 1), request.bytes);
  return Time::FromPs(static_cast<int64_t>(std::ceil(static_cast<double>(request.bytes) * 8 / rate * 1e12)));
}

Time FlowNetwork::IdealFct(const TransferRequest& request) const {
  if (spread()) {
    const TransferRequest r = WithSourcePort(request);
    const std::vector<PortId> ports = RoutePath(request);
    return PathLatency(ports, request.bytes) + SpreadPayloadTime(r);
  }
  const TransferRequest r = WithSourcePort(request);
  if (const auto known = KnownPath(r, FlowHash(r))) {
    return PathLatency(*known, request.bytes) + PayloadTime(*known, request.bytes);
  }
  const std::vector<PortId> ports = RoutePath(request);
  return PathLatency(ports, request.bytes) + PayloadTime(ports, request.bytes);
}

}  // namespace aifabric
