// The load curve of docs/inference.md: Llama 3 70B served by 2 replicas of
// TP8 on 2 servers x 8 H100 (NVLink inside a server through GpuNetwork's
// fluid model; between servers a contention-free fabric of 400 Gb/s per
// transfer and 2 us, which TP8 inside a server never uses), Poisson
// arrivals of prompts of 512..2048 tokens answered with 128..384 tokens,
// swept over arrival rates. Prints a Markdown table. Usage:
//   inference_load_curve [--requests N] [--block K] [--seed S] [--disaggregated] [RATE ...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "flow/gpu_network.h"
#include "workload/inference_sweep.h"

namespace {

using namespace aifabric;

// Every transfer takes latency + bytes / rate, however many run at once.
class ContentionFreeFabric final : public NetworkModel {
 public:
  ContentionFreeFabric(Simulator& sim, Time latency, DataRate rate) : sim_(sim), latency_(latency), rate_(rate) {}
  void StartTransfer(const TransferRequest& r) override {
    sim_.ScheduleCallback(sim_.Now() + latency_ + rate_.TransmitTime(r.bytes),
                          [this, id = r.id] { observer_->OnTransferDone(id, sim_.Now()); });
  }
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  const char* name() const override { return "contention-free"; }

 private:
  Simulator& sim_;
  const Time latency_;
  const DataRate rate_;
  TransferObserver* observer_ = nullptr;
};

// GpuNetwork over its own contention-free fabric.
class GpuOverContentionFree final : public NetworkModel {
 public:
  GpuOverContentionFree(Simulator& sim, const ClusterLayout& layout)
      : fabric_(sim, Time::FromUs(2), DataRate::Gbps(400)), gpu_(sim, layout, fabric_) {}
  void StartTransfer(const TransferRequest& r) override { gpu_.StartTransfer(r); }
  void SetObserver(TransferObserver* observer) override { gpu_.SetObserver(observer); }
  const char* name() const override { return "gpu+contention-free"; }

 private:
  ContentionFreeFabric fabric_;
  GpuNetwork gpu_;
};

}  // namespace

int main(int argc, char** argv) {
  uint32_t requests = 400;
  int32_t block = 80;
  uint64_t seed = 1;
  bool disaggregated = false;
  std::vector<double> rates;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--requests") == 0 && i + 1 < argc) {
      requests = static_cast<uint32_t>(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
      block = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = static_cast<uint64_t>(std::atoll(argv[++i]));
    } else if (std::strcmp(argv[i], "--disaggregated") == 0) {
      disaggregated = true;
    } else {
      rates.push_back(std::atof(argv[i]));
    }
  }
  if (rates.empty()) rates = {1, 2, 4, 6, 8, 10, 12, 14, 16};

  Topology topology;
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < 8; ++r) {
      std::string name = "h";
      name += std::to_string(topology.num_nodes());
      topology.AddHost(std::move(name), s, r);
    }
  }
  const ClusterLayout layout = ClusterLayout::Build(topology, ServerSpec{}).value();  // 8 GPUs, 450 GB/s NVLink

  InferenceSpec spec;  // Llama 3 70B on H100
  spec.tp = 8;
  spec.replicas = 2;
  spec.disaggregated = disaggregated;
  spec.prefill_replicas = 1;
  spec.decode_replicas = 1;
  spec.router = InferenceRouter::kLeastLoaded;
  spec.num_requests = requests;
  spec.input_tokens_min = 512;
  spec.input_tokens_max = 2048;
  spec.output_tokens_min = 128;
  spec.output_tokens_max = 384;
  spec.layers_per_block = block;

  const auto start = std::chrono::steady_clock::now();
  const Result<std::vector<InferenceLoadPoint>> sweep = SweepInferenceLoad(
      layout, spec, rates, seed,
      [&layout](Simulator& sim) -> std::unique_ptr<NetworkModel> {
        return std::make_unique<GpuOverContentionFree>(sim, layout);
      });
  if (!sweep.ok()) {
    std::fprintf(stderr, "inference_load_curve: %s\n", sweep.error().message.c_str());
    return 2;
  }
  std::printf("| rate (req/s) | TTFT p50 (ms) | TTFT p99 (ms) | TPOT p50 (ms) | TPOT p99 (ms) | output tok/s | "
              "goodput (req/s) | SLO met | mean batch (seqs) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const InferenceLoadPoint& p : *sweep) {
    const InferenceSummary& s = p.summary;
    std::printf("| %g | %.1f | %.1f | %.2f | %.2f | %.0f | %.2f | %.0f%% | %.1f |\n", p.rate_per_s, s.ttft.p50_ms,
                s.ttft.p99_ms, s.tpot.p50_ms, s.tpot.p99_ms, s.output_tokens_per_s, s.goodput_per_s,
                100 * s.slo_attainment, s.mean_batch_sequences);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%zu rates, %u requests each, layers_per_block %d: %.1f s wall\n", rates.size(), requests, block,
               wall);
  return 0;
}
