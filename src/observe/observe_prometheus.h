// ObservePrometheus reads a fabric's port counters over the last `window`
// from a Prometheus server and builds the FabricObservation the simulator
// builds (observe/counter_observation.h), for Diagnose. For each counter
// the exporter has (ExporterSchema), one instant query of its raw samples
// over the window, `<metric>[<window>s]` at /api/v1/query: the increase
// is summed sample to sample (a drop in value is a counter reset: the new
// value counts from 0, as Prometheus's increase() treats it) and divided by
// the span of the exporter's clock over the same samples (simulated
// seconds for aifabric's own endpoint, wall-clock seconds otherwise); the
// queue gauge's largest value is its peak. Raw samples, not rate(), so that
// bytes and clock are differenced over exactly the same scrapes (rate()
// extrapolates each series to the window's edges on its own).
// ObserveLoop runs it every `interval`. Both block on the network; the
// client is used from the calling thread only.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/fabric_observation.h"
#include "fabric/topology.h"
#include "observe/counter_observation.h"
#include "observe/exporter_schema.h"
#include "observe/prometheus_client.h"

namespace aifabric {

struct FabricReading {
  FabricObservation observation;
  std::vector<PortWindow> windows;    // by port id: what the counters said
  std::vector<std::string> queries;   // the PromQL sent, in order
  std::vector<std::string> warnings;  // Prometheus's warnings, and series skipped
  std::vector<std::string> unread;    // observation fields this exporter has no counter for
  size_t series = 0;                  // series read
};

// Errors name the query's URL: Prometheus unreachable or answering an
// error or non-JSON; a series whose labels name no port of `topology`
// (port_index.h); no transmitted-bytes series at all in the window (is
// Prometheus scraping the exporter?); the exporter's clock missing or not
// one series.
// REQUIRES: window > 0.
Result<FabricReading> ObservePrometheus(const PrometheusClient& client, const Topology& topology,
                                        const ExporterSchema& exporter, Time window);

// The same, over HTTP to `source`.
Result<FabricReading> ObservePrometheus(const PrometheusSource& source, const Topology& topology,
                                        const ExporterSchema& exporter, Time window);

struct ObserveLoopOptions {
  Time window = Time::FromSeconds(30);
  Time interval = Time::FromSeconds(5);  // from the start of one pass to the next
  int count = 0;                         // passes; 0 = until on_pass says stop
  // Read while waiting for the next pass (every 20 ms): once true, the loop
  // returns. Null: only count and on_pass stop it.
  const std::atomic<bool>* stop = nullptr;
};

// Runs ObservePrometheus every options.interval and hands each pass's
// result (numbered from 1) to `on_pass`; stops after options.count passes,
// when on_pass returns false, or when options.stop is set (a pass already
// asking Prometheus finishes first, at most its timeout). A failed pass is
// handed over too: the caller decides whether to go on.
void ObserveLoop(const PrometheusClient& client, const Topology& topology, const ExporterSchema& exporter,
                 const ObserveLoopOptions& options,
                 const std::function<bool(int pass, const Result<FabricReading>& reading)>& on_pass);

}  // namespace aifabric
