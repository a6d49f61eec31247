#include "calibrate/collective_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "run/collective_run.h"

namespace aifabric {
namespace {

// Pull toward the starting figures, per unit of log(value / start): a
// figure e times its start costs what a 1% miss on one size does, so a
// split the logs cannot make (a base latency against its 2(n-1) per-step
// latencies, with one rank count) stays near the defaults' split. At 1e-3
// the undetermined splits drifted (LL128's base latency to 0.08 us on one
// A100 server, its per-step one to 6.7 us) for no better fit.
constexpr double kPriorWeight = 1e-2;
// Finite-difference step in log(value), downward: a NIC link runs at
// min(NIC rate, switch port rate), so a rate raised above the port rate
// would not move the model. 2%, not less: a step DAG's time is not smooth
// at fine scale (which of two transfers goes first flips with a 0.1%
// change of a latency; on 2 x 8 H100 NVLS with aggregated chunks, a 0.1%
// step moved the time by up to 1.7%, either way), and a secant over 2%
// gives the slope the fit needs where a tangent over 0.1% gives noise.
constexpr double kStep = -2e-2;
constexpr double kMaxLogChange = 6;    // a figure stays within e^6 (~400x) of its start

size_t Column(CollectiveProtocol p) {
  return p == CollectiveProtocol::kLl ? 0 : p == CollectiveProtocol::kLl128 ? 1 : 2;
}

// The rows of one log the fit runs together: the same forced choice (or none).
struct Group {
  std::optional<CollectiveAlgorithm> algorithm;
  std::optional<CollectiveProtocol> protocol;
  std::vector<size_t> points;  // indices into the point list
};

struct Target {
  const NcclTestsLog* log = nullptr;
  std::vector<Group> groups;
};

// NCCL's names as the INFO lines give them -> the model's, where it has them.
std::optional<CollectiveAlgorithm> ModelAlgorithm(const std::string& name) {
  if (name == "ring") return CollectiveAlgorithm::kRing;
  if (name == "tree") return CollectiveAlgorithm::kTree;
  if (name == "nvls") return CollectiveAlgorithm::kNvls;
  return std::nullopt;
}

class Fitter {
 public:
  Fitter(const Scenario& cluster, std::vector<Target> targets, std::vector<CalibrationPoint>& points,
         uint64_t max_dag_nodes)
      : cluster_(cluster), targets_(std::move(targets)), points_(points), max_dag_nodes_(max_dag_nodes) {}

  // The scenario with `figures` set to exp(u) x start.
  Scenario Apply(const std::vector<FittedFigure>& figures, const std::vector<double>& u) const {
    Scenario s = cluster_;
    CalibrationSpec c = cluster_.calibration_spec();
    for (size_t i = 0; i < figures.size(); ++i) {
      const FittedFigure& f = figures[i];
      const double v = f.start * std::exp(u[i]);
      const size_t col = Column(f.protocol);
      switch (f.figure) {
        case CalibrationFigure::kBaseLatency: c.nccl_base_us.ring[col] = v; break;
        case CalibrationFigure::kNvlinkStepLatency: c.nccl_nvlink_us.ring[col] = v; break;
        case CalibrationFigure::kNetStepLatency: c.nccl_net_us.ring[col] = v; break;
        case CalibrationFigure::kProtocolEfficiency: c.protocol_bus_efficiency[col] = v; break;
        case CalibrationFigure::kNvlinkEfficiency:
          s.server.nvlink_per_dir = DataRate::BitsPerSecond(
              static_cast<uint64_t>(cluster_.server.nvlink_per_dir.bps() * std::exp(u[i]) + 0.5));
          c.nvlink_bus_efficiency = v;
          break;
        case CalibrationFigure::kNicEfficiency:
          s.topology.nic_rate =
              DataRate::BitsPerSecond(static_cast<uint64_t>(cluster_.topology.nic_rate.bps() * std::exp(u[i]) + 0.5));
          c.nic_bus_efficiency = v;
          break;
      }
    }
    s.calibration = std::move(c);
    return s;
  }

