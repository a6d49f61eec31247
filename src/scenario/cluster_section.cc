#include "scenario/cluster_section.h"

#include <cmath>
#include <sstream>

#include "core/units.h"

namespace aifabric {
namespace {

void ReadNic(const SectionContext& c, const MapReader& nic, Scenario& s) {
  nic.AllowOnly({"rate", "model", "per_gpu"});
  DataRate rate = nic.Rate("rate", DataRate::Gbps(400));
  if (nic.Has("model")) {
    const std::string model = nic.String("model", "");
    const NicSpec* spec = c.catalog.FindNic(model);
    if (spec == nullptr) {
      nic.FailAt("model", "unknown NIC '" + model + "'; the catalog has " + CatalogNames(c.catalog.nics()));
    } else if (nic.Has("rate") && spec->rate != rate) {
      nic.FailAt("rate", "rate " + FormatRate(rate) + " disagrees with model " + spec->name + " (" +
                             FormatRate(spec->rate) + "); give one of them");
    } else {
      rate = spec->rate;
      s.nic_model = spec->name;
    }
  }
  s.topology.nic_rate = rate;
  s.nics_per_gpu = nic.Number("per_gpu", 1.0, IsPositive, "a number > 0");
}

// nics_per_server = gpus_per_server * per_gpu must be a whole number >= 1.
void DeriveNicsPerServer(const MapReader& nic, Scenario& s) {
  const double nics = s.server.gpus_per_server * s.nics_per_gpu;
  const double whole = std::round(nics);
  if (std::fabs(nics - whole) > 1e-9 || whole < 1 || whole > kMaxInt) {
    std::ostringstream what;
    what << "gpus_per_server (" << s.server.gpus_per_server << ") * per_gpu (" << s.nics_per_gpu << ") = " << nics
         << " NICs per server; expected a whole number >= 1";
    nic.FailAt("per_gpu", what.str());
    return;
  }
  s.topology.nics_per_server = static_cast<int>(whole);
}

}  // namespace

void ReadCluster(const SectionContext& c, const MapReader& cluster, Scenario& s) {
  cluster.AllowOnly({"servers", "gpus_per_server", "gpu", "nic", "nvlink"});
  s.topology.servers = static_cast<int>(cluster.Int("servers", 1, 1, kMaxInt));
  s.server.gpus_per_server = static_cast<int>(cluster.Int("gpus_per_server", 8, 1, kMaxInt));
  const std::string gpu = cluster.String("gpu", "H100");
  if (const GpuSpec* spec = c.catalog.FindGpu(gpu)) {
    s.gpu = *spec;
  } else {
    cluster.FailAt("gpu", "unknown GPU '" + gpu + "'; the catalog has " + CatalogNames(c.catalog.gpus()));
  }
  // Inside a server: each GPU's NVLink bandwidth per direction (the
  // catalog's, unless given) and the NVLink latency.
  MapReader nvlink = cluster.Map("nvlink");
  nvlink.AllowOnly({"bandwidth", "latency"});
  // The rate NCCL achieves, not the datasheet's (data/catalog.yaml).
  const DataRate catalog_nvlink =
      DataRate::BitsPerSecond(static_cast<uint64_t>(s.gpu.nvlink_achievable_gbps_per_dir * 8e9));
  s.server.nvlink_per_dir = nvlink.Rate("bandwidth", catalog_nvlink.IsZero() ? s.server.nvlink_per_dir : catalog_nvlink);
  s.server.nvlink_latency = nvlink.TimeValue("latency", s.server.nvlink_latency);
  MapReader nic = cluster.Map("nic");
  ReadNic(c, nic, s);
  if (c.d.ok()) DeriveNicsPerServer(nic, s);
}

}  // namespace aifabric
