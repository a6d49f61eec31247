// The PFC rules: pause roots, pause cycles (pfc_deadlock_cycle) and paused
// ports that are not roots (pfc_pause). See diagnosis.h.
#include <algorithm>

#include "diagnosis/rules.h"

namespace aifabric {
namespace {

// Figures of the paused ports whose chains end at one root or cycle.
struct PauseTree {
  std::vector<PortId> paused;  // ascending
  int64_t pause_time_ns = 0;
  uint64_t frames = 0;
  int depth = 0;
  double paused_share = 0;     // sum of PausedShare over `paused`
  std::vector<int> transfers;  // crossing any of `paused`
};

void AddToTree(const DiagnosisContext& ctx, PortId p, PauseTree& tree) {
  tree.paused.push_back(p);
  tree.pause_time_ns += ctx.port(p).pause_time.ns();
  tree.frames += ctx.pauses().frames_paused[p];
  tree.depth = std::max(tree.depth, ctx.pauses().depth[p]);
  tree.paused_share += ctx.PausedShare(p);
  const std::vector<int>& on = ctx.transfers_on(p);
  tree.transfers.insert(tree.transfers.end(), on.begin(), on.end());
}

void TreeEvidence(const DiagnosisContext& ctx, const PauseTree& tree, nlohmann::ordered_json& evidence) {
  evidence["paused_ports"] = tree.paused.size();
  evidence["tree_pause_time_ns"] = tree.pause_time_ns;
  evidence["tree_frames"] = tree.frames;
  evidence["depth"] = tree.depth;
  nlohmann::ordered_json listed = nlohmann::ordered_json::array();
  for (PortId p : tree.paused) {
    if (listed.size() == ctx.options().max_flows) break;
    nlohmann::ordered_json entry = ctx.PortName(p);
    entry["pause_time_ns"] = ctx.port(p).pause_time.ns();
    entry["depth"] = ctx.pauses().depth[p];
    listed.push_back(std::move(entry));
  }
  evidence["paused"] = std::move(listed);
}

}  // namespace

std::vector<Candidate> FindPauseRoots(const DiagnosisContext& ctx) {
  const PauseForest& f = ctx.pauses();
  std::vector<PauseTree> trees(f.roots.size());
  const auto tree_of = [&](PortId root) {
    return std::lower_bound(f.roots.begin(), f.roots.end(), root) - f.roots.begin();
  };
  for (PortId p = 0; static_cast<size_t>(p) < ctx.num_ports(); ++p) {
    if (f.HasCause(p) && f.cycle[p] < 0) AddToTree(ctx, p, trees[tree_of(f.root[p])]);
  }
  std::vector<Candidate> out;
  for (size_t i = 0; i < f.roots.size(); ++i) {
    const PortId root = f.roots[i];
    PauseTree& tree = trees[i];
    const double share = ctx.PausedShare(root) + tree.paused_share;
    const std::vector<int>& on = ctx.transfers_on(root);
    tree.transfers.insert(tree.transfers.end(), on.begin(), on.end());
    Candidate c = MakeCandidate(ctx, kPfcPauseRoot, root, 0.5 + 0.5 * std::min(1.0, share),
                                std::move(tree.transfers));
    c.finding.evidence["frames_caused"] = f.frames_caused[root];
    TreeEvidence(ctx, tree, c.finding.evidence);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Candidate> FindPauseCycles(const DiagnosisContext& ctx) {
  const PauseForest& f = ctx.pauses();
  std::vector<PauseTree> feeders(f.cycles.size());
  for (PortId p = 0; static_cast<size_t>(p) < ctx.num_ports(); ++p) {
    if (f.cycle[p] >= 0 && f.depth[p] > 0) AddToTree(ctx, p, feeders[f.cycle[p]]);
  }
  std::vector<Candidate> out;
  for (size_t i = 0; i < f.cycles.size(); ++i) {
    const std::vector<PortId>& cycle = f.cycles[i];
    PauseTree& tree = feeders[i];
    nlohmann::ordered_json ports = nlohmann::ordered_json::array();
    int64_t cycle_pause_ns = 0;
    for (PortId p : cycle) {
      nlohmann::ordered_json entry = ctx.PortName(p);
      entry["pause_time_ns"] = ctx.port(p).pause_time.ns();
      entry["frames"] = f.frames_paused[p];
      ports.push_back(std::move(entry));
      cycle_pause_ns += ctx.port(p).pause_time.ns();
      const std::vector<int>& on = ctx.transfers_on(p);
      tree.transfers.insert(tree.transfers.end(), on.begin(), on.end());
    }
    Candidate c = MakeCandidate(ctx, kPfcDeadlockCycle, cycle.front(), 1.0, std::move(tree.transfers));
    c.finding.evidence["cycle_length"] = cycle.size();
    c.finding.evidence["cycle_pause_time_ns"] = cycle_pause_ns;
    c.finding.evidence["cycle"] = std::move(ports);
    TreeEvidence(ctx, tree, c.finding.evidence);
    c.covers.assign(cycle.begin() + 1, cycle.end());
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<Candidate> PausedPort(const DiagnosisContext& ctx, PortId p) {
  const PauseForest& f = ctx.pauses();
  if (!f.HasCause(p) && ctx.port(p).pause_time.ps() <= 0) return std::nullopt;
  Candidate c = MakeCandidate(ctx, kPfcPause, p, 0.5 * ctx.PausedShare(p), ctx.transfers_on(p));
  nlohmann::ordered_json& e = c.finding.evidence;
  e["frames"] = f.frames_paused[p];
  e["depth"] = f.depth[p];
  e["cause"] = f.HasCause(p) ? ctx.PortName(f.cause[p]) : nlohmann::ordered_json();
  e["root"] = f.root[p] != kNoPort && f.root[p] != p ? ctx.PortName(f.root[p]) : nlohmann::ordered_json();
  e["in_cycle_tree"] = f.cycle[p] >= 0;
  return c;
}

}  // namespace aifabric
