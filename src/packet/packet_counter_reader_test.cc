// PacketCounterReader: its series, the peak-since-read queue gauge, pause
// time in progress, and sampled utilization integrating back to the bytes
// the ports sent.
#include "packet/packet_counter_reader.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <memory>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "telemetry/sampler.h"
#include "telemetry/time_series_store.h"

namespace aifabric {
namespace {

// Hosts h0..h(n-1) (ids 0..n-1) under one switch (id n), h0 at `first_rate`
// and the others at 100G, 500 ns cables, 400 ns switch latency. Link i
// joins h_i and the switch: port 2i is h_i -> sw, 2i+1 is sw -> h_i.
struct Star {
  Star(int hosts, DataRate first_rate, const PacketConfig& config = {}, uint64_t buffer_bytes = 16 << 20) {
    for (int i = 0; i < hosts; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
    SwitchSpec spec;
    spec.name = "test";
    spec.radix = 8;
    spec.port_rate = DataRate::Gbps(100);
    spec.latency = Time::FromNs(400);
    spec.buffer_bytes = buffer_bytes;
    const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
    for (int i = 0; i < hosts; ++i) t.AddLink(i, sw, i == 0 ? first_rate : DataRate::Gbps(100), Time::FromNs(500));
    routes = RoutingTable::BuildShortestPaths(t);
    net = std::make_unique<PacketNetwork>(sim, t, routes, config);
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint64_t bytes) {
    TransferRequest r;
    r.id = id;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    r.priority = 3;
    net->StartTransfer(r);
  }
  void StartAt(Time at, FlowId id, NodeId src, NodeId dst, uint64_t bytes) {
    sim.ScheduleCallback(at, [=, this] { Start(id, src, dst, bytes); });
  }

  Topology t;
  Simulator sim{1};
  RoutingTable routes;
  std::unique_ptr<PacketNetwork> net;
};

// The index of `key` among the reader's keys.
size_t IndexOf(const PacketCounterReader& reader, const SeriesKey& key) {
  const auto keys = reader.keys();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return i;
  }
  ADD_FAILURE() << "no series for port " << key.port << " priority " << key.priority;
  return 0;
}

TEST(PacketCounterReader, SeriesArePortByPortInTheCatalogsNames) {
  // 2 hosts + 1 switch: 4 directed ports; 5 port series + 2 priorities x 8
  // queue series = 21 per port, 84 in all.
  Star star(2, DataRate::Gbps(100));
  PacketCounterReader reader(*star.net, {3, 0});
  ASSERT_EQ(reader.keys().size(), 84u);
  // Port 3 (sw -> h1) starts at 3 x 21 = 63; the switch is node 2.
  EXPECT_EQ(reader.keys()[63], (SeriesKey{2, 3, -1, Metric::kTxBytes}));
  EXPECT_EQ(reader.keys()[67], (SeriesKey{2, 3, -1, Metric::kTxDiscards}));
  EXPECT_EQ(reader.keys()[68], (SeriesKey{2, 3, 3, Metric::kQueueTxBytes}));
  EXPECT_EQ(reader.keys()[75], (SeriesKey{2, 3, 3, Metric::kPfcPauseDurationUs}));
  EXPECT_EQ(reader.keys()[76], (SeriesKey{2, 3, 0, Metric::kQueueTxBytes}));
  EXPECT_EQ(reader.keys()[0], (SeriesKey{0, 0, -1, Metric::kTxBytes}));  // h0 -> sw
}

TEST(PacketCounterReader, QueuePeakSinceReadCatchesASpikeBetweenReadsThenResets) {
  // h0 at 400G sends 10 packets (4096 B + 82 B = 4178 B) to h1 through the
  // switch, whose egress to h1 runs at 100G: a = 83,560 ps between
  // arrivals, 4a = 334,240 ps per departure. Packet 0 reaches the egress at
  // t0 = 83,560 + 500,000 + 400,000 = 983,560 ps, packet k at t0 + k a;
  // departures start at t0 + 4j a. After packet 9 arrives (t0 + 9a, no
  // tie) packets 0-2 have left: 7 queued = 29,246 B, the peak (earlier
  // arrivals queue at most 7 whichever way a tie at t0 + 8a goes). The
  // last departure starts at t0 + 36a = 3,991,720 ps; by 10 us the queue
  // is empty.
  Star star(2, DataRate::Gbps(400));
  PacketCounterReader reader(*star.net, {3});
  const size_t occupancy = IndexOf(reader, SeriesKey{2, 3, 3, Metric::kQueueOccupancyBytes});
  const size_t watermark = IndexOf(reader, SeriesKey{2, 3, 3, Metric::kQueueWatermarkBytes});
  std::vector<double> row(reader.keys().size());
  std::vector<std::pair<double, double>> seen;  // (occupancy, watermark) per read
  auto read_at = [&](int64_t ps) {
    star.sim.ScheduleCallback(Time::FromPs(ps), [&] {
      reader.Read(star.sim.Now(), row);
      seen.emplace_back(row[occupancy], row[watermark]);
    });
  };
  star.Start(0, 0, 1, 10 * 4096);
  const int64_t t0 = 983'560, a = 83'560;
  read_at(500'000);          // before the burst
  read_at(10'000'000);       // the whole spike came and went since the last read
  read_at(11'000'000);       // reset: empty since
  star.sim.Run();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], std::make_pair(0.0, 0.0));
  EXPECT_EQ(seen[1], std::make_pair(29'246.0, 29'246.0));
  EXPECT_EQ(seen[2], std::make_pair(0.0, 29'246.0));

  // The same burst read more often: the peak since a read includes the
  // level at that read. At t0 + 9a + 1 ns, 7 queued; at t0 + 10a, still 7
  // (no departure since); the departure at t0 + 12a leaves 6, but the
  // interval from t0 + 10a began at 7; from t0 + 13a on, 6 = 25,068 B.
  Star again(2, DataRate::Gbps(400));
  PacketCounterReader fine(*again.net, {3});
  seen.clear();
  auto fine_at = [&](int64_t ps) {
    again.sim.ScheduleCallback(Time::FromPs(ps), [&] {
      fine.Read(again.sim.Now(), row);
      seen.emplace_back(row[occupancy], row[watermark]);
    });
  };
  again.Start(0, 0, 1, 10 * 4096);
  for (int64_t at : {t0 + 9 * a + 1000, t0 + 10 * a, t0 + 13 * a, t0 + 14 * a}) fine_at(at);
  again.sim.Run();
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].first, 29'246.0);
  EXPECT_EQ(seen[1].first, 29'246.0);
  EXPECT_EQ(seen[2].first, 29'246.0);
  EXPECT_EQ(seen[3].first, 25'068.0);
}

TEST(PacketCounterReader, PauseDurationIncludesThePauseInProgress) {
  // PFC on; h0's NIC gets a PAUSE for priority 3 at 1 us and a RESUME at
  // 10 us (no traffic). Reads at 5 us: 4 us paused so far; at 20 us: 9 us.
  PacketConfig config;
  config.pfc.enabled = true;
  Star star(2, DataRate::Gbps(100), config);
  EgressPort& nic = star.net->port(0);
  star.sim.Schedule(Time::FromUs(1), &nic, EgressPort::PfcFrameTag(3, true));
  star.sim.Schedule(Time::FromUs(10), &nic, EgressPort::PfcFrameTag(3, false));
  PacketCounterReader reader(*star.net, {3});
  const size_t pause = IndexOf(reader, SeriesKey{0, 0, 3, Metric::kPfcPauseDurationUs});
  const size_t frames = IndexOf(reader, SeriesKey{0, 0, 3, Metric::kPfcRxFrames});
  std::vector<double> row(reader.keys().size());
  std::vector<std::pair<double, double>> seen;
  for (int us : {5, 20}) {
    star.sim.ScheduleCallback(Time::FromUs(us), [&] {
      reader.Read(star.sim.Now(), row);
      seen.emplace_back(row[pause], row[frames]);
    });
  }
  star.sim.Run();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_pair(4.0, 1.0));
  EXPECT_EQ(seen[1], std::make_pair(9.0, 2.0));
  EXPECT_EQ(nic.counters().pfc_pause_ps, 9'000'000u);
}

TEST(PacketCounterReader, ReadsDuringALossyRunEndOnTheFinalCounters) {
  // Two senders at 100G into one 100G receiver through a switch with a
  // 64 KiB buffer and ECN from 10 KB: drops and marks keep changing the
  // counters the reader caches. Read every 5 us while it runs and once at
  // the end: the last read must equal the ports' counters then.
  PacketConfig config;
  config.ecn.enabled = true;
  config.ecn.kmin_bytes = 10'000;
  config.ecn.kmax_bytes = 30'000;
  Star star(3, DataRate::Gbps(100), config, 64 << 10);
  PacketCounterReader reader(*star.net, {3});
  std::vector<double> row(reader.keys().size());
  for (int us = 5; us < 200; us += 5) {
    star.sim.ScheduleCallback(Time::FromUs(us), [&] { reader.Read(star.sim.Now(), row); });
  }
  star.Start(0, 1, 0, 1 << 20);
  star.Start(1, 2, 0, 1 << 20);
  star.sim.Run();
  reader.Read(star.sim.Now(), row);
  const PortId toward_h0 = 1;  // sw -> h0, where the drops and marks are
  const QueueCounters q = star.net->egress(toward_h0).queue_counters(3);
  EXPECT_GT(q.drop_packets, 0u);
  EXPECT_GT(q.ecn_marks, 0u);
  EXPECT_EQ(row[IndexOf(reader, SeriesKey{3, toward_h0, 3, Metric::kQueueDroppedPackets})], static_cast<double>(q.drop_packets));
  EXPECT_EQ(row[IndexOf(reader, SeriesKey{3, toward_h0, 3, Metric::kQueueEcnMarked})], static_cast<double>(q.ecn_marks));
  EXPECT_EQ(row[IndexOf(reader, SeriesKey{3, toward_h0, -1, Metric::kTxDiscards})],
            static_cast<double>(star.net->egress(toward_h0).counters().drop_packets));
  EXPECT_EQ(row[IndexOf(reader, SeriesKey{3, toward_h0, 3, Metric::kQueueTxBytes})], static_cast<double>(q.tx_bytes));
}

TEST(PacketCounterReader, SampledUtilizationIntegratesBackToTheBytesSent) {
  // h1 sends 1 MiB to h0 from 0 and h2 300,000 B from 20 us, 100G
  // everywhere, sampled every 10 us with a last sample at the end. For
  // each port, sum over intervals of utilization x line rate x interval / 8
  // must give back the port's tx bytes (and its peer's rx bytes).
  // Rounding: u_i = d_i * 8 / (R * s_i) has d_i, d_i * 8 exact and three
  // roundings (s_i = ps / 1e12, R * s_i, the division); u_i * R * s_i / 8
  // (the same s_i) adds two, the / 8 is exact; summing n positive terms
  // adds n - 1. So the sum is within gamma(n + 4) = (n + 4) u / (1 - (n + 4) u)
  // of the total, relatively, u = DBL_EPSILON / 2.
  Star star(3, DataRate::Gbps(100));
  PacketCounterReader reader(*star.net, {3});
  TimeSeriesStore store;
  Sampler sampler(star.sim, store, Time::FromUs(10));
  sampler.AddReader(&reader, reader.keys());
  sampler.Start();
  star.Start(0, 1, 0, 1 << 20);
  star.StartAt(Time::FromUs(20), 1, 2, 0, 300'000);
  star.sim.Run();
  sampler.SampleNow();
  ASSERT_GT(store.points(), 10u);
  const std::span<const Time> times = store.times();
  const double rate_bps = 100e9;
  for (PortId id : {1, 2, 4}) {  // sw -> h0 (both flows), h1 -> sw, h2 -> sw
    const int tx = static_cast<int>(IndexOf(reader, SeriesKey{id == 1 ? 3 : id / 2, id, -1, Metric::kTxBytes}));
    const std::vector<double> util = UtilizationBetween(store, tx, rate_bps);
    ASSERT_EQ(util.size(), times.size() - 1);
    double integral = 0;
    for (size_t i = 0; i < util.size(); ++i) integral += util[i] * rate_bps * (times[i + 1] - times[i]).seconds() / 8;
    const double total = static_cast<double>(star.net->egress(id).counters().tx_bytes);
    const double n = static_cast<double>(util.size());
    const double u = DBL_EPSILON / 2;
    EXPECT_NEAR(integral, total, total * (n + 4) * u / (1 - (n + 4) * u)) << "port " << id;
    EXPECT_EQ(static_cast<double>(star.net->received(id ^ 1).rx_bytes), total) << "port " << id;
  }
  // h1 sent 256 full packets, h2 ceil(300,000 / 4096) = 74 (73 full, 1 of
  // 992 B), each with 82 B of overhead; the switch forwarded all to h0.
  EXPECT_EQ(star.net->egress(2).counters().tx_bytes, 256u * 4178);
  EXPECT_EQ(star.net->egress(4).counters().tx_bytes, 73u * 4178 + 992 + 82);
  EXPECT_EQ(star.net->egress(1).counters().tx_bytes, 256u * 4178 + 73u * 4178 + 992 + 82);
}

}  // namespace
}  // namespace aifabric
