#include "telemetry/metrics_server.h"

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
#include <httplib.h>

namespace aifabric {
namespace {

std::unique_ptr<MetricsServer> StartOnAnyPort() {
  Result<std::unique_ptr<MetricsServer>> started = MetricsServer::Start(0);
  EXPECT_TRUE(started.ok()) << started.error().message;
  if (!started.ok()) return nullptr;
  return std::move(started).value();
}

httplib::Client ClientOf(const MetricsServer& server) {
  httplib::Client client("127.0.0.1", server.port());
  client.set_connection_timeout(2, 0);
  client.set_read_timeout(2, 0);
  return client;
}

TEST(MetricsServer, ServesWhatWasPublishedLast) {
  std::unique_ptr<MetricsServer> server = StartOnAnyPort();
  ASSERT_NE(server, nullptr);
  ASSERT_GT(server->port(), 0);
  httplib::Client client = ClientOf(*server);

  // Before the first Publish: an empty exposition, not an error.
  httplib::Result before = client.Get("/metrics");
  ASSERT_TRUE(before) << httplib::to_string(before.error());
  EXPECT_EQ(before->status, 200);
  EXPECT_EQ(before->body, "");

  // Bytes that would be mangled by any re-encoding: escapes, UTF-8, a NUL.
  const std::string first = std::string("# HELP a_total \\\\ µs\n# TYPE a_total counter\na_total{n=\"\\\"\"} 1\n") +
                            std::string(1, '\0') + "\n";
  server->Publish(first);
  httplib::Result got = client.Get("/metrics");
  ASSERT_TRUE(got) << httplib::to_string(got.error());
  EXPECT_EQ(got->status, 200);
  EXPECT_EQ(got->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(got->body, first);

  const std::string second(100000, 'x');  // larger than a socket write
  server->Publish(second);
  got = client.Get("/metrics");
  ASSERT_TRUE(got) << httplib::to_string(got.error());
  EXPECT_EQ(got->body, second);

  EXPECT_EQ(server->requests_served(), 3u);
}

TEST(MetricsServer, ScrapesDuringPublishesSeeWholeTexts) {
  std::unique_ptr<MetricsServer> server = StartOnAnyPort();
  ASSERT_NE(server, nullptr);
  // Two texts of the same length, each of one repeated letter: a body that
  // mixes letters, or has another length, was torn by a concurrent Publish.
  const std::string a(50000, 'a'), b(50000, 'b');
  server->Publish(a);
  std::atomic<bool> done{false};
  std::thread publisher([&] {
    for (int i = 0; !done.load(); ++i) server->Publish(i % 2 == 0 ? b : a);
  });
  httplib::Client client = ClientOf(*server);
  int whole = 0;
  for (int i = 0; i < 50; ++i) {
    httplib::Result got = client.Get("/metrics");
    if (!got || (got->body != a && got->body != b)) break;  // the count below reports it
    ++whole;
  }
  done.store(true);
  publisher.join();  // before any assertion can return
  EXPECT_EQ(whole, 50);
}

TEST(MetricsServer, IndexPointsAtMetricsAndOtherPathsAre404) {
  std::unique_ptr<MetricsServer> server = StartOnAnyPort();
  ASSERT_NE(server, nullptr);
  httplib::Client client = ClientOf(*server);
  httplib::Result index = client.Get("/");
  ASSERT_TRUE(index) << httplib::to_string(index.error());
  EXPECT_EQ(index->status, 200);
  EXPECT_NE(index->body.find("/metrics"), std::string::npos) << index->body;
  for (const char* path : {"/metricsx", "/favicon.ico", "/metrics/extra"}) {
    httplib::Result missing = client.Get(path);
    ASSERT_TRUE(missing) << path;
    EXPECT_EQ(missing->status, 404) << path;
  }
  httplib::Result post = client.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 404);
  EXPECT_EQ(server->requests_served(), 5u);
}

TEST(MetricsServer, SecondServerOnTheSamePortIsAnErrorNamingIt) {
  std::unique_ptr<MetricsServer> first = StartOnAnyPort();
  ASSERT_NE(first, nullptr);
  const std::string port = std::to_string(first->port());
  Result<std::unique_ptr<MetricsServer>> second = MetricsServer::Start(first->port());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("127.0.0.1:" + port), std::string::npos) << second.error().message;

  Result<std::unique_ptr<MetricsServer>> out_of_range = MetricsServer::Start(70000);
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_NE(out_of_range.error().message.find("70000"), std::string::npos) << out_of_range.error().message;

  // The first still serves.
  httplib::Client client = ClientOf(*first);
  httplib::Result got = client.Get("/metrics");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, 200);
}

