#include "api/inference_run.h"

#include <chrono>

#include <fmt/format.h>

#include "api/fabric_setup.h"
#include "api/job_run.h"
#include "api/run_telemetry.h"
#include "flow/gpu_network.h"
#include "telemetry/progress_reporter.h"

namespace aifabric {

Result<InferenceRunResult> RunInferenceService(const Scenario& scenario, const Scenario::Inference& inference,
                                               const LiveHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  Simulator sim(scenario.seed);
  FabricModel model(sim, scenario, *fabric);
  GpuNetwork gpus(sim, fabric->layout, model.network());
  const std::unique_ptr<RunTelemetry> telemetry =
      MakeRunTelemetry(sim, scenario, fabric->topology, model.packet(), model.flow());
  ServeLive(telemetry.get(), hooks, fabric->topology, [&model] { return TransfersCompleted(model); });
  if (telemetry) telemetry->Start();
  std::unique_ptr<ProgressReporter> progress;
  if (hooks.progress) progress = std::make_unique<ProgressReporter>(sim, ProgressOptions{});
  Result<InferenceResult> result = RunInference(sim, gpus, fabric->layout, inference.spec);
  if (progress) progress->Finish();
  if (!result.ok()) return Error{inference.path + ": " + result.error().message};
  if (telemetry) telemetry->Finish();
  InferenceRunResult r;
  r.result = std::move(result).value();
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (scenario.telemetry.enabled) {
    const InferenceSummary& m = r.result.summary;
    const nlohmann::ordered_json summary = {{"scenario", scenario.name},
                                            {"service", inference.path},
                                            {"model", scenario.model},
                                            {"requests", m.requests},
                                            {"ttft_p50_ms", m.ttft.p50_ms},
                                            {"ttft_p99_ms", m.ttft.p99_ms},
                                            {"tpot_p50_ms", m.tpot.p50_ms},
                                            {"tpot_p99_ms", m.tpot.p99_ms},
                                            {"goodput_per_s", m.goodput_per_s},
                                            {"events", r.events}};
    Result<std::vector<std::pair<std::string, std::string>>> files = FabricTelemetryFiles(
        scenario, fabric->topology, model, telemetry.get(), sim.Now(), summary, [&r](ChromeTrace& trace) {
          const std::vector<InferenceRequestRecord>& requests = r.result.requests;
          for (size_t i = 0; i < requests.size(); ++i) {
            const InferenceRequestRecord& q = requests[i];
            const int process = trace.Process("replica " + std::to_string(q.replica));
            const int track = trace.Track(process, "requests");
            trace.Slice(track, "request " + std::to_string(i), "request", q.arrival, q.finish,
                        {{"input_tokens", q.input_tokens},
                         {"output_tokens", q.output_tokens},
                         {"ttft_ms", q.ttft_ms()},
                         {"decode_replica", q.decode_replica}});
          }
        });
    if (!files.ok()) return Error{inference.path + ": " + files.error().message};
    r.telemetry_files = std::move(files).value();
  }
  return r;
}

std::string InferenceRequestsCsv(const InferenceResult& result) {
  std::string out = "request_id,arrival_us,input_tokens,output_tokens,replica,decode_replica,ttft_ms,tpot_ms,e2e_ms\n";
  for (size_t i = 0; i < result.requests.size(); ++i) {
    const InferenceRequestRecord& r = result.requests[i];
    out += fmt::format("{},{:.3f},{},{},{},{},{:.6f},{},{:.6f}\n", i, r.arrival.us_f(), r.input_tokens,
                       r.output_tokens, r.replica, r.decode_replica, r.ttft_ms(),
                       r.has_tpot() ? fmt::format("{:.6f}", r.tpot_ms()) : std::string(), r.e2e_ms());
  }
  return out;
}

}  // namespace aifabric
