#include "flow/flow_network.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "fabric/ecmp_path.h"

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
          if (observer_ != nullptr) observer_->OnTransferDone(coflows_[index & ~kCoflowBit], at);
          return;
        }
        OnQueuePairDone(static_cast<uint32_t>(index), at);
      }) {
  assert(config.mtu_bytes > 0 && config.qps_per_transfer >= 1);
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
  if (const auto known = KnownPath(request, hash)) {
    qp.path_offset = static_cast<uint32_t>(known->data() - path_arena_.data());
    qp.path_length = static_cast<uint32_t>(known->size());
  } else {
    qp.path_offset = static_cast<uint32_t>(path_arena_.size());
    AppendEcmpPath(topology_, routes_, salts_, request.src, request.dst, hash, path_arena_);
    qp.path_length = static_cast<uint32_t>(path_arena_.size() - qp.path_offset);
    paths_.Set(ConnectionKey(request, hash), static_cast<uint32_t>(flows_.size()));
  }
  const std::span<const PortId> ports(path_arena_.data() + qp.path_offset, qp.path_length);
  qp.latency = PathLatency(ports, request.bytes);
  qp.start = sim_.Now();
  const uint32_t index = static_cast<uint32_t>(flows_.size());
  flows_.push_back(qp);
  resources_.assign(ports.begin(), ports.end());
  fluid_.Start(index, request.bytes, resources_, qp.latency, config_.priority_weight[request.priority & 7]);
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
  std::vector<std::pair<int, double>> merged;
  for (const CoflowEdge& e : request.edges) {
    assert(e.src != e.dst && routes_.Distance(e.src, e.dst) > 0);
    const std::vector<PortId> ports = RoutePath(EdgeAsTransfer(e, request.priority));
    r.path_chain_ps += e.latency_weight * static_cast<double>(PathLatency(ports, std::max<uint64_t>(e.bytes, 1)).ps());
    if (e.bytes == 0) continue;
    const double coefficient = static_cast<double>(e.bytes) / static_cast<double>(r.reference);
    for (PortId p : ports) merged.emplace_back(p, coefficient);
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

Status FlowNetwork::StartCoflow(const CoflowRequest& request) {
  const RoutedCoflow& r = Route(request);
  const uint64_t index = coflows_.size();
  coflows_.push_back(request.id);
  CoflowTiming timing = request.timing;
  timing.chain += Time::FromPs(static_cast<int64_t>(std::llround(r.path_chain_ps)));
  fluid_.StartCoflow(kCoflowBit | index, r.reference, r.resources, r.coefficients, timing,
                     config_.priority_weight[request.priority & 7]);
  return Status::Ok();
}

void FlowNetwork::OnQueuePairDone(uint32_t flow_index, Time finish) {
  QueuePair& qp = flows_[flow_index];
  qp.finish = finish;
  Transfer& t = transfers_[qp.transfer];
  if (--t.open_queue_pairs > 0) return;
  payload_.delivered += t.bytes;
  if (observer_ != nullptr) observer_->OnTransferDone(t.id, finish);
}

NetworkTotals FlowNetwork::RunTotals() const {
  NetworkTotals t;
  t.payload = payload_;
  t.payload.in_flight = payload_.sent - payload_.delivered;
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
  return EcmpPath(topology_, routes_, salts_, r.src, r.dst, FlowHash(r));
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

Time FlowNetwork::IdealFct(const TransferRequest& request) const {
  const TransferRequest r = WithSourcePort(request);
  if (const auto known = KnownPath(r, FlowHash(r))) {
    return PathLatency(*known, request.bytes) + PayloadTime(*known, request.bytes);
  }
  const std::vector<PortId> ports = RoutePath(request);
  return PathLatency(ports, request.bytes) + PayloadTime(ports, request.bytes);
}

}  // namespace aifabric
