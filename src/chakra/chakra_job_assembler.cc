#include "chakra/chakra_job_assembler.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "workload/dependency_csr.h"

namespace aifabric {
namespace {

// A node of one rank: (rank, index in that rank).
struct RankNode {
  int32_t rank = 0;
  uint32_t index = 0;
};

class Assembler {
 public:
  Assembler(const std::vector<ChakraRankNodes>& ranks, const ChakraNames& names, const ChakraOptions& options)
      : ranks_(ranks), names_(names), options_(options), labels_(names.size(), kNoLabel) {
    job_.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) job_[r].assign(ranks[r].nodes.size(), kNoJobNode);
  }

  Result<JobGraph> Run() && {
    size_t total = 0;
    for (const ChakraRankNodes& r : ranks_) total += r.nodes.size();
    if (total >= kNoJobNode) return Error{"chakra traces: more than 4 billion nodes"};
    AddComputes();
    if (Status s = AddCollectives(); !s.ok()) return s.error();
    if (Status s = AddTransfers(); !s.ok()) return s.error();
    if (Status s = AddEdges(); !s.ok()) return s.error();
    Result<JobGraph> g = std::move(builder_).Build();
    if (!g.ok()) {
      std::string m = "chakra traces: ";
      m += g.error().message;
      return Error{m};
    }
    return g;
  }

 private:
  static constexpr uint32_t kNoLabel = 0xffffffffu;

  const ChakraNodeInfo& Info(RankNode n) const { return ranks_[n.rank].nodes[n.index]; }
  std::string Where(RankNode n) const { return ranks_[n.rank].Where(n.index, names_); }
  GpuId Gpu(int32_t rank) const { return options_.rank_gpus.empty() ? rank : options_.rank_gpus[rank]; }

  uint32_t Label(uint32_t name) {
    if (labels_[name] == kNoLabel) labels_[name] = builder_.AddLabel(names_[name]);
    return labels_[name];
  }

  void Assign(RankNode n, JobNodeIndex job) { job_[n.rank][n.index] = job; }

  void AddComputes() {
    for (int32_t r = 0; r < static_cast<int32_t>(ranks_.size()); ++r) {
      for (uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const ChakraNodeInfo& n = ranks_[r].nodes[i];
        if (n.role != ChakraNodeRole::kCompute) continue;
        Assign({r, i}, builder_.AddCompute(Gpu(r), n.duration, n.flops, Label(n.name)));
        origin_.push_back({r, i});
      }
    }
  }

  std::string GroupName(uint32_t pg) const {
    if (names_[pg].empty()) return "communicator \"\" (all ranks)";
    std::string s = "communicator '";
    s += names_[pg];
    s += "'";
    return s;
  }

