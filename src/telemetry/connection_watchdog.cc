#include "telemetry/connection_watchdog.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aifabric {
namespace {

// The peer of `fd` when it is a connected TCP socket whose local port is
// `port`: its address (folded to 32 bits) and port.
std::optional<std::pair<uint32_t, int>> ServerSidePeer(int fd, int port) {
  sockaddr_storage local{}, peer{};
  socklen_t local_len = sizeof local, peer_len = sizeof peer;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0) return std::nullopt;
  int local_port = -1;
  if (local.ss_family == AF_INET) local_port = ntohs(reinterpret_cast<sockaddr_in*>(&local)->sin_port);
  if (local.ss_family == AF_INET6) local_port = ntohs(reinterpret_cast<sockaddr_in6*>(&local)->sin6_port);
  if (local_port != port) return std::nullopt;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0) return std::nullopt;  // the listener
  if (peer.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<sockaddr_in*>(&peer);
    return std::make_pair(static_cast<uint32_t>(in->sin_addr.s_addr), static_cast<int>(ntohs(in->sin_port)));
  }
  if (peer.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<sockaddr_in6*>(&peer);
    uint32_t folded = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t word;
      std::memcpy(&word, in6->sin6_addr.s6_addr + 4 * i, sizeof word);
      folded ^= word;
    }
    return std::make_pair(folded, static_cast<int>(ntohs(in6->sin6_port)));
  }
  return std::nullopt;
}

// The descriptors of this process that are sockets.
std::vector<int> SocketDescriptors() {
  std::vector<int> fds;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    std::error_code link_ec;
    const std::string target = std::filesystem::read_symlink(entry.path(), link_ec).string();
    if (link_ec || target.rfind("socket:", 0) != 0) continue;
    fds.push_back(std::stoi(entry.path().filename().string()));
  }
  return fds;
}

}  // namespace

ConnectionWatchdog::ConnectionWatchdog(int port, Limits limits)
    : port_(port), limits_(limits), thread_([this] { Run(); }) {}

ConnectionWatchdog::~ConnectionWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ConnectionWatchdog::ShutDownAll() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shut_all_ = true;
  }
  Scan(true);
  wake_.notify_all();
}

uint64_t ConnectionWatchdog::shut_down() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return shut_down_;
}

void ConnectionWatchdog::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, kScanInterval);
    if (stopping_) break;
    const bool all = shut_all_;
    lock.unlock();
    Scan(all);
    lock.lock();
  }
}

void ConnectionWatchdog::Scan(bool all) {
  std::lock_guard<std::mutex> scan_lock(scan_mutex_);
  const auto now = std::chrono::steady_clock::now();
  std::map<Key, std::chrono::steady_clock::time_point> open;
  for (int fd : SocketDescriptors()) {
    const std::optional<std::pair<uint32_t, int>> peer = ServerSidePeer(fd, port_);
    if (!peer) continue;
    const Key key{fd, peer->first, peer->second};
    auto seen = first_seen_.find(key);
    open.emplace(key, seen == first_seen_.end() ? now : seen->second);
  }
  first_seen_ = open;
  std::erase_if(cut_, [&](const Key& key) { return open.count(key) == 0; });

  std::set<Key> victims;
  std::vector<std::pair<std::chrono::steady_clock::time_point, Key>> by_age;
  for (const auto& [key, since] : open) {
    if (cut_.count(key) > 0) continue;  // shut down already, closing
    if (all || (limits_.max_lifetime.count() > 0 && now - since > limits_.max_lifetime)) victims.insert(key);
    by_age.emplace_back(since, key);
  }
  if (limits_.max_connections > 0 && static_cast<int>(by_age.size()) > limits_.max_connections) {
    std::sort(by_age.begin(), by_age.end());
    for (size_t i = 0; i < by_age.size() - static_cast<size_t>(limits_.max_connections); ++i) {
      victims.insert(by_age[i].second);
    }
  }
  uint64_t cut = 0;
  for (const Key& key : victims) {
    const int fd = std::get<0>(key);
    // The descriptor may have been closed and reused since the scan: cut it
    // only while it is still the same connection.
    const std::optional<std::pair<uint32_t, int>> peer = ServerSidePeer(fd, port_);
    if (!peer || peer->first != std::get<1>(key) || peer->second != std::get<2>(key)) continue;
    if (::shutdown(fd, SHUT_RDWR) == 0) ++cut;
    cut_.insert(key);
  }
  if (cut > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    shut_down_ += cut;
  }
}

}  // namespace aifabric