  // The largest log(value / start) figure f may take: a protocol's or the
  // NIC's efficiency is a fraction of a rate (at most 1), NVLink's may
  // reach the GPU's raw NVLink rate (the catalog's nvlink_per_dir) from
  // the achievable one the scenario starts from; latencies only the
  // general limit.
  double MaxLogChange(const FittedFigure& f) const {
    switch (f.figure) {
      case CalibrationFigure::kProtocolEfficiency:
      case CalibrationFigure::kNicEfficiency: return std::clamp(-std::log(f.start), 0.0, kMaxLogChange);
      case CalibrationFigure::kNvlinkEfficiency: {
        const double raw_bps = cluster_.gpu.nvlink_gbps_per_dir * 8e9;
        const double bps = static_cast<double>(cluster_.server.nvlink_per_dir.bps());
        if (raw_bps <= 0 || bps <= 0) return kMaxLogChange;
        return std::clamp(std::log(raw_bps / bps), 0.0, kMaxLogChange);
      }
      default: return kMaxLogChange;
    }
  }

  // Model times (us) of every point of the targets whose log is not
  // `skip_log`; records the algorithm and protocol if `record`.
  Result<std::vector<double>> Evaluate(const std::vector<FittedFigure>& figures, const std::vector<double>& u,
                                       bool record) {
    const Scenario s = Apply(figures, u);
    std::vector<double> times(points_.size(), 0);
    for (const Target& t : targets_) {
      for (const Group& g : t.groups) {
        CollectiveRequest r;
        r.op = t.log->op;
        r.gpus = t.log->ranks;
        r.algorithm = g.algorithm;
        r.protocol = g.protocol;
        r.max_dag_nodes = max_dag_nodes_;
        for (size_t p : g.points) r.sizes.push_back(points_[p].bytes);
        Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, r);
        if (!sweep.ok()) return Error{t.log->origin + ": " + sweep.error().message};
        for (size_t k = 0; k < g.points.size(); ++k) {
          times[g.points[k]] = sweep->times[k].us_f();
          if (record) {
            points_[g.points[k]].algorithm = ResolveAlgorithm(t.log->op, sweep->algorithms[k]);
            points_[g.points[k]].protocol = sweep->protocols[k];
          }
        }
      }
    }
    ++evaluations_;
    return times;
  }

  // Residuals over the points in `use` (relative errors), then the prior's.
  static std::vector<double> Residuals(const std::vector<double>& times, const std::vector<CalibrationPoint>& points,
                                       const std::vector<bool>& use, const std::vector<double>& u) {
    std::vector<double> r;
    for (size_t i = 0; i < points.size(); ++i) {
      if (use[i]) r.push_back(RelativeError(times[i], points[i].measured_us));
    }
    for (double x : u) r.push_back(kPriorWeight * x);
    return r;
  }

  static double Cost(const std::vector<double>& r) {
    double c = 0;
    for (double x : r) c += x * x;
    return c;
  }

