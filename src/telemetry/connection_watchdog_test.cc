#include "telemetry/connection_watchdog.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

using std::chrono::milliseconds;

// A listening socket on 127.0.0.1 (any port) and the connections made to
// it: the client side and the accepted, server side.
class Loopback {
 public:
  Loopback() : listener_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    listen(listener_, 64);
    socklen_t len = sizeof a;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~Loopback() {
    for (int fd : fds_) close(fd);
    close(listener_);
  }
  int port() const { return port_; }
  // Connects and accepts; returns the server side.
  int Connect() {
    const int client = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port_));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    const int server = accept(listener_, nullptr, nullptr);
    fds_.push_back(client);
    fds_.push_back(server);
    return server;
  }

 private:
  const int listener_;
  int port_ = 0;
  std::vector<int> fds_;
};

// A shut-down socket reads end-of-file at once; a live, silent one has
// nothing to read.
bool IsShutDown(int fd) {
  char byte;
  return recv(fd, &byte, 1, MSG_DONTWAIT) == 0;
}

TEST(ConnectionWatchdog, CutsAConnectionOlderThanItsLifetime) {
  Loopback net;
  ConnectionWatchdog watchdog(net.port(), {milliseconds(300), 0});
  const int old_one = net.Connect();
  std::this_thread::sleep_for(milliseconds(150));
  EXPECT_FALSE(IsShutDown(old_one));
  // Seen within one scan of connecting, cut within one scan of 300 ms.
  std::this_thread::sleep_for(milliseconds(300) + 2 * ConnectionWatchdog::kScanInterval);
  EXPECT_TRUE(IsShutDown(old_one));
  EXPECT_EQ(watchdog.shut_down(), 1u);
}

TEST(ConnectionWatchdog, CutsTheOldestBeyondTheCap) {
  Loopback net;
  ConnectionWatchdog watchdog(net.port(), {milliseconds(0), 3});
  std::vector<int> server_sides;
  for (int i = 0; i < 5; ++i) {
    server_sides.push_back(net.Connect());
    std::this_thread::sleep_for(2 * ConnectionWatchdog::kScanInterval);  // seen in order
  }
  std::this_thread::sleep_for(2 * ConnectionWatchdog::kScanInterval);
  // 5 open, at most 3: the first two go.
  EXPECT_TRUE(IsShutDown(server_sides[0]));
  EXPECT_TRUE(IsShutDown(server_sides[1]));
  for (int i = 2; i < 5; ++i) EXPECT_FALSE(IsShutDown(server_sides[i])) << i;
  EXPECT_EQ(watchdog.shut_down(), 2u);
}

TEST(ConnectionWatchdog, ShutDownAllCutsEveryConnectionAtOnceAndLeavesTheListener) {
  Loopback net;
  ConnectionWatchdog watchdog(net.port(), {});
  const int a = net.Connect(), b = net.Connect();
  watchdog.ShutDownAll();
  EXPECT_TRUE(IsShutDown(a));
  EXPECT_TRUE(IsShutDown(b));
  EXPECT_EQ(watchdog.shut_down(), 2u);
  // The listener (no peer) still accepts; a connection made now is cut at the next scan.
  const int c = net.Connect();
  std::this_thread::sleep_for(2 * ConnectionWatchdog::kScanInterval);
  EXPECT_TRUE(IsShutDown(c));
}

}  // namespace
}  // namespace aifabric
