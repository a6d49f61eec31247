#include "workload/collective_sweep_report.h"

#include <cstdio>

namespace aifabric {
namespace {

template <typename... Args>
std::string Printf(const char* format, Args... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

SweepHalf MakeHalf(CollectiveOp op, int32_t ranks, uint64_t bytes, Time time, bool reported) {
  SweepHalf half;
  half.time_us = time.us_f();
  half.bandwidth = BandwidthFor(op, ranks, bytes, time);
  half.wrong_reported = reported;
  return half;
}

std::string FormatHalf(const SweepHalf& h) {
  std::string s = "  ";
  s += FormatNcclTestsNumber(h.time_us, 7);
  s += "  ";
  s += FormatNcclTestsNumber(h.bandwidth.alg_gb_per_s, 6);
  s += "  ";
  s += FormatNcclTestsNumber(h.bandwidth.bus_gb_per_s, 6);
  s += h.wrong_reported ? "       0" : "    N/A";
  return s;
}

nlohmann::json HalfJson(const SweepHalf& h) {
  return {{"time", h.time_us},
          {"alg_bw", h.bandwidth.alg_gb_per_s},
          {"bus_bw", h.bandwidth.bus_gb_per_s},
          {"nwrong", h.wrong_reported ? nlohmann::json(0.0) : nlohmann::json(nullptr)}};
}

}  // namespace

SweepRow MakeSweepRow(CollectiveOp op, int32_t ranks, uint64_t requested_bytes, int32_t root,
                      Time out_of_place, Time in_place, bool data_check) {
  const NcclTestsSizes sizes = SizesFor(op, requested_bytes, ranks);
  SweepRow row;
  row.bytes = sizes.bytes;
  row.count = sizes.count;
  row.redop = NcclTestsRedop(op);
  row.root = NcclTestsRoot(op, root);
  const bool in_place_checked = op != CollectiveOp::kAllToAll && op != CollectiveOp::kSendRecv;
  row.out_of_place = MakeHalf(op, ranks, sizes.bytes, out_of_place, data_check);
  row.in_place = MakeHalf(op, ranks, sizes.bytes, in_place, data_check && in_place_checked);
  return row;
}

std::string FormatNcclTestsNumber(double value, int width) {
  int digits = 0;  // digits before the decimal point (0 below 1)
  for (double v = 1; value >= v && digits < 40; v *= 10) ++digits;
  if (digits < width - 2) return Printf("%*.2f", width, value);
  if (digits < width - 1) return Printf("%*.1f", width, value);
  if (digits < width + 1) return Printf("%*.0f", width, value);
  return width >= 7 ? Printf("%*.1e", width, value) : Printf("%*.0e", width, value);
}

std::string FormatSweepHeader() {
  std::string s = "#\n";
  s += Printf("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n",
              "", "", "", "", "");
  s += Printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size", "count",
              "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
              "#wrong");
  s += Printf("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)",
              "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
  return s;
}

std::string FormatSweepRow(const SweepRow& row) {
  std::string s = Printf("%12llu  %12llu  %8s  %6s  %6d", static_cast<unsigned long long>(row.bytes),
                         static_cast<unsigned long long>(row.count), row.type.c_str(), row.redop.c_str(),
                         row.root);
  s += FormatHalf(row.out_of_place);
  s += FormatHalf(row.in_place);
  s += "\n";
  return s;
}

double AverageBusBandwidth(const std::vector<SweepRow>& rows) {
  if (rows.empty()) return 0;
  double sum = 0;
  for (const SweepRow& r : rows) sum += r.out_of_place.bandwidth.bus_gb_per_s + r.in_place.bandwidth.bus_gb_per_s;
  return sum / static_cast<double>(2 * rows.size());
}

std::string FormatSweepFooter(double average_bus_gb_per_s, std::string_view program) {
  std::string s = "# Out of bounds values : 0 OK\n";
  s += Printf("# Avg bus bandwidth    : %g \n", average_bus_gb_per_s);
  s += "#\n# Collective test concluded: ";
  s += program;
  s += "\n#\n\n";
  return s;
}

std::string FormatSweepTable(const std::vector<SweepRow>& rows, std::string_view program) {
  std::string s = FormatSweepHeader();
  for (const SweepRow& r : rows) s += FormatSweepRow(r);
  s += FormatSweepFooter(AverageBusBandwidth(rows), program);
  return s;
}

nlohmann::json SweepJson(const std::vector<SweepRow>& rows, const SizeSweep& sweep, int32_t ranks,
                         nlohmann::json aifabric) {
  nlohmann::json config = {{"nthreads", 1},
                           {"ngpus", ranks},
                           {"minimum_bytes", sweep.min_bytes},
                           {"maximum_bytes", sweep.max_bytes}};
  if (sweep.step_factor > 1) {
    config["step_factor"] = sweep.step_factor;
  } else {
    config["step_bytes"] = sweep.step_bytes;
  }
  nlohmann::json results = nlohmann::json::array();
  for (const SweepRow& r : rows) {
    results.push_back({{"size", r.bytes},
                       {"count", r.count},
                       {"type", r.type},
                       {"redop", r.redop},
                       {"root", Printf("%6d", r.root)},
                       {"out_of_place", HalfJson(r.out_of_place)},
                       {"in_place", HalfJson(r.in_place)}});
  }
  return {{"version", 2},
          {"config", std::move(config)},
          {"results", std::move(results)},
          {"out_of_bounds", {{"count", 0}, {"okay", true}}},
          {"average_bus_bandwidth", {{"bandwidth", AverageBusBandwidth(rows)}, {"okay", "unchecked"}}},
          {"aifabric", std::move(aifabric)}};
}

}  // namespace aifabric