  // Levenberg-Marquardt from u = 0 over the points in `use`.
  Result<std::vector<double>> Fit(const std::vector<FittedFigure>& figures, const std::vector<bool>& use,
                                  int max_iterations, int& iterations) {
    const size_t n = figures.size();
    std::vector<double> u(n, 0.0);
    std::vector<double> upper(n);
    for (size_t a = 0; a < n; ++a) upper[a] = MaxLogChange(figures[a]);
    Result<std::vector<double>> t0 = Evaluate(figures, u, false);
    if (!t0.ok()) return t0.error();
    std::vector<double> r = Residuals(*t0, points_, use, u);
    double cost = Cost(r);
    double lambda = 1e-3;
    iterations = 0;
    for (int it = 0; it < max_iterations && n > 0; ++it) {
      ++iterations;
      // Jacobian by forward differences.
      std::vector<std::vector<double>> J(r.size(), std::vector<double>(n, 0.0));
      for (size_t j = 0; j < n; ++j) {
        std::vector<double> uj = u;
        uj[j] += kStep;
        Result<std::vector<double>> tj = Evaluate(figures, uj, false);
        if (!tj.ok()) return tj.error();
        const std::vector<double> rj = Residuals(*tj, points_, use, uj);
        for (size_t i = 0; i < r.size(); ++i) J[i][j] = (rj[i] - r[i]) / kStep;
      }
      std::vector<std::vector<double>> JtJ(n, std::vector<double>(n, 0.0));
      std::vector<double> Jtr(n, 0.0);
      for (size_t i = 0; i < r.size(); ++i) {
        for (size_t a = 0; a < n; ++a) {
          Jtr[a] += J[i][a] * r[i];
          for (size_t b = 0; b < n; ++b) JtJ[a][b] += J[i][a] * J[i][b];
        }
      }
      bool improved = false;
      for (int tries = 0; tries < 12 && !improved; ++tries) {
        std::vector<std::vector<double>> A = JtJ;
        // Levenberg's damping, lambda x I in the figures' logarithms (not
        // Marquardt's lambda x diag(JtJ)): a step is measured in
        // multiples of each figure, so where the logs cannot tell two
        // figures apart the step moves the one the times answer most to.
        // Marquardt's scaling did the opposite: a 19% gap across servers
        // went into an 84x base latency (8.4 -> 703 us) rather than a 20%
        // lower NVLink efficiency, the figure that moves all sizes alike.
        for (size_t a = 0; a < n; ++a) A[a][a] += lambda;
        std::vector<double> delta = Solve(A, Jtr);
        std::vector<double> trial = u;
        for (size_t a = 0; a < n; ++a) trial[a] = std::clamp(u[a] - delta[a], -kMaxLogChange, upper[a]);
        Result<std::vector<double>> tt = Evaluate(figures, trial, false);
        if (!tt.ok()) return tt.error();
        const std::vector<double> rt = Residuals(*tt, points_, use, trial);
        const double ct = Cost(rt);
        if (ct < cost) {
          const double gain = cost - ct;
          u = trial;
          r = rt;
          cost = ct;
          lambda = std::max(lambda / 3, 1e-9);
          improved = true;
          if (gain < 1e-12 + 1e-6 * cost) return u;  // converged: less than a millionth better
        } else {
          lambda *= 4;
        }
      }
      if (!improved) break;  // no step lowers the cost: a minimum (to the model's resolution)
    }
    return u;
  }

  int evaluations() const { return evaluations_; }

 private:
  // Gaussian elimination with partial pivoting; a singular pivot gives 0.
  static std::vector<double> Solve(std::vector<std::vector<double>> A, std::vector<double> b) {
    const size_t n = b.size();
    for (size_t c = 0; c < n; ++c) {
      size_t p = c;
      for (size_t i = c + 1; i < n; ++i) {
        if (std::fabs(A[i][c]) > std::fabs(A[p][c])) p = i;
      }
      std::swap(A[c], A[p]);
      std::swap(b[c], b[p]);
      if (std::fabs(A[c][c]) < 1e-300) continue;
      for (size_t i = c + 1; i < n; ++i) {
        const double f = A[i][c] / A[c][c];
        for (size_t k = c; k < n; ++k) A[i][k] -= f * A[c][k];
        b[i] -= f * b[c];
      }
    }
    std::vector<double> x(n, 0.0);
    for (size_t c = n; c-- > 0;) {
      double s = b[c];
      for (size_t k = c + 1; k < n; ++k) s -= A[c][k] * x[k];
      x[c] = std::fabs(A[c][c]) < 1e-300 ? 0 : s / A[c][c];
    }
    return x;
  }

