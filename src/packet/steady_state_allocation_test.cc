// The packet model's steady state allocates nothing per packet: packets come
// from the pool, events live in the queue's reused buckets (which still grow
// geometrically, rarely, when one holds more events than ever before). This
// binary counts every operator new to check it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's buffer takes it), so every
// plain delete frees what this file's new allocated.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace aifabric {
namespace {

TEST(PacketNetwork, SteadyStateAllocatesNothingPerPacket) {
  // Four hosts send 64 MiB each across a two-switch path (4 x 100G into one
  // 400G link) to four receivers: every link runs at line rate and no queue
  // grows. After 1 ms of warm-up, the next 4 ms move ~48,000 packets (each
  // crossing 3 links); the pool never grows and the only allocations left
  // are the event-queue buckets' rare geometric growth: fewer than one per
  // thousand packets.
  Topology t;
  for (int i = 0; i < 8; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
  SwitchSpec spec;
  spec.radix = 8;
  spec.port_rate = DataRate::Gbps(400);
  spec.latency = Time::FromNs(400);
  spec.buffer_bytes = 64ull << 20;
  const int s = t.AddSwitchSpec(spec);
  const NodeId a = t.AddSwitch("a", 1, s), b = t.AddSwitch("b", 1, s);
  for (int i = 0; i < 4; ++i) t.AddLink(i, a, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(a, b, DataRate::Gbps(400), Time::FromNs(500));
  for (int i = 4; i < 8; ++i) t.AddLink(b, i, DataRate::Gbps(100), Time::FromNs(500));
  RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  Simulator sim(1);
  PacketNetwork net(sim, t, routes, PacketConfig{});
  for (int i = 0; i < 4; ++i) {
    TransferRequest r;
    r.id = i;
    r.src = i;
    r.dst = 4 + i;
    r.bytes = 64ull << 20;
    net.StartTransfer(r);
  }
  sim.Run(Time::FromMs(1));
  const uint64_t before = g_allocations.load();
  const size_t pool_before = net.packets_capacity();
  uint64_t delivered_before = net.totals().delivered;
  sim.Run(Time::FromMs(5));
  // 4 ms at 100G is 4e-3 * 100e9 / 8 / 4178 = 11,967 packets per flow.
  const uint64_t packets = (net.totals().delivered - delivered_before) / 4096;
  EXPECT_GT(packets, 4u * 11900);
  EXPECT_EQ(net.packets_capacity(), pool_before);
  EXPECT_LT(g_allocations.load() - before, packets / 1000);
}

}  // namespace
}  // namespace aifabric