  // The k-th collective of a communicator on every rank of its group is
  // one collective (the order NCCL requires and ASTRA-sim matches in).
  Status AddCollectives() {
    const int32_t rank_count = static_cast<int32_t>(ranks_.size());
    std::map<uint32_t, std::vector<std::vector<uint32_t>>> by_pg;  // pg -> rank -> nodes, file order
    for (int32_t r = 0; r < rank_count; ++r) {
      for (uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const ChakraNodeInfo& n = ranks_[r].nodes[i];
        if (n.role != ChakraNodeRole::kCollective) continue;
        std::vector<std::vector<uint32_t>>& lists = by_pg[n.pg];
        lists.resize(rank_count);
        lists[r].push_back(i);
      }
    }
    for (const auto& [pg, lists] : by_pg) {
      const std::string& pg_name = names_[pg];
      std::vector<int32_t> group;
      const auto listed = options_.comm_groups.find(pg_name);
      if (pg_name.empty()) {
        for (int32_t r = 0; r < rank_count; ++r) group.push_back(r);
      } else if (listed != options_.comm_groups.end()) {
        group = listed->second;
        std::sort(group.begin(), group.end());
      } else {
        for (int32_t r = 0; r < rank_count; ++r) {
          if (!lists[r].empty()) group.push_back(r);
        }
      }
      std::vector<bool> member(rank_count, false);
      for (int32_t r : group) member[r] = true;
      size_t count = 0;
      int32_t longest = group.front();
      for (int32_t r = 0; r < rank_count; ++r) {
        if (!member[r] && !lists[r].empty()) {
          return Error{Where({r, lists[r].front()}) + "a collective of " + GroupName(pg) +
                       ", whose group (comm_groups) does not include rank " + std::to_string(r)};
        }
        if (member[r] && lists[r].size() > count) {
          count = lists[r].size();
          longest = r;
        }
      }
      for (int32_t r : group) {
        const size_t have = lists[r].size();
        if (have == count) continue;
        std::string m = Where({longest, lists[longest][have]});
        m += "collective #";
        m += std::to_string(have + 1);
        m += " of ";
        m += GroupName(pg);
        m += " has no match in ";
        m += ranks_[r].origin;
        m += ", which has ";
        m += std::to_string(have);
        m += " (collective counts disagree across ranks)";
        return Error{m};
      }
      std::vector<GpuId> gpus;
      for (int32_t r : group) gpus.push_back(Gpu(r));
      std::sort(gpus.begin(), gpus.end());
      const uint32_t group_index = builder_.AddGroup(std::move(gpus));
      for (size_t k = 0; k < count; ++k) {
        const RankNode first{group.front(), lists[group.front()][k]};
        const ChakraNodeInfo& ref = Info(first);
        uint64_t bytes = ref.bytes;
        for (int32_t r : group) {
          const RankNode copy{r, lists[r][k]};
          const ChakraNodeInfo& n = Info(copy);
          if (n.op != ref.op || (n.bytes != ref.bytes && ref.op != CollectiveOp::kAllToAll)) {
            std::string m = Where(copy);
            m += "collective #";
            m += std::to_string(k + 1);
            m += " of ";
            m += GroupName(pg);
            m += " is ";
            m += CollectiveOpName(n.op);
            m += " of ";
            m += std::to_string(n.bytes);
            m += " bytes, but ";
            m += CollectiveOpName(ref.op);
            m += " of ";
            m += std::to_string(ref.bytes);
            m += " bytes in ";
            m += Where(first);
            m.resize(m.size() - 2);  // the trailing ": "
            return Error{m};
          }
          // All-to-all(v) copies may differ: the largest is the collective's S.
          bytes = std::max(bytes, n.bytes);
        }
        const JobNodeIndex job =
            builder_.AddCollective(ref.op, group_index, bytes, options_.dimension, Label(ref.name));
        origin_.push_back(first);
        for (int32_t r : group) Assign({r, lists[r][k]}, job);
      }
    }
    return Status::Ok();
  }

  // The k-th send from src to dst with a tag pairs with the k-th recv at
  // dst from src with that tag.
  Status AddTransfers() {
    struct Halves {
      std::vector<RankNode> sends, recvs;
    };
    std::map<std::tuple<int32_t, int32_t, int32_t>, Halves> by_key;  // (src, dst, tag)
    for (int32_t r = 0; r < static_cast<int32_t>(ranks_.size()); ++r) {
      for (uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const ChakraNodeInfo& n = ranks_[r].nodes[i];
        if (n.role == ChakraNodeRole::kSend) by_key[{r, n.peer, n.tag}].sends.push_back({r, i});
        if (n.role == ChakraNodeRole::kRecv) by_key[{n.peer, r, n.tag}].recvs.push_back({r, i});
      }
    }
    for (const auto& [key, halves] : by_key) {
      const auto [src, dst, tag] = key;
      const size_t pairs = std::min(halves.sends.size(), halves.recvs.size());
      if (halves.sends.size() != halves.recvs.size()) {
        const bool send_left = halves.sends.size() > pairs;
        std::string m = Where(send_left ? halves.sends[pairs] : halves.recvs[pairs]);
        m += send_left ? "send to rank " : "recv from rank ";
        m += std::to_string(send_left ? dst : src);
        m += " (tag ";
        m += std::to_string(tag);
        m += ") has no matching ";
        m += send_left ? "recv in " : "send in ";
        m += ranks_[send_left ? dst : src].origin;
        return Error{m};
      }
      for (size_t k = 0; k < pairs; ++k) {
        const ChakraNodeInfo& send = Info(halves.sends[k]);
        const ChakraNodeInfo& recv = Info(halves.recvs[k]);
        if (recv.bytes != 0 && recv.bytes != send.bytes) {
          std::string m = Where(halves.recvs[k]);
          m += "recv of ";
          m += std::to_string(recv.bytes);
          m += " bytes, but its send sends ";
          m += std::to_string(send.bytes);
          m += " (";
          m += Where(halves.sends[k]);
          m.resize(m.size() - 2);
          m += ")";
          return Error{m};
        }
        const JobNodeIndex job = builder_.AddTransfer(Gpu(src), Gpu(dst), send.bytes, options_.dimension, Label(send.name));
        origin_.push_back(halves.sends[k]);
        Assign(halves.sends[k], job);
        Assign(halves.recvs[k], job);
      }
    }
    return Status::Ok();
  }

