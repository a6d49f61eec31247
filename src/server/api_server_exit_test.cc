// The serve server against slow and idle clients: a connection cap that
// keeps a crowd from queueing ahead of a new client, and a Stop that no
// client holds up.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "server/api_server.h"
#include "server/serve_test_util.h"

namespace aifabric {
namespace {

using serve_testing::TestServer;

// A raw connection to 127.0.0.1:port; sends nothing until asked.
class RawClient {
 public:
  explicit RawClient(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = fd_ >= 0 && connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~RawClient() { close(fd_); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;
  bool connected() const { return connected_; }
  bool Send(char byte) { return send(fd_, &byte, 1, MSG_NOSIGNAL) == 1; }

 private:
  const int fd_;
  bool connected_ = false;
};

// Sends a request whose headers never end, a byte every 100 ms (inside the
// 5 s read timeout every time), until cut or told to stop.
void Trickle(int port, const std::atomic<bool>& stop) {
  RawClient c(port);
  const std::string request = "GET /api/runs HTTP/1.1\r\nX-Slow: " + std::string(100000, 'a');
  for (size_t i = 0; i < request.size() && !stop.load() && c.Send(request[i]); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Two tricklers and 30 idle connections against 16 workers and a cap of 8
// open connections: the cap cuts the oldest, so a new client is answered
// at once instead of after the 5 s keep-alive wait of the idle ones ahead
// of it; and Stop returns promptly with all of them connected (before the
// watchdog, it waited for the tricklers for as long as they trickled).
TEST(ApiServerExit, SlowAndIdleClientsBlockNeitherOthersNorStop) {
  ServeOptions options;
  options.max_connections = 8;
  TestServer t(options);
  const int port = t.server().port();
  std::atomic<bool> stop{false};
  std::thread slow1(Trickle, port, std::cref(stop)), slow2(Trickle, port, std::cref(stop));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<std::unique_ptr<RawClient>> crowd;
  for (int i = 0; i < 30; ++i) {
    crowd.push_back(std::make_unique<RawClient>(port));
    ASSERT_TRUE(crowd.back()->connected());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the watchdog has seen them all

  const auto asked = std::chrono::steady_clock::now();
  httplib::Result r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(Seconds(asked), options.keep_alive_timeout_s / 2.0);

  for (int i = 0; i < 10; ++i) crowd.push_back(std::make_unique<RawClient>(port));
  std::thread slow3(Trickle, port, std::cref(stop));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto stopping = std::chrono::steady_clock::now();
  t.server().Stop();
  EXPECT_LT(Seconds(stopping), 1.0);
  stop.store(true);
  slow1.join();
  slow2.join();
  slow3.join();
}

}  // namespace
}  // namespace aifabric