// A raw TCP connection to the server that sends `bytes` and then stays open.
class StalledClient {
 public:
  StalledClient(int port, const std::string& bytes) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = fd_ >= 0 && connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0 &&
                 send(fd_, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size());
  }
  ~StalledClient() {
    if (fd_ >= 0) close(fd_);
  }
  StalledClient(const StalledClient&) = delete;
  StalledClient& operator=(const StalledClient&) = delete;
  bool connected() const { return connected_; }
  // Sends more; false once the server has cut the connection.
  bool Send(const std::string& bytes) {
    return send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }

 private:
  const int fd_;
  bool connected_ = false;
};

double SecondsToDestroy(std::unique_ptr<MetricsServer>& server) {
  const auto start = std::chrono::steady_clock::now();
  server.reset();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(MetricsServer, DestructionIsPromptEvenWithClientsConnected) {
  // No client: stop closes the listening socket and the idle workers exit at once.
  std::unique_ptr<MetricsServer> idle = StartOnAnyPort();
  ASSERT_NE(idle, nullptr);
  EXPECT_LT(SecondsToDestroy(idle), 0.5);

  // One client silent since connecting, one stalled halfway through its
  // request line: each holds a worker, the first until the idle timeout,
  // the second until the read timeout, which run side by side.
  std::unique_ptr<MetricsServer> busy = StartOnAnyPort();
  ASSERT_NE(busy, nullptr);
  busy->Publish("a 1\n");
  StalledClient silent(busy->port(), "");
  StalledClient halfway(busy->port(), "GET /metr");
  ASSERT_TRUE(silent.connected());
  ASSERT_TRUE(halfway.connected());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let the workers pick both up
  const double bound = MetricsServer::kIdleTimeoutSeconds + MetricsServer::kReadWriteTimeoutSeconds;
  EXPECT_LT(SecondsToDestroy(busy), bound);
}

// A slow-headers client: sends a request whose headers never end, a byte
// every 100 ms (each byte well inside the read timeout), until the server
// cuts it or `stop` is set; `cut` says which.
class Trickler {
 public:
  Trickler(int port, const std::atomic<bool>& stop)
      : thread_([this, port, &stop] {
          StalledClient client(port, "");
          const std::string request = "GET /metrics HTTP/1.1\r\nX-Slow: " + std::string(100000, 'a');
          for (size_t i = 0; i < request.size() && !stop.load(); ++i) {
            if (!client.Send(request.substr(i, 1))) {
              cut_.store(true);
              return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          }
        }) {}
  ~Trickler() { thread_.join(); }
  bool cut() const { return cut_.load(); }

 private:
  std::atomic<bool> cut_{false};
  std::thread thread_;
};

// Two slow-headers clients and 200 idle connections: another client is
// still answered, within the time the workers need to drain what the
// connection cap leaves ahead of it (the oldest beyond kMaxConnections are
// cut; each of the rest holds a worker for at most kIdleTimeoutSeconds, so
// kMaxConnections / kWorkerThreads rounds of it), plus a second of slack;
// the tricklers are cut; destruction stays prompt with all of them
// connected.
TEST(MetricsServer, SlowAndIdleClientsBlockNeitherOthersNorTheExit) {
  std::unique_ptr<MetricsServer> server = StartOnAnyPort();
  ASSERT_NE(server, nullptr);
  server->Publish("a 1\n");
  std::atomic<bool> stop{false};
  auto slow1 = std::make_unique<Trickler>(server->port(), stop);
  auto slow2 = std::make_unique<Trickler>(server->port(), stop);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // both mid-headers
  std::vector<std::unique_ptr<StalledClient>> crowd;
  for (int i = 0; i < 200; ++i) crowd.push_back(std::make_unique<StalledClient>(server->port(), ""));

  const auto start = std::chrono::steady_clock::now();
  httplib::Client client("127.0.0.1", server->port());
  client.set_read_timeout(10, 0);
  httplib::Result got = client.Get("/metrics");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(got) << httplib::to_string(got.error());
  EXPECT_EQ(got->status, 200);
  EXPECT_EQ(got->body, "a 1\n");
  const int rounds = (MetricsServer::kMaxConnections + MetricsServer::kWorkerThreads - 1) / MetricsServer::kWorkerThreads;
  EXPECT_LT(seconds, rounds * MetricsServer::kIdleTimeoutSeconds + 1.0);

  // The tricklers, oldest of all, are cut (by the cap here; by the
  // lifetime bound at the latest).
  const auto deadline = start + std::chrono::seconds(MetricsServer::kMaxConnectionSeconds + 1);
  while ((!slow1->cut() || !slow2->cut()) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(slow1->cut());
  EXPECT_TRUE(slow2->cut());

  // New tricklers and a new crowd, then the exit: prompt.
  auto slow3 = std::make_unique<Trickler>(server->port(), stop);
  for (int i = 0; i < 50; ++i) crowd.push_back(std::make_unique<StalledClient>(server->port(), ""));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LT(SecondsToDestroy(server), 0.5);
  stop.store(true);
}

}  // namespace
}  // namespace aifabric