  const Scenario& cluster_;
  std::vector<Target> targets_;
  std::vector<CalibrationPoint>& points_;
  const uint64_t max_dag_nodes_;
  int evaluations_ = 0;
};

// Checks a log against the cluster; errors name the log.
Status CheckLog(const Scenario& cluster, const NcclTestsLog& log) {
  const int gps = cluster.server.gpus_per_server;
  const int gpus = gps * cluster.topology.servers;
  if (log.ranks <= 0) {
    return Error{log.origin + ": the number of ranks is unknown (the log has no '#  Rank' lines and its busbw/algbw "
                              "does not tell it); keep the lines nccl-tests prints above the table"};
  }
  if (log.ranks > gpus) {
    return Error{log.origin + ": " + std::to_string(log.ranks) + " ranks, but the cluster has " +
                 std::to_string(gpus) + " GPUs"};
  }
  const int servers = (log.ranks + gps - 1) / gps;
  if (log.hosts > 0 && log.hosts != servers) {
    return Error{log.origin + ": " + std::to_string(log.ranks) + " ranks on " + std::to_string(log.hosts) +
                 " host(s), but the cluster's servers hold " + std::to_string(gps) +
                 " GPUs each, so the model would run them on " + std::to_string(servers) +
                 "; use a --cluster scenario whose gpus_per_server is the log's ranks per host"};
  }
  return {};
}

}  // namespace

std::string FittedFigure::Name() const {
  std::string p = "[";
  p += CollectiveProtocolName(protocol);
  p += "]";
  switch (figure) {
    case CalibrationFigure::kBaseLatency: return "nccl.base_latency_us.ring" + p;
    case CalibrationFigure::kNvlinkStepLatency: return "nccl.hw_latency_us.nvlink.ring" + p;
    case CalibrationFigure::kNetStepLatency: return "nccl.hw_latency_us.net.ring" + p;
    case CalibrationFigure::kProtocolEfficiency: return "bus_efficiency.protocol" + p;
    case CalibrationFigure::kNvlinkEfficiency: return "bus_efficiency.nvlink";
    case CalibrationFigure::kNicEfficiency: break;
  }
  return "bus_efficiency.nic";
}

