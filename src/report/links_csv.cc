#include "report/links_csv.h"

#include <fmt/format.h>

namespace aifabric {

std::string ExactNs(Time t) {
  const int64_t ps = t.ps();
  const int64_t whole = ps / 1000, frac = ps % 1000;
  if (frac == 0) return std::to_string(whole);
  std::string f = fmt::format("{:03d}", frac);
  while (f.back() == '0') f.pop_back();
  return std::to_string(whole) + "." + f;
}

double LinkUtilization(uint64_t tx_bytes, const Port& port, Time sim_time) {
  const double seconds = sim_time.seconds();
  if (seconds <= 0) return 0;
  return static_cast<double>(tx_bytes) * 8.0 / (static_cast<double>(port.rate.bps()) * seconds);
}

void WriteLinksCsv(TextSink& out, const Topology& topology, const std::function<PortCounters(PortId)>& counters,
                   Time sim_time) {
  out.Append("link_id,src,dst,rate_gbps,bytes,util,drops,ecn_marks,pfc_pause_ns,max_queue_bytes\n");
  for (const Port& port : topology.ports()) {
    const PortCounters c = counters(port.id);
    fmt::memory_buffer line;
    fmt::format_to(std::back_inserter(line), "{},{},{},{},{},{:.6f},{},{},{},{}\n", port.id,
                   topology.node(port.node).name, topology.node(port.peer).name, port.rate.gbps(), c.tx_bytes,
                   LinkUtilization(c.tx_bytes, port, sim_time), c.drop_packets, c.ecn_marks,
                   ExactNs(Time::FromPs(static_cast<int64_t>(c.pfc_pause_ps))), c.max_queue_bytes);
    out.Append(std::string_view(line.data(), line.size()));
  }
}

}  // namespace aifabric
