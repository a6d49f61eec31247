#include "observe/observe_prometheus.h"

#include <chrono>
#include <map>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include "diagnosis/diagnosis.h"
#include "observe/observe_test_fabric.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using observe_testing::HostUp;
using observe_testing::SwitchDown;

std::string Matrix(const std::string& series) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + series + "]}}";
}

// Answers from memory: PromQL -> body; an unknown query gets an empty matrix.
struct FakePrometheus {
  std::map<std::string, std::string> answers;
  std::vector<std::string> asked;

  PrometheusClient Client() {
    return PrometheusClient("http://fake:9090", [this](const std::string& path) -> Result<HttpAnswer> {
      asked.push_back(path);
      for (const auto& [promql, body] : answers) {
        if (path == "/api/v1/query?query=" + UrlEncode(promql)) return HttpAnswer{200, body};
      }
      return HttpAnswer{200, Matrix("")};
    });
  }
};

// Our own endpoint, scraped at t = 100..104 s (wall), the simulation at
// 10, 20, 30, 40 ms of simulated time (no clock sample at 104: ignored).
// sw -> h0 sent 5e7, 1.5e8, then a reset to 2.5e7, then 1.25e8 bytes:
// increase = 1e8 + 2.5e7 + 1e8 = 2.25e8 B over 0.03 simulated s, at 100
// Gbps: 2.25e8 x 8 / (1e11 x 0.03) = 0.6; the busiest interval carried
// 1e8 B in 0.01 s: 0.8.
TEST(ObservePrometheus, RatesRunOnTheExportersClock) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus p;
  p.answers["aifabric_sim_time_seconds[30s]"] = Matrix(
      R"({"metric":{"__name__":"aifabric_sim_time_seconds","job":"sim"},
          "values":[[100,"0.01"],[101,"0.02"],[102,"0.03"],[103,"0.04"]]})");
  p.answers["aifabric_port_transmit_bytes_total[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h0"},"values":[[100,"5e7"],[101,"1.5e8"],[102,"2.5e7"],[103,"1.25e8"],[104,"9e9"]]},
         {"metric":{"node":"h1","port":"sw"},"values":[[100,"0"],[103,"3e7"]]})");
  p.answers["aifabric_queue_ecn_marked_packets_total[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h0","priority":"3"},"values":[[100,"10"],[103,"30"]]},
         {"metric":{"node":"sw","port":"h0","priority":"4"},"values":[[100,"0"],[103,"5"]]})");
  p.answers["aifabric_queue_watermark_bytes[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h0","priority":"3"},"values":[[100,"1000"],[103,"64000"]]})");
  Result<FabricReading> r = ObservePrometheus(p.Client(), t, AifabricExporter(), Time::FromSeconds(30));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const PortObservation& down = r->observation.ports[SwitchDown(0)];
  EXPECT_EQ(down.tx_bytes, 225000000u);
  EXPECT_NEAR(down.utilization, 0.6, 1e-12);
  EXPECT_NEAR(down.peak_utilization, 0.8, 1e-12);
  EXPECT_EQ(down.ecn_marks, 25u);  // summed over priorities
  EXPECT_EQ(down.max_queue_bytes, 64000u);
  EXPECT_NEAR(r->observation.active_time.ps() * 1e-12, 0.03, 1e-12);
  // h1 -> sw: 3e7 B over the same 0.03 s: 2.4e8 / 3e9 = 0.08.
  EXPECT_NEAR(r->observation.ports[HostUp(1)].utilization, 0.08, 1e-12);
  EXPECT_TRUE(r->windows[SwitchDown(0)].seen);
  EXPECT_FALSE(r->windows[SwitchDown(1)].seen);
  EXPECT_EQ(r->series, 5u);
  EXPECT_EQ(r->queries.front(), "aifabric_sim_time_seconds[30s]");
  EXPECT_EQ(r->unread, (std::vector<std::string>{"transfers"}));
}

// infiniband-exporter counts PortXmitData in 4-byte words, on wall time:
// 2.5e9 words = 1e10 B in 2 s at 100 Gbps = 0.4.
TEST(ObservePrometheus, ARealExportersCountersRunOnWallTime) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus p;
  p.answers["infiniband_portxmitdata_total[1500ms]"] = Matrix(
      R"({"metric":{"local_name":"sw","local_port":"1","remote_name":"h2"},"values":[[10,"0"],[12,"2.5e9"]]})");
  p.answers["infiniband_portxmitdiscards_total[1500ms]"] = Matrix(
      R"({"metric":{"local_name":"sw","remote_name":"h2"},"values":[[10,"3"],[12,"10"]]})");
  Result<FabricReading> r = ObservePrometheus(p.Client(), t, InfinibandExporter(), Time::FromMs(1500));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->observation.ports[SwitchDown(2)].utilization, 0.4, 1e-12);
  EXPECT_EQ(r->observation.ports[SwitchDown(2)].drop_packets, 7u);
  EXPECT_EQ(r->observation.active_time, Time::FromSeconds(2));
  EXPECT_EQ(r->unread,
            (std::vector<std::string>{"ecn_marks", "pause_time", "pfc_frames_tx", "max_queue_bytes", "pause_causes",
                                      "transfers"}));
}