Result<CalibrationFit> FitCollectiveCalibration(const Scenario& cluster, const std::vector<NcclTestsLog>& logs,
                                                const CalibrationFitOptions& options) {
  if (logs.empty()) return Error{"no logs to fit"};
  CalibrationFit fit;
  std::vector<Target> targets;
  bool intra = false, inter = false;
  for (size_t l = 0; l < logs.size(); ++l) {
    const NcclTestsLog& log = logs[l];
    if (Status s = CheckLog(cluster, log); !s.ok()) return s.error();
    const int per_server = std::min(log.ranks, cluster.server.gpus_per_server);
    intra |= per_server > 1;
    inter |= log.ranks > per_server;
    Target t;
    t.log = &log;
    std::map<std::pair<int, int>, size_t> group_of;  // (algorithm, protocol) or -1 -> group
    for (const NcclTestsRow& row : log.rows) {
      if (row.bytes == 0) continue;
      CalibrationPoint p;
      p.log = l;
      p.bytes = row.bytes;
      p.measured_us = row.out_of_place.time_us;
      std::optional<CollectiveAlgorithm> algorithm = ModelAlgorithm(row.algorithm);
      std::optional<CollectiveProtocol> protocol;
      if (Result<CollectiveProtocol> pr = ParseCollectiveProtocol(row.protocol); pr.ok()) protocol = *pr;
      if (!algorithm || !protocol) algorithm.reset(), protocol.reset();
      const std::pair<int, int> key{algorithm ? static_cast<int>(*algorithm) : -1,
                                    protocol ? static_cast<int>(*protocol) : -1};
      auto [it, added] = group_of.emplace(key, t.groups.size());
      if (added) t.groups.push_back(Group{algorithm, protocol, {}});
      t.groups[it->second].points.push_back(fit.points.size());
      fit.points.push_back(p);
    }
    if (t.groups.empty()) return Error{log.origin + ": no row with a size > 0 to fit"};
    targets.push_back(std::move(t));
  }

  Fitter fitter(cluster, std::move(targets), fit.points, options.max_dag_nodes);
  // The protocols the sizes run with the starting figures choose the latencies to fit.
  Result<std::vector<double>> start = fitter.Evaluate({}, {}, true);
  if (!start.ok()) return start.error();
  const CalibrationSpec& c0 = cluster.calibration_spec();
  bool used[3] = {false, false, false};
  for (size_t i = 0; i < fit.points.size(); ++i) {
    fit.points[i].start_us = (*start)[i];
    used[Column(fit.points[i].protocol)] = true;
  }
  auto positive = [](double v) { return v > 0 ? v : 1.0; };
  for (CollectiveProtocol p : {CollectiveProtocol::kLl, CollectiveProtocol::kLl128, CollectiveProtocol::kSimple}) {
    const size_t col = Column(p);
    if (!used[col]) continue;
    fit.figures.push_back({CalibrationFigure::kBaseLatency, p, positive(c0.nccl_base_us.ring[col]), 0});
    if (intra) fit.figures.push_back({CalibrationFigure::kNvlinkStepLatency, p, positive(c0.nccl_nvlink_us.ring[col]), 0});
    if (inter) fit.figures.push_back({CalibrationFigure::kNetStepLatency, p, positive(c0.nccl_net_us.ring[col]), 0});
    if (p != CollectiveProtocol::kSimple) {
      fit.figures.push_back({CalibrationFigure::kProtocolEfficiency, p, c0.protocol_bus_efficiency[col], 0});
    }
  }
  if (intra) fit.figures.push_back({CalibrationFigure::kNvlinkEfficiency, CollectiveProtocol::kSimple, c0.nvlink_bus_efficiency, 0});
  if (inter) fit.figures.push_back({CalibrationFigure::kNicEfficiency, CollectiveProtocol::kSimple, c0.nic_bus_efficiency, 0});

  const std::vector<bool> all(fit.points.size(), true);
  Result<std::vector<double>> u = fitter.Fit(fit.figures, all, options.max_iterations, fit.iterations);
  if (!u.ok()) return u.error();
  for (size_t i = 0; i < fit.figures.size(); ++i) fit.figures[i].value = fit.figures[i].start * std::exp((*u)[i]);
  Result<std::vector<double>> fitted = fitter.Evaluate(fit.figures, *u, true);
  if (!fitted.ok()) return fitted.error();
  for (size_t i = 0; i < fit.points.size(); ++i) fit.points[i].fitted_us = (*fitted)[i];
  fit.calibration = *fitter.Apply(fit.figures, *u).calibration;

  if (options.cross_validate) {
    int unused = 0;
    const int cv_iterations = std::min(options.max_iterations, 20);
    for (size_t k = 0; k < fit.points.size(); ++k) {
      std::vector<bool> use = all;
      use[k] = false;
      Result<std::vector<double>> uk = fitter.Fit(fit.figures, use, cv_iterations, unused);
      if (!uk.ok()) return uk.error();
      Result<std::vector<double>> tk = fitter.Evaluate(fit.figures, *uk, false);
      if (!tk.ok()) return tk.error();
      fit.points[k].held_out_size_us = (*tk)[k];
    }
    if (logs.size() > 1) {
      for (size_t l = 0; l < logs.size(); ++l) {
        std::vector<bool> use(fit.points.size());
        for (size_t i = 0; i < fit.points.size(); ++i) use[i] = fit.points[i].log != l;
        Result<std::vector<double>> ul = fitter.Fit(fit.figures, use, cv_iterations, unused);
        if (!ul.ok()) return ul.error();
        Result<std::vector<double>> tl = fitter.Evaluate(fit.figures, *ul, false);
        if (!tl.ok()) return tl.error();
        for (size_t i = 0; i < fit.points.size(); ++i) {
          if (fit.points[i].log == l) fit.points[i].held_out_log_us = (*tl)[i];
        }
      }
    }
  }
  return fit;
}

}  // namespace aifabric
