#include "server/observe_task.h"

#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "diagnosis/diagnosis.h"
#include "observe/observe_outputs.h"
#include "observe/observe_prometheus.h"
#include "observe/observed_snapshot.h"
#include "report/output_folder.h"
#include "server/topology_json.h"
#include "server/whatif_request.h"

namespace aifabric {

Result<std::string> ObserveTask::Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& feed) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir + "/input", ec);
  if (ec) return Error{out_dir + "/input: " + ec.message()};
  if (Status s = WriteFileAtomically(out_dir + "/" + kAttachInputFile, text_); !s.ok()) return s.error();
  if (!spec_.scenario_text.empty()) {
    if (Status s = WriteWhatIfTemplate(out_dir, spec_); !s.ok()) return s.error();
  }
  const Topology& topology = *spec_.topology;
  if (Status s = WriteFileAtomically(out_dir + "/" + kRunTopologyFile, TopologyJson(topology).dump() + "\n"); !s.ok()) {
    return s.error();
  }
  PrometheusSource source;
  source.url = spec_.prometheus;
  source.timeout = spec_.timeout;
  Result<PrometheusFetch> fetch = HttpFetch(source);
  if (!fetch.ok()) return fetch.error();
  const PrometheusClient client(source.url, std::move(fetch).value());

  ObserveLoopOptions loop;
  loop.window = spec_.window;
  loop.interval = spec_.interval;
  loop.stop = hooks.cancel;
  const auto started = std::chrono::steady_clock::now();
  int passes = 0, failed = 0;
  std::string last_error;
  nlohmann::ordered_json top = nullptr;
  ObserveLoop(client, topology, *spec_.exporter, loop, [&](int pass, const Result<FabricReading>& reading) {
    passes = pass;
    if (!reading.ok()) {
      ++failed;
      last_error = reading.error().message;
      feed.Push("progress", nlohmann::ordered_json{{"progress", 0.0}, {"pass", pass}, {"error", last_error}}.dump());
      return true;
    }
    const ObservePass meta{pass, spec_.prometheus, spec_.exporter, spec_.window};
    Result<std::vector<Finding>> findings = WriteObservePass(out_dir, topology, *reading, meta);
    if (!findings.ok()) {
      ++failed;
      last_error = findings.error().message;
      feed.Push("progress", nlohmann::ordered_json{{"progress", 0.0}, {"pass", pass}, {"error", last_error}}.dump());
      return true;
    }
    last_error.clear();
    const Time elapsed = Time::FromNs(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count());
    feed.Push("progress",
              nlohmann::ordered_json{{"progress", 0.0}, {"pass", pass}, {"series", reading->series}}.dump());
    feed.Push("snapshot", ObservedSnapshotJson(topology, *reading, pass, spec_.window, elapsed).dump());
    const nlohmann::ordered_json diagnosis = FindingsJson(topology, *findings);
    for (const nlohmann::ordered_json& f : diagnosis["findings"]) feed.Push("finding", f.dump());
    top = findings->empty() ? nlohmann::ordered_json(nullptr) : diagnosis["findings"][0];
    return true;
  });
  nlohmann::ordered_json summary;
  summary["name"] = spec_.name;
  summary["prometheus"] = spec_.prometheus;
  summary["exporter"] = spec_.exporter->name;
  summary["passes"] = passes;
  summary["failed_passes"] = failed;
  summary["last_error"] = last_error;
  summary["top_finding"] = top;
  return summary.dump(2) + "\n";
}

}  // namespace aifabric
