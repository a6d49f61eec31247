#include "chakra/chakra_rank_nodes.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "chakra/chakra_attributes.h"
#include "workload/dependency_csr.h"

namespace aifabric {
namespace {

// Beyond this a duration is not a kernel's (and 10^12 us = 11.6 days keeps
// every sum of durations far inside Time's int64 picoseconds).
constexpr uint64_t kMaxDurationUs = 1'000'000'000'000ull;

// Node and dependency indices are uint32_t.
constexpr size_t kNoIndex = 0xffffffffu;

// PyTorch's NCCL barrier all-reduces one 4-byte element.
constexpr uint64_t kBarrierBytes = 4;

std::string NodePrefix(const std::string& origin, const ChakraProtoMsg::Node& n) {
  std::string s = origin;
  s += ": node ";
  s += std::to_string(n.id());
  if (!n.name().empty()) {
    s += " (";
    s += n.name();
    s += ")";
  }
  s += ": ";
  return s;
}

// comm_type -> the collective aifabric runs. REDUCE_SCATTER_BLOCK is a
// reduce-scatter; BARRIER an all-reduce of one element.
Result<CollectiveOp> CollectiveOf(int64_t comm_type) {
  switch (comm_type) {
    case ChakraProtoMsg::ALL_REDUCE: return CollectiveOp::kAllReduce;
    case ChakraProtoMsg::REDUCE: return CollectiveOp::kReduce;
    case ChakraProtoMsg::ALL_GATHER: return CollectiveOp::kAllGather;
    case ChakraProtoMsg::BROADCAST: return CollectiveOp::kBroadcast;
    case ChakraProtoMsg::ALL_TO_ALL: return CollectiveOp::kAllToAll;
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK: return CollectiveOp::kReduceScatter;
    case ChakraProtoMsg::BARRIER: return CollectiveOp::kAllReduce;
    case ChakraProtoMsg::GATHER:
      return Error{"comm_type GATHER is not supported (aifabric has no gather collective; ASTRA-sim neither)"};
    case ChakraProtoMsg::SCATTER:
      return Error{"comm_type SCATTER is not supported (aifabric has no scatter collective; ASTRA-sim neither)"};
    default: break;
  }
  std::string m = "unknown comm_type ";
  m += std::to_string(comm_type);
  return Error{m};
}

Error Missing(std::string_view name) {
  std::string m = "no ";
  m += name;
  m += " attribute";
  return Error{m};
}

// A required non-negative integer attribute.
Result<uint64_t> RequiredBytes(const ChakraProtoMsg::Node& n, std::string_view name) {
  Result<std::optional<int64_t>> v = ChakraAttrInt(n, name);
  if (!v.ok()) return v.error();
  if (!v->has_value()) return Missing(name);
  if (**v < 0) return Error{std::string(name) + " is negative"};
  return static_cast<uint64_t>(**v);
}

// A rank attribute: `fallback` when absent (-1: required); must name a rank.
Result<int32_t> RankAttr(const ChakraProtoMsg::Node& n, std::string_view name, int32_t fallback, int32_t rank_count) {
  Result<std::optional<int64_t>> v = ChakraAttrInt(n, name);
  if (!v.ok()) return v.error();
  if (!v->has_value()) {
    if (fallback < 0) return Missing(name);
    return fallback;
  }
  if (**v < 0 || **v >= rank_count) {
    std::string m(name);
    m += " ";
    m += std::to_string(**v);
    m += " is not a rank of this trace set (";
    m += std::to_string(rank_count);
    m += " files)";
    return Error{m};
  }
  return static_cast<int32_t>(**v);
}

Status FillCompute(const ChakraProtoMsg::Node& n, const ChakraOptions& options, ChakraNodeInfo& info) {
  if (options.skip_cpu_ops && ChakraIsCpuOp(n)) return Status::Ok();  // stays kPassThrough
  info.role = ChakraNodeRole::kCompute;
  Result<std::optional<int64_t>> num_ops = ChakraAttrInt(n, "num_ops");
  if (!num_ops.ok()) return num_ops.error();
  if (num_ops->has_value() && **num_ops < 0) return Error{"num_ops is negative"};
  info.flops = num_ops->has_value() ? static_cast<double>(**num_ops) : 0.0;
  if (n.duration_micros() > kMaxDurationUs) return Error{"duration_micros is beyond 10^12 us"};
  if (n.duration_micros() > 0 || info.flops == 0) {
    info.duration = Time::FromUs(static_cast<int64_t>(n.duration_micros()));
    return Status::Ok();
  }
  if (options.peak_flops_per_s <= 0) {
    return Error{"compute node with num_ops but no duration_micros; set peak_flops_per_s to derive its time"};
  }
  const double seconds = info.flops / (options.peak_flops_per_s * options.compute_efficiency);
  if (!std::isfinite(seconds) || seconds > static_cast<double>(kMaxDurationUs) * 1e-6) {
    return Error{"num_ops / (peak_flops_per_s * compute_efficiency) is beyond 10^12 us"};
  }
  info.duration = Time::FromSeconds(seconds);
  return Status::Ok();
}

Status FillCollective(const ChakraProtoMsg::Node& n, ChakraNames& names, ChakraNodeInfo& info) {
  info.role = ChakraNodeRole::kCollective;
  Result<std::optional<int64_t>> type = ChakraAttrInt(n, "comm_type");
  if (!type.ok()) return type.error();
  if (!type->has_value()) return Error{"collective without a comm_type attribute"};
  Result<CollectiveOp> op = CollectiveOf(**type);
  if (!op.ok()) return op.error();
  info.op = *op;
  Result<uint64_t> bytes = RequiredBytes(n, "comm_size");
  if (!bytes.ok()) return bytes.error();
  info.bytes = *bytes;
  if (**type == ChakraProtoMsg::BARRIER && info.bytes == 0) info.bytes = kBarrierBytes;
  Result<std::optional<std::string>> pg = ChakraAttrString(n, "pg_name");
  if (!pg.ok()) return pg.error();
  // "" and "0" are both the default group of all ranks (ASTRA-sim).
  const std::string pg_name = pg->value_or("");
  info.pg = names.Intern(pg_name == "0" ? "" : pg_name);
  return Status::Ok();
}

Status FillPointToPoint(const ChakraProtoMsg::Node& n, int32_t rank, int32_t rank_count, ChakraNodeInfo& info) {
  const bool send = n.type() == ChakraProtoMsg::COMM_SEND_NODE;
  info.role = send ? ChakraNodeRole::kSend : ChakraNodeRole::kRecv;
  // The rank's own end may be omitted; if given it must be this rank.
  Result<int32_t> self = RankAttr(n, send ? "comm_src" : "comm_dst", rank, rank_count);
  if (!self.ok()) return self.error();
  if (*self != rank) {
    std::string m = send ? "a send from rank " : "a recv into rank ";
    m += std::to_string(*self);
    m += " in the trace of rank ";
    m += std::to_string(rank);
    return Error{m};
  }
  Result<int32_t> peer = RankAttr(n, send ? "comm_dst" : "comm_src", -1, rank_count);
  if (!peer.ok()) return peer.error();
  if (*peer == rank) return Error{send ? "a send to its own rank" : "a recv from its own rank"};
  info.peer = *peer;
  Result<uint64_t> bytes = RequiredBytes(n, "comm_size");
  if (!bytes.ok()) return bytes.error();
  info.bytes = *bytes;
  Result<std::optional<int64_t>> tag = ChakraAttrInt(n, "comm_tag");
  if (!tag.ok()) return tag.error();
  if (tag->value_or(0) < INT32_MIN || tag->value_or(0) > INT32_MAX) return Error{"comm_tag is beyond the int32 range"};
  info.tag = static_cast<int32_t>(tag->value_or(0));
  return Status::Ok();
}

}  // namespace

uint32_t ChakraNames::Intern(std::string_view s) {
  const auto [it, added] = index_.try_emplace(std::string(s), static_cast<uint32_t>(names_.size()));
  if (added) names_.emplace_back(s);
  return it->second;
}

std::string ChakraRankNodes::Where(uint32_t i, const ChakraNames& names) const {
  std::string s = origin;
  s += ": node ";
  s += std::to_string(nodes[i].id);
  if (!names[nodes[i].name].empty()) {
    s += " (";
    s += names[nodes[i].name];
    s += ")";
  }
  s += ": ";
  return s;
}

ChakraRankReducer::ChakraRankReducer(const std::string& origin, int32_t rank, int32_t rank_count,
                                     const ChakraOptions& options, ChakraNames& names)
    : rank_(rank), rank_count_(rank_count), options_(options), names_(names) {
  out_.origin = origin;
}

Status ChakraRankReducer::Add(const ChakraProtoMsg::Node& n) {
  if (out_.nodes.size() >= kNoIndex) return Error{NodePrefix(out_.origin, n) + "too many nodes in one file"};
  const uint32_t index = static_cast<uint32_t>(out_.nodes.size());
  if (!by_id_.emplace(n.id(), index).second) return Error{NodePrefix(out_.origin, n) + "a second node with this id"};
  ChakraNodeInfo& info = out_.nodes.emplace_back();
  info.id = n.id();
  info.name = names_.Intern(n.name());
  Status filled = Status::Ok();
  switch (n.type()) {
    case ChakraProtoMsg::COMP_NODE: filled = FillCompute(n, options_, info); break;
    case ChakraProtoMsg::COMM_COLL_NODE: filled = FillCollective(n, names_, info); break;
    case ChakraProtoMsg::COMM_SEND_NODE:
    case ChakraProtoMsg::COMM_RECV_NODE: filled = FillPointToPoint(n, rank_, rank_count_, info); break;
    default: break;  // memory, metadata, storage, invalid, unknown: pass through
  }
  if (!filled.ok()) return Error{NodePrefix(out_.origin, n) + filled.error().message};
  // Data and control dependencies alike.
  info.deps_begin = static_cast<uint32_t>(dep_ids_.size());
  dep_ids_.insert(dep_ids_.end(), n.data_deps().begin(), n.data_deps().end());
  dep_ids_.insert(dep_ids_.end(), n.ctrl_deps().begin(), n.ctrl_deps().end());
  if (dep_ids_.size() >= kNoIndex) return Error{NodePrefix(out_.origin, n) + "too many dependencies in one file"};
  info.deps_end = static_cast<uint32_t>(dep_ids_.size());
  return Status::Ok();
}

Result<ChakraRankNodes> ChakraRankReducer::Finish() && {
  const size_t count = out_.nodes.size();
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  out_.deps.reserve(dep_ids_.size());
  for (uint32_t i = 0; i < count; ++i) {
    ChakraNodeInfo& info = out_.nodes[i];
    const uint32_t begin = static_cast<uint32_t>(out_.deps.size());
    for (uint32_t k = info.deps_begin; k < info.deps_end; ++k) {
      const auto it = by_id_.find(dep_ids_[k]);
      if (it == by_id_.end()) {
        std::string m = out_.Where(i, names_);
        m += "depends on node ";
        m += std::to_string(dep_ids_[k]);
        m += ", which is not in the file";
        return Error{m};
      }
      if (it->second == i) return Error{out_.Where(i, names_) + "depends on itself"};
      out_.deps.push_back(it->second);
    }
    // A dependency named twice (or as both data and control) counts once.
    std::sort(out_.deps.begin() + begin, out_.deps.end());
    out_.deps.erase(std::unique(out_.deps.begin() + begin, out_.deps.end()), out_.deps.end());
    info.deps_begin = begin;
    info.deps_end = static_cast<uint32_t>(out_.deps.size());
    for (uint32_t k = info.deps_begin; k < info.deps_end; ++k) edges.emplace_back(out_.deps[k], i);
  }
  dep_ids_ = {};
  by_id_ = {};

  DependencyCsr csr;
  csr.Assign(count, edges);
  out_.order = csr.TopologicalOrder();
  if (out_.order.size() != count) {
    std::vector<bool> placed(count, false);
    for (uint32_t i : out_.order) placed[i] = true;
    const uint32_t stuck = static_cast<uint32_t>(std::find(placed.begin(), placed.end(), false) - placed.begin());
    return Error{out_.Where(stuck, names_) + "on a dependency cycle (or after one)"};
  }
  return std::move(out_);
}

}  // namespace aifabric
