// RenderTimeseriesCsv writes a TimeSeriesStore as `timeseries.csv`, in long
// format: one row per kept point of each series, header
//   time_ns,node,port,priority,metric,value
// Rows are ordered by time, then by series id (or the order of `only`). Columns:
//  - time_ns: integer nanoseconds; a time that is not a whole nanosecond
//    (the store keeps picoseconds) prints with 3 decimals: 1.500;
//  - node: node_name(key.node), quoted as RFC 4180 asks if it holds a
//    comma, a quote or a line break;
//  - port: port_name(key.port) when given (aifabric names a port by the
//    node at its far end), else the integer; empty when -1;
//  - priority: the integer, empty when -1;
//  - metric: SaiName(metric, priority) from the metric catalog;
//  - value: integers exactly (up to 2^53), other values as the shortest
//    text that reads back to the same double (std::to_chars).
// What a value means after downsampling (a counter at that instant, a gauge
// the max over the span ending there) is said in time_series_store.h. The
// file has series() x points() rows, so the store's bound bounds it.
// WriteTimeseriesCsv streams the rows into a sink as it formats them (it
// holds each distinct node, port and metric field once and three indices
// per written series, not the file); RenderTimeseriesCsv returns the same
// bytes as a string. Pure functions of their inputs: the same store gives
// byte-identical text.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "core/text_sink.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

// Maps a node id to the node's name in the input topology.
using NameFn = std::function<std::string(int node)>;

// `only`: the series to write, in that order (REQUIRES: valid, distinct
// ids); empty: every series, in id order.
void WriteTimeseriesCsv(TextSink& out, const TimeSeriesStore& store, const NameFn& node_name,
                        const NameFn& port_name = nullptr, std::span<const int> only = {});
std::string RenderTimeseriesCsv(const TimeSeriesStore& store, const NameFn& node_name,
                                const NameFn& port_name = nullptr, std::span<const int> only = {});

}  // namespace aifabric
