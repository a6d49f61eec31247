#include "telemetry/timeseries_csv.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

namespace aifabric {
namespace {

constexpr double kExactIntegerLimit = 9007199254740992.0;  // 2^53

void AppendInt(std::string& out, int64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  assert(ec == std::errc());
  out.append(buf, end);
}

void AppendValue(std::string& out, double v) {
  if (v == std::trunc(v) && std::fabs(v) < kExactIntegerLimit) {
    AppendInt(out, static_cast<int64_t>(v));  // also turns -0 into 0
    return;
  }
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  assert(ec == std::errc());
  out.append(buf, end);
}

// "12" for 12,000 ps; "1.500" for 1,500 ps.
std::string TimeNs(Time at) {
  assert(at >= Time::Zero());
  std::string out;
  AppendInt(out, at.ps() / 1000);
  const int64_t ps = at.ps() % 1000;
  if (ps != 0) {
    out += '.';
    out += static_cast<char>('0' + ps / 100);
    out += static_cast<char>('0' + ps / 10 % 10);
    out += static_cast<char>('0' + ps % 10);
  }
  return out;
}

void AppendCsvField(std::string& out, const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    out += field;
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// "node,port,priority,metric," of one series.
std::string RowPrefix(const SeriesKey& key, const NameFn& node_name, const NameFn& port_name) {
  std::string out;
  AppendCsvField(out, node_name(key.node));
  out += ',';
  if (key.port != -1) {
    if (port_name) {
      AppendCsvField(out, port_name(key.port));
    } else {
      AppendInt(out, key.port);
    }
  }
  out += ',';
  if (key.priority != -1) AppendInt(out, key.priority);
  out += ',';
  out += SaiName(key.metric, key.priority);
  out += ',';
  return out;
}

}  // namespace

std::string RenderTimeseriesCsv(const TimeSeriesStore& store, const NameFn& node_name, const NameFn& port_name,
                                std::span<const int> only) {
  std::vector<int> ids(only.begin(), only.end());
  if (ids.empty()) {
    ids.resize(store.series());
    for (size_t id = 0; id < ids.size(); ++id) ids[id] = static_cast<int>(id);
  }
  std::string out = "time_ns,node,port,priority,metric,value\n";
  std::vector<std::string> prefixes;
  prefixes.reserve(ids.size());
  for (int id : ids) prefixes.push_back(RowPrefix(store.key(id), node_name, port_name));
  const std::span<const Time> times = store.times();
  for (size_t j = 0; j < times.size(); ++j) {
    const std::string time = TimeNs(times[j]);
    const std::span<const double> row = store.row(j);
    for (size_t k = 0; k < ids.size(); ++k) {
      out += time;
      out += ',';
      out += prefixes[k];
      AppendValue(out, row[static_cast<size_t>(ids[k])]);
      out += '\n';
    }
  }
  return out;
}

}  // namespace aifabric
