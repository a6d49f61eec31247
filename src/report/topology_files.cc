#include "report/topology_files.h"

#include "fabric/dot_writer.h"
#include "fabric/ibsim_netfile_writer.h"
#include "report/output_folder.h"

namespace aifabric {

Status WriteTopologyDot(const Topology& topology, const std::string& path) {
  return WriteFileAtomically(path, ToDot(topology));
}

Status WriteTopologyIbsim(const Topology& topology, const std::string& path) {
  return WriteFileAtomically(path, WriteIbsimNetFile(topology));
}

}  // namespace aifabric