  // A node depends on the JobGraph nodes of its dependencies; a pass-
  // through dependency stands for whatever it depends on.
  Status AddEdges() {
    std::vector<std::pair<JobNodeIndex, JobNodeIndex>> edges;
    for (size_t r = 0; r < ranks_.size(); ++r) {
      const ChakraRankNodes& rank = ranks_[r];
      const std::vector<JobNodeIndex>& job = job_[r];
      std::vector<std::vector<JobNodeIndex>> through(rank.nodes.size());
      std::vector<JobNodeIndex> sources;
      for (uint32_t i : rank.order) {
        const ChakraNodeInfo& n = rank.nodes[i];
        sources.clear();
        for (uint32_t k = n.deps_begin; k < n.deps_end; ++k) {
          const uint32_t d = rank.deps[k];
          if (job[d] != kNoJobNode) {
            sources.push_back(job[d]);
          } else {
            sources.insert(sources.end(), through[d].begin(), through[d].end());
          }
        }
        if (job[i] != kNoJobNode) {
          for (JobNodeIndex s : sources) {
            if (s != job[i]) edges.emplace_back(s, job[i]);
          }
        } else {
          std::sort(sources.begin(), sources.end());
          sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
          through[i] = sources;
        }
      }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    if (edges.size() >= kNoJobNode) return Error{"chakra traces: more than 4 billion dependencies"};
    if (Status s = CheckAcyclic(edges); !s.ok()) return s;
    for (auto [from, to] : edges) builder_.AddEdge(from, to);
    return Status::Ok();
  }

  // Matching across ranks can close a cycle no single file has (rank 0
  // runs collective A then B, rank 1 runs B then A): name a node on it.
  Status CheckAcyclic(const std::vector<std::pair<JobNodeIndex, JobNodeIndex>>& edges) const {
    const size_t count = origin_.size();
    DependencyCsr csr;
    csr.Assign(count, edges);
    const std::vector<uint32_t> order = csr.TopologicalOrder();
    if (order.size() == count) return Status::Ok();
    std::vector<bool> left(count, true);
    for (uint32_t i : order) left[i] = false;
    // Every node left has a predecessor left; walking back must repeat.
    std::vector<JobNodeIndex> pred(count, kNoJobNode);
    for (auto [from, to] : edges) {
      if (left[from] && left[to]) pred[to] = from;
    }
    JobNodeIndex at = static_cast<JobNodeIndex>(std::find(left.begin(), left.end(), true) - left.begin());
    std::vector<bool> seen(count, false);
    while (!seen[at]) {
      seen[at] = true;
      at = pred[at];
    }
    return Error{Where(origin_[at]) +
                 "on a dependency cycle across ranks: collectives or send/recv pairs matched in trace order wait "
                 "for each other (the ranks would deadlock)"};
  }

  const std::vector<ChakraRankNodes>& ranks_;
  const ChakraNames& names_;
  const ChakraOptions& options_;
  JobGraphBuilder builder_;
  std::vector<uint32_t> labels_;                // ChakraNames index -> JobGraph label
  std::vector<std::vector<JobNodeIndex>> job_;  // rank -> node -> JobGraph node
  std::vector<RankNode> origin_;                // JobGraph node -> a node that made it
};

}  // namespace

Result<JobGraph> AssembleChakraJob(const std::vector<ChakraRankNodes>& ranks, const ChakraNames& names,
                                   const ChakraOptions& options) {
  if (ranks.empty()) return Error{"chakra traces: no trace files"};
  return Assembler(ranks, names, options).Run();
}

}  // namespace aifabric
