// A paced load on `aifabric serve`: GET requests at a fixed total rate for
// a fixed time, spread over client threads, each a keep-alive connection
// sending on its own schedule (an open loop: a slow answer does not slow
// the schedule; a request late by more than its period is still sent and
// its latency counts from when it was due). Prints the requests sent, the
// errors (no answer, or a status other than 200), latency percentiles and
// the achieved rate. Used by bench/serve_load.sh.
//   serve_load_client PORT RATE_PER_S SECONDS THREADS PATH [PATH...]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: serve_load_client PORT RATE_PER_S SECONDS THREADS PATH [PATH...]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const double rate = std::atof(argv[2]);
  const double seconds = std::atof(argv[3]);
  const int threads = std::max(1, std::atoi(argv[4]));
  std::vector<std::string> paths(argv + 5, argv + argc);
  using Clock = std::chrono::steady_clock;
  const auto period = std::chrono::duration<double>(threads / rate);
  const size_t per_thread = static_cast<size_t>(rate * seconds / threads);
  std::vector<std::vector<double>> latencies_ms(static_cast<size_t>(threads));
  std::atomic<size_t> errors{0};
  const auto start = Clock::now() + std::chrono::milliseconds(100);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);
      client.set_read_timeout(5, 0);
      // Threads are offset within one period so the requests interleave.
      const auto first = start + std::chrono::duration_cast<Clock::duration>(period * (static_cast<double>(t) / threads));
      std::vector<double>& mine = latencies_ms[static_cast<size_t>(t)];
      mine.reserve(per_thread);
      for (size_t i = 0; i < per_thread; ++i) {
        const auto due = first + std::chrono::duration_cast<Clock::duration>(period * static_cast<double>(i));
        std::this_thread::sleep_until(due);
        httplib::Result r = client.Get(paths[(i + static_cast<size_t>(t)) % paths.size()].c_str());
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - due).count());
        if (!r || r->status != 200) ++errors;
      }
    });
  }
  for (std::thread& t : pool) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& v : latencies_ms) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(p * all.size()))]; };
  std::printf("requests %zu  errors %zu  achieved %.1f req/s over %.1f s\n", all.size(), errors.load(),
              static_cast<double>(all.size()) / elapsed, elapsed);
  std::printf("latency ms  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n", pct(0.50), pct(0.90), pct(0.99),
              pct(0.999), all.empty() ? 0.0 : all.back());
  return errors.load() == 0 ? 0 : 1;
}
