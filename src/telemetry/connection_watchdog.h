// ConnectionWatchdog bounds the connections an in-process HTTP server (a
// cpp-httplib Server, which exposes neither its accepted sockets nor a
// per-request deadline) holds on one local TCP port. A background thread
// looks at this process's open sockets every kScanInterval: a server-side
// connection is one whose local port is `port` and that has a peer, told
// apart from a later connection on the same descriptor by its peer's
// address. It shuts down (shutdown(2), so the server's blocked read or
// write returns and the server closes it):
//   - a connection open for longer than `max_lifetime` (when non-zero): a
//     client that trickles its request a byte at a time, or reads the
//     answer that slowly, is cut off however often it sends;
//   - the oldest connections beyond `max_connections` (when non-zero), so
//     a crowd of idle connections cannot queue ahead of a new client for
//     long;
//   - every connection, once ShutDownAll is called (the owner calls it
//     when stopping the server, so no client holds the process at exit).
// Linux only (/proc/self/fd). Thread-safe; the destructor stops and joins.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

namespace aifabric {

class ConnectionWatchdog {
 public:
  static constexpr std::chrono::milliseconds kScanInterval{100};

  struct Limits {
    std::chrono::milliseconds max_lifetime{0};  // 0: no bound on a connection's age
    int max_connections = 0;                    // 0: no bound on how many are open
  };

  // Starts watching connections on local port `port`.
  ConnectionWatchdog(int port, Limits limits);
  ~ConnectionWatchdog();

  ConnectionWatchdog(const ConnectionWatchdog&) = delete;
  ConnectionWatchdog& operator=(const ConnectionWatchdog&) = delete;

  // Shuts down every connection open on the port now, and from now on every
  // new one as soon as it is seen.
  void ShutDownAll();

  // Connections shut down so far (any reason).
  uint64_t shut_down() const;

 private:
  // A connection: descriptor, peer IPv4 address, peer port.
  using Key = std::tuple<int, uint32_t, int>;

  void Run();
  void Scan(bool all);

  // Fixed at construction.
  const int port_;
  const Limits limits_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;      // guarded by mutex_
  bool shut_all_ = false;      // guarded by mutex_
  uint64_t shut_down_ = 0;     // guarded by mutex_
  std::mutex scan_mutex_;  // one Scan at a time (the thread's, ShutDownAll's); guards the two below
  std::map<Key, std::chrono::steady_clock::time_point> first_seen_;
  std::set<Key> cut_;      // shut down, not yet closed by the server
  std::thread thread_;
};

}  // namespace aifabric
