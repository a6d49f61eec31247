#include "calibrate/calibration_report.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace aifabric {
namespace {

template <typename... Args>
std::string Printf(const char* format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

std::string Percent(double predicted, double measured) {
  if (predicted <= 0) return "      -";
  return Printf("%+6.1f%%", 100 * RelativeError(predicted, measured));
}

std::string Us(double v) { return v > 0 ? Printf("%10.2f", v) : std::string("         -"); }

std::string Triple(const std::array<double, 3>& t) { return Printf("[%.6g, %.6g, %.6g]", t[0], t[1], t[2]); }

bool Fitted(const CalibrationFit& fit, CalibrationFigure figure) {
  for (const FittedFigure& f : fit.figures) {
    if (f.figure == figure) return true;
  }
  return false;
}

std::string LogNames(const std::vector<NcclTestsLog>& logs) {
  std::string s;
  for (const NcclTestsLog& l : logs) s += (s.empty() ? "" : ", ") + l.origin;
  return s;
}

std::string FiguresOf(const CalibrationFit& fit, std::initializer_list<CalibrationFigure> kinds) {
  std::string s;
  for (const FittedFigure& f : fit.figures) {
    for (CalibrationFigure k : kinds) {
      if (f.figure == k) s += (s.empty() ? "" : ", ") + f.Name() + Printf(" = %.6g", f.value);
    }
  }
  return s;
}

}  // namespace

CalibrationErrors MeanErrors(const CalibrationFit& fit, uint64_t min_bytes, uint64_t max_bytes) {
  CalibrationErrors e;
  for (const CalibrationPoint& p : fit.points) {
    if (p.bytes < min_bytes || p.bytes >= max_bytes) continue;
    ++e.points;
    e.start += std::fabs(RelativeError(p.start_us, p.measured_us));
    e.fitted += std::fabs(RelativeError(p.fitted_us, p.measured_us));
    if (p.held_out_size_us > 0) e.held_out_size += std::fabs(RelativeError(p.held_out_size_us, p.measured_us));
    if (p.held_out_log_us > 0) e.held_out_log += std::fabs(RelativeError(p.held_out_log_us, p.measured_us));
  }
  if (e.points > 0) {
    e.start /= e.points;
    e.fitted /= e.points;
    e.held_out_size /= e.points;
    e.held_out_log /= e.points;
  }
  return e;
}

std::string FormatCalibrationReport(const CalibrationFit& fit, const std::vector<NcclTestsLog>& logs,
                                    const std::string& cluster_name) {
  std::string s = Printf("# aifabric calibrate: %zu log(s), %zu sizes, cluster %s\n", logs.size(), fit.points.size(),
                         cluster_name.c_str());
  for (size_t l = 0; l < logs.size(); ++l) {
    const NcclTestsLog& g = logs[l];
    s += Printf("# log %zu: %s (%s from the %s, %d ranks", l + 1, g.origin.c_str(),
                std::string(CollectiveOpName(g.op)).c_str(), g.op_from.c_str(), g.ranks);
    if (g.hosts > 0) s += Printf(" on %d host(s)", g.hosts);
    if (!g.nccl_version.empty()) s += ", NCCL " + g.nccl_version;
    s += ")\n";
  }
  s += "# time: out-of-place, us; start: the model before the fit; held out: fitted without that size / that log\n";
  s += Printf("# %3s %12s %10s %10s %8s %10s %8s %10s %8s %10s %8s  %s\n", "log", "size", "measured", "start", "error",
              "fitted", "resid", "held-size", "error", "held-log", "error", "algo/proto");
  for (const CalibrationPoint& p : fit.points) {
    s += Printf("  %3zu %12llu %s %s %s %s %s %s %s %s %s  %s/%s\n", p.log + 1,
                static_cast<unsigned long long>(p.bytes), Us(p.measured_us).c_str(), Us(p.start_us).c_str(),
                Percent(p.start_us, p.measured_us).c_str(), Us(p.fitted_us).c_str(),
                Percent(p.fitted_us, p.measured_us).c_str(), Us(p.held_out_size_us).c_str(),
                Percent(p.held_out_size_us, p.measured_us).c_str(), Us(p.held_out_log_us).c_str(),
                Percent(p.held_out_log_us, p.measured_us).c_str(),
                std::string(CollectiveAlgorithmName(p.algorithm)).c_str(),
                std::string(CollectiveProtocolName(p.protocol)).c_str());
  }
  s += Printf("# fitted figures (%d iterations)\n", fit.iterations);
  for (const FittedFigure& f : fit.figures) {
    s += Printf("#   %-40s %10.4g -> %10.4g\n", f.Name().c_str(), f.start, f.value);
  }
  s += "# mean |error|      sizes    start   fitted  held-out size  held-out log\n";
  const uint64_t kMiB = 1ull << 20;
  const struct {
    const char* name;
    uint64_t min, max;
  } bands[] = {{"< 1 MiB", 1, kMiB},
               {"1 MiB - < 32 MiB", kMiB, 32 * kMiB},
               {">= 32 MiB", 32 * kMiB, std::numeric_limits<uint64_t>::max()},
               {"all", 1, std::numeric_limits<uint64_t>::max()}};
  for (const auto& b : bands) {
    const CalibrationErrors e = MeanErrors(fit, b.min, b.max);
    if (e.points == 0) continue;
    auto pct = [](double v, bool have) { return have ? Printf("%6.1f%%", 100 * v) : std::string("      -"); };
    const bool size_cv = fit.points.empty() || fit.points.front().held_out_size_us > 0;
    const bool log_cv = logs.size() > 1 && size_cv;
    s += Printf("#   %-16s %6d  %s  %s        %s       %s\n", b.name, e.points, pct(e.start, true).c_str(),
                pct(e.fitted, true).c_str(), pct(e.held_out_size, size_cv).c_str(),
                pct(e.held_out_log, log_cv).c_str());
  }
  return s;
}

std::string FormatCalibrationFile(const CalibrationFit& fit, const std::vector<NcclTestsLog>& logs,
                                  const std::string& cluster_file) {
  const CalibrationSpec& c = fit.calibration;
  const std::string from = "Fitted by aifabric calibrate (least squares through the simulator) to the nccl-tests logs " +
                           LogNames(logs) + " on the cluster " + cluster_file + ": ";
  std::string s =
      "# aifabric calibration, fitted by `aifabric calibrate` (docs/validation.md, \"Calibrating to your cluster\").\n"
      "# Name it in a scenario as `calibration: FILE`; it is merged over the built-in data/calibration.yaml.\n"
      "# Latencies in microseconds, each list [LL, LL128, Simple]; a protocol the logs did not run keeps\n"
      "# the figure it had before the fit.\n";
  const bool base = Fitted(fit, CalibrationFigure::kBaseLatency);
  const bool nvlink = Fitted(fit, CalibrationFigure::kNvlinkStepLatency);
  const bool net = Fitted(fit, CalibrationFigure::kNetStepLatency);
  if (base || nvlink || net) {
    s += "nccl:\n  source: >-\n    " + from +
         FiguresOf(fit, {CalibrationFigure::kBaseLatency, CalibrationFigure::kNvlinkStepLatency,
                         CalibrationFigure::kNetStepLatency}) +
         ".\n";
    if (base) s += "  base_latency_us:\n    ring: " + Triple(c.nccl_base_us.ring) + "\n";
    if (nvlink || net) s += "  hw_latency_us:\n";
    if (nvlink) s += "    nvlink:\n      ring: " + Triple(c.nccl_nvlink_us.ring) + "\n";
    if (net) s += "    net:\n      ring: " + Triple(c.nccl_net_us.ring) + "\n";
  }
  if (Fitted(fit, CalibrationFigure::kNvlinkEfficiency) || Fitted(fit, CalibrationFigure::kNicEfficiency) ||
      Fitted(fit, CalibrationFigure::kProtocolEfficiency)) {
    s += "bus_efficiency:\n";
    s += Printf("  nvlink: %.6g\n  nic: %.6g\n", c.nvlink_bus_efficiency, c.nic_bus_efficiency);
    s += "  protocol: " + Triple(c.protocol_bus_efficiency) + "\n";
    s += "  source: >-\n    " + from +
         FiguresOf(fit, {CalibrationFigure::kProtocolEfficiency, CalibrationFigure::kNvlinkEfficiency,
                         CalibrationFigure::kNicEfficiency}) +
         " (the other, if any, as before the fit).\n";
  }
  return s;
}

}  // namespace aifabric