// A gray link on a real fabric: h2's HCA counts 50 received packets with
// errors (PortRcvErrors, 0 -> 20 -> 50) on its cable from sw. They are the
// frames sw -> h2 sent that arrived corrupted, so they land on that port,
// among its losses; sw -> h0 refused 7 packets at its egress (congestion).
// The diagnosis names the corrupting cable, sw -> h2, as its top finding.
TEST(ObservePrometheus, RisingReceiveErrorsAreAGrayLinkOnTheSendingPort) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus p;
  p.answers["infiniband_portxmitdata_total[2s]"] = Matrix(
      R"({"metric":{"local_name":"sw","remote_name":"h2"},"values":[[10,"0"],[12,"2.5e9"]]},)"
      R"({"metric":{"local_name":"sw","remote_name":"h0"},"values":[[10,"0"],[12,"2.5e9"]]})");
  p.answers["infiniband_portxmitdiscards_total[2s]"] = Matrix(
      R"({"metric":{"local_name":"sw","remote_name":"h0"},"values":[[10,"3"],[12,"10"]]})");
  p.answers["infiniband_portrcverrors_total[2s]"] = Matrix(
      R"({"metric":{"local_name":"h2","remote_name":"sw"},"values":[[10,"0"],[11,"20"],[12,"50"]]})");
  Result<FabricReading> r = ObservePrometheus(p.Client(), t, InfinibandExporter(), Time::FromSeconds(2));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->observation.ports[SwitchDown(2)].fcs_error_packets, 50u);
  EXPECT_EQ(r->observation.ports[SwitchDown(2)].drop_packets, 50u);
  EXPECT_EQ(r->observation.ports[HostUp(2)].fcs_error_packets, 0u);
  EXPECT_EQ(r->observation.ports[SwitchDown(0)].drop_packets, 7u);
  EXPECT_EQ(r->observation.ports[SwitchDown(0)].fcs_error_packets, 0u);
  const std::vector<Finding> findings = Diagnose(t, r->observation);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].kind, kGrayLink);
  EXPECT_EQ(findings[0].port, SwitchDown(2));
  EXPECT_EQ(t.node(findings[0].port_peer).name, "h2");
}

// A gray link from our own exposition's names: sw -> h2 corrupted 50
// frames (aifabric_port_fcs_error_packets_total, 0 -> 50, by the sending
// port), which its transmit discards count too (60 in all: 10 refused by
// the buffer); sw -> h0 discarded 7 (congestion). The corrupted frames are
// not counted twice (60 losses, 50 of them FCS errors), and the diagnosis
// names sw -> h2 a gray link, its top finding.
TEST(ObservePrometheus, OurOwnFcsErrorCounterIsAGrayLink) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus p;
  p.answers["aifabric_sim_time_seconds[30s]"] = Matrix(
      R"({"metric":{"__name__":"aifabric_sim_time_seconds"},"values":[[100,"0.01"],[101,"0.02"]]})");
  p.answers["aifabric_port_transmit_bytes_total[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h2"},"values":[[100,"0"],[101,"5e7"]]},)"
      R"({"metric":{"node":"sw","port":"h0"},"values":[[100,"0"],[101,"5e7"]]})");
  p.answers["aifabric_port_transmit_discards_total[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h2"},"values":[[100,"0"],[101,"60"]]},)"
      R"({"metric":{"node":"sw","port":"h0"},"values":[[100,"0"],[101,"7"]]})");
  p.answers["aifabric_port_fcs_error_packets_total[30s]"] = Matrix(
      R"({"metric":{"node":"sw","port":"h2"},"values":[[100,"0"],[101,"50"]]})");
  Result<FabricReading> r = ObservePrometheus(p.Client(), t, AifabricExporter(), Time::FromSeconds(30));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->observation.ports[SwitchDown(2)].fcs_error_packets, 50u);
  EXPECT_EQ(r->observation.ports[SwitchDown(2)].drop_packets, 60u);
  EXPECT_EQ(r->observation.ports[SwitchDown(0)].drop_packets, 7u);
  EXPECT_EQ(r->observation.ports[SwitchDown(0)].fcs_error_packets, 0u);
  const std::vector<Finding> findings = Diagnose(t, r->observation);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].kind, kGrayLink);
  EXPECT_EQ(findings[0].port, SwitchDown(2));
  EXPECT_EQ(t.node(findings[0].port_peer).name, "h2");
}

