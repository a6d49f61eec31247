// `aifabric observe`: every --interval, a real fabric's counters over the
// last --window from Prometheus (observe/observe_prometheus.h), diagnosed
// as a run's are, written to --out as diagnosis.json and observation.json;
// prints each pass's top finding. Bad input — the options, the topology
// file, and the first pass failing (Prometheus unreachable, an error
// answer, a series naming a port the topology lacks) — exits 2; a later
// pass that fails is reported and the loop goes on.
#include <cstdio>

#include "cli/commands.h"
#include "core/units.h"
#include "observe/observe_outputs.h"
#include "observe/observe_prometheus.h"
#include "observe/observed_topology.h"

namespace aifabric {
namespace {

Result<Time> PositiveTime(const std::string& option, const std::string& text) {
  Result<Time> t = ParseTime(text);
  if (!t.ok()) return Error{option + ": " + t.error().message};
  if (*t < Time::FromMs(1)) return Error{option + ": expected a duration of at least 1ms, got '" + text + "'"};
  return t;
}

std::string TopLine(const Topology& topology, const std::vector<Finding>& findings) {
  if (findings.empty()) return "no finding";
  const Finding& f = findings.front();
  char severity[32];
  std::snprintf(severity, sizeof severity, "%.3f", f.severity);
  return "top finding " + f.kind + " " + topology.node(f.node).name + " -> " + topology.node(f.port_peer).name +
         " (severity " + severity + ", " + std::to_string(findings.size()) + " finding" +
         (findings.size() == 1 ? "" : "s") + ")";
}

}  // namespace

int ObserveCommand(const ObserveCommandOptions& options) {
  Result<Time> window = PositiveTime("--window", options.window);
  if (!window.ok()) return ReportBadInput(window.error());
  Result<Time> interval = PositiveTime("--interval", options.interval);
  if (!interval.ok()) return ReportBadInput(interval.error());
  Result<Time> timeout = PositiveTime("--timeout", options.timeout);
  if (!timeout.ok()) return ReportBadInput(timeout.error());
  Result<const ExporterSchema*> exporter = FindExporter(options.exporter);
  if (!exporter.ok()) return ReportBadInput(exporter.error());
  Result<Topology> topology = ReadObservedTopology(options.topology, options.format);
  if (!topology.ok()) return ReportBadInput(topology.error());
  PrometheusSource source;
  source.url = options.prometheus;
  source.timeout = *timeout;
  Result<PrometheusFetch> fetch = HttpFetch(source);
  if (!fetch.ok()) return ReportBadInput(fetch.error());
  const PrometheusClient client(source.url, std::move(fetch).value());

  ObserveLoopOptions loop;
  loop.window = *window;
  loop.interval = *interval;
  loop.count = options.once ? 1 : options.count;
  int exit_code = kExitOk;
  ObserveLoop(client, *topology, **exporter, loop, [&](int pass, const Result<FabricReading>& reading) {
    if (!reading.ok()) {
      if (pass == 1) {
        exit_code = ReportBadInput(reading.error());
        return false;
      }
      std::fprintf(stderr, "aifabric: observe pass %d: %s\n", pass, reading.error().message.c_str());
      return true;
    }
    for (const std::string& w : reading->warnings) std::fprintf(stderr, "aifabric: prometheus: %s\n", w.c_str());
    const ObservePass meta{pass, source.url, *exporter, *window};
    Result<std::vector<Finding>> findings = WriteObservePass(options.out_dir, *topology, *reading, meta);
    if (!findings.ok()) {
      exit_code = ReportBadInput(findings.error());
      return false;
    }
    if (!options.quiet) {
      std::printf("observe pass %d: %zu series, %.6g s of %s time: %s\n", pass, reading->series,
                  static_cast<double>(reading->observation.active_time.ps()) * 1e-12,
                  (*exporter)->clock.empty() ? "wall" : "simulated", TopLine(*topology, *findings).c_str());
      std::fflush(stdout);
    }
    return true;
  });
  return exit_code;
}

}  // namespace aifabric
