#include "telemetry/timeseries_csv.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "telemetry/number_text.h"

namespace aifabric {
namespace {

// "12," for 12,000 ps; "1.500," for 1,500 ps.
std::string TimeField(Time at) {
  assert(at >= Time::Zero());
  char buf[32];
  char* end = std::to_chars(buf, buf + 24, at.ps() / 1000).ptr;
  const int64_t ps = at.ps() % 1000;
  if (ps != 0) {
    *end++ = '.';
    *end++ = static_cast<char>('0' + ps / 100);
    *end++ = static_cast<char>('0' + ps / 10 % 10);
    *end++ = static_cast<char>('0' + ps % 10);
  }
  *end++ = ',';
  return std::string(buf, end);
}

void AppendCsvField(TextSink& out, const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    out.Append(field);
    return;
  }
  out.Append('"');
  for (char c : field) {
    if (c == '"') out.Append('"');
    out.Append(c);
  }
  out.Append('"');
}

// The fields of the written series' rows, each distinct one formatted
// once: a node's "name,", a port's "name," ("7," without port names, ","
// for -1) and a metric's "priority,SAI_NAME,". A row's prefix is one of
// each, so a series costs three indices, not a copy of its prefix.
class RowFields {
 public:
  struct Prefix {
    uint32_t node, port, metric;  // into fields
  };

  RowFields(const NameFn& node_name, const NameFn& port_name) : node_name_(node_name), port_name_(port_name) {}

  Prefix Of(const SeriesKey& key) {
    Prefix prefix;
    prefix.node = Field(nodes_, key.node, [&](TextSink& out) { AppendCsvField(out, node_name_(key.node)); });
    prefix.port = Field(ports_, key.port, [&](TextSink& out) {
      if (key.port == -1) return;
      if (port_name_) {
        AppendCsvField(out, port_name_(key.port));
      } else {
        AppendInt(out, key.port);
      }
    });
    const int64_t metric_key = static_cast<int64_t>(key.metric) << 32 | static_cast<uint32_t>(key.priority);
    prefix.metric = Field(metrics_, metric_key, [&](TextSink& out) {
      if (key.priority != -1) AppendInt(out, key.priority);
      out.Append(',');
      out.Append(SaiName(key.metric, key.priority));
    });
    return prefix;
  }
  std::string_view operator[](uint32_t i) const { return fields_[i]; }

 private:
  // The index of the field `id` has in `index`, formatted by `format` (then
  // a comma) the first time.
  template <typename Id, typename Format>
  uint32_t Field(std::unordered_map<Id, uint32_t>& index, Id id, const Format& format) {
    const auto [it, added] = index.try_emplace(id, static_cast<uint32_t>(fields_.size()));
    if (added) {
      StringSink text;
      format(text);
      text.Append(',');
      fields_.push_back(text.Take());
    }
    return it->second;
  }

  const NameFn& node_name_;
  const NameFn& port_name_;
  std::vector<std::string> fields_;
  std::unordered_map<int, uint32_t> nodes_;
  std::unordered_map<int, uint32_t> ports_;
  std::unordered_map<int64_t, uint32_t> metrics_;
};

}  // namespace

void WriteTimeseriesCsv(TextSink& out, const TimeSeriesStore& store, const NameFn& node_name, const NameFn& port_name,
                        std::span<const int> only) {
  std::vector<int> ids(only.begin(), only.end());
  if (ids.empty()) {
    ids.resize(store.series());
    for (size_t id = 0; id < ids.size(); ++id) ids[id] = static_cast<int>(id);
  }
  out.Append("time_ns,node,port,priority,metric,value\n");
  RowFields fields(node_name, port_name);
  std::vector<RowFields::Prefix> prefixes;
  prefixes.reserve(ids.size());
  for (int id : ids) prefixes.push_back(fields.Of(store.key(id)));
  const std::span<const Time> times = store.times();
  for (size_t j = 0; j < times.size(); ++j) {
    const std::string time = TimeField(times[j]);
    const std::span<const double> row = store.row(j);
    for (size_t k = 0; k < ids.size(); ++k) {
      const RowFields::Prefix& prefix = prefixes[k];
      out.Append(time);
      out.Append(fields[prefix.node]);
      out.Append(fields[prefix.port]);
      out.Append(fields[prefix.metric]);
      AppendNumber(out, row[static_cast<size_t>(ids[k])]);
      out.Append('\n');
    }
  }
}

std::string RenderTimeseriesCsv(const TimeSeriesStore& store, const NameFn& node_name, const NameFn& port_name,
                                std::span<const int> only) {
  StringSink out;
  WriteTimeseriesCsv(out, store, node_name, port_name, only);
  return out.Take();
}

}  // namespace aifabric