TEST(ObservePrometheus, ErrorsNameTheServerTheMetricAndTheLabel) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus none;
  Result<FabricReading> no_clock = ObservePrometheus(none.Client(), t, AifabricExporter(), Time::FromSeconds(30));
  ASSERT_FALSE(no_clock.ok());
  EXPECT_THAT(no_clock.error().message,
              HasSubstr("http://fake:9090: aifabric_sim_time_seconds: expected one series (the exporter's clock), got 0"));

  Result<FabricReading> no_tx = ObservePrometheus(none.Client(), t, InfinibandExporter(), Time::FromSeconds(30));
  ASSERT_FALSE(no_tx.ok());
  EXPECT_THAT(no_tx.error().message, HasSubstr("no series of infiniband_portxmitdata_total in the last 30s"));

  FakePrometheus stray;
  stray.answers["infiniband_portxmitdata_total[30s]"] =
      Matrix(R"({"metric":{"local_name":"spine7","remote_name":"sw"},"values":[[1,"0"]]})");
  Result<FabricReading> unknown = ObservePrometheus(stray.Client(), t, InfinibandExporter(), Time::FromSeconds(30));
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.error().message,
              HasSubstr("infiniband_portxmitdata_total: series {local_name=\"spine7\",remote_name=\"sw\"}: label "
                        "local_name=\"spine7\" names no node of the topology"));

  FakePrometheus failing;
  failing.answers["infiniband_portxmitdata_total[30s]"] = R"({"status":"error","errorType":"timeout","error":"query timed out"})";
  Result<FabricReading> error = ObservePrometheus(failing.Client(), t, InfinibandExporter(), Time::FromSeconds(30));
  ASSERT_FALSE(error.ok());
  EXPECT_THAT(error.error().message, HasSubstr("http://fake:9090/api/v1/query?query="));
  EXPECT_THAT(error.error().message, HasSubstr("(infiniband_portxmitdata_total[30s]): Prometheus answered error"));
}

TEST(ObservePrometheus, TheLoopRunsCountPassesAndStopsWhenAsked) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  FakePrometheus p;
  p.answers["infiniband_portxmitdata_total[1s]"] =
      Matrix(R"({"metric":{"local_name":"sw","remote_name":"h2"},"values":[[10,"0"],[12,"1"]]})");
  ObserveLoopOptions options;
  options.window = Time::FromSeconds(1);
  options.interval = Time::FromMs(1);
  options.count = 3;
  std::vector<int> passes;
  ObserveLoop(p.Client(), t, InfinibandExporter(), options, [&](int pass, const Result<FabricReading>& r) {
    EXPECT_TRUE(r.ok());
    passes.push_back(pass);
    return true;
  });
  EXPECT_EQ(passes, (std::vector<int>{1, 2, 3}));
  options.count = 0;
  passes.clear();
  ObserveLoop(p.Client(), t, InfinibandExporter(), options, [&](int pass, const Result<FabricReading>&) {
    passes.push_back(pass);
    return pass < 2;
  });
  EXPECT_EQ(passes, (std::vector<int>{1, 2}));
}

// The HTTP transport against a local server: answers capped in size, a
// read timeout, a refused connection, a bad URL.
class HttpFetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.Get("/api/v1/query", [](const httplib::Request& req, httplib::Response& res) {
      const std::string q = req.get_param_value("query");
      if (q == "big") res.set_content(std::string(5000, 'x'), "text/plain");
      else if (q == "slow") {
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        res.set_content("{}", "application/json");
      } else {
        res.set_content(Matrix(""), "application/json");
      }
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void TearDown() override {
    server_.stop();
    thread_.join();
  }
  PrometheusSource Source() const {
    PrometheusSource s;
    s.url = "http://127.0.0.1:" + std::to_string(port_);
    s.timeout = Time::FromMs(200);
    s.max_answer_bytes = 1000;
    return s;
  }
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(HttpFetchTest, ReadsRefusesLongAnswersAndTimesOut) {
  Result<PrometheusFetch> fetch = HttpFetch(Source());
  ASSERT_TRUE(fetch.ok()) << fetch.error().message;
  const PrometheusClient client(Source().url, *fetch);
  Result<PrometheusAnswer> fine = client.Query("anything");
  ASSERT_TRUE(fine.ok()) << fine.error().message;
  EXPECT_EQ(fine->type, PromResultType::kMatrix);
  Result<PrometheusAnswer> big = client.Query("big");
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(big.error().message, HasSubstr(Source().url + "/api/v1/query?query=big: the answer is longer than 1000 bytes"));
  Result<PrometheusAnswer> slow = client.Query("slow");
  ASSERT_FALSE(slow.ok());
  EXPECT_THAT(slow.error().message, HasSubstr("no answer from Prometheus"));
}

TEST(HttpFetch, RefusedConnectionsAndBadUrlsAreErrors) {
  PrometheusSource source;
  source.url = "http://127.0.0.1:1";  // nothing listens on port 1
  source.timeout = Time::FromMs(500);
  Result<PrometheusFetch> fetch = HttpFetch(source);
  ASSERT_TRUE(fetch.ok());
  const PrometheusClient client(source.url, *fetch);
  Result<PrometheusAnswer> refused = client.Query("up");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("http://127.0.0.1:1/api/v1/query?query=up: no answer from Prometheus"));
  for (const char* url : {"127.0.0.1:9090", "https://p:9090", "ftp://x", "http://"}) {
    source.url = url;
    Result<PrometheusFetch> bad = HttpFetch(source);
    ASSERT_FALSE(bad.ok()) << url;
    EXPECT_THAT(bad.error().message, HasSubstr(std::string("--prometheus ") + url)) << url;
  }
}

}  // namespace
}  // namespace aifabric
