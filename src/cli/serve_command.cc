// `aifabric serve`: the REST API, run store and live feed
// (server/api_server.h, docs/serve.md) until SIGINT or SIGTERM, which stop
// it: queued runs fail and running ones are cancelled ("server stopped"),
// attached fabrics end done. Each --attach FILE is attached afresh at
// every start.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "core/units.h"
#include "server/api_server.h"

namespace aifabric {

int ServeCommand(const ServeCommandOptions& options) {
  ServeOptions serve;
  serve.bind = options.bind;
  serve.port = options.port;
  serve.store_dir = options.store_dir;
  serve.token = options.token;
  serve.workers = options.workers;
  serve.limits.max_body_bytes = options.max_body_bytes;
  serve.limits.max_hosts = options.max_hosts;
  serve.limits.max_events = options.max_events;
  serve.limits.max_plan_work = options.max_plan_work;
  serve.max_attachments = options.max_attachments;
  serve.attach_files = options.attach;
  Result<Time> until = ParseTime(options.max_sim_time);
  if (!until.ok()) return ReportBadInput(Error{"--max-sim-time: " + until.error().message});
  serve.limits.max_sim_time = *until;
  // The signals are taken by sigwait below, never by a handler, so every
  // thread the server starts inherits them blocked.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  Result<std::unique_ptr<ApiServer>> server = ApiServer::Start(serve);
  if (!server.ok()) return ReportBadInput(server.error());
  std::fprintf(
      stderr,
      "aifabric: serving the dashboard at http://%s:%d/ and the API under /api/runs (store %s, %d workers%s%s)\n",
      serve.bind.c_str(), (*server)->port(), serve.store_dir.c_str(), serve.workers,
      serve.token.empty() ? "" : ", token required",
      serve.attach_files.empty() ? "" : (", " + std::to_string(serve.attach_files.size()) + " attached").c_str());
  if ((*server)->interrupted_runs() > 0) {
    std::fprintf(stderr, "aifabric: %zu runs a restart cut short are marked failed\n", (*server)->interrupted_runs());
  }
  int signal_number = 0;
  sigwait(&stop, &signal_number);
  std::fprintf(stderr, "aifabric: stopping (signal %d)\n", signal_number);
  (*server)->Stop();
  return kExitOk;
}

}  // namespace aifabric
