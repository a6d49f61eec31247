#include "plan/switch_config.h"

#include <filesystem>
#include <set>
#include <vector>

#include "core/text_file.h"
#include "plan/opensm_config.h"
#include "plan/sonic_config_db.h"
#include "report/output_folder.h"

namespace aifabric {
namespace {

// The folders below `dir` (and `dir` itself) that do not exist yet, deepest
// first, so that a failed write can remove what it created.
std::vector<std::filesystem::path> MissingFolders(const std::string& dir, const std::vector<std::string>& subfolders) {
  std::set<std::filesystem::path> missing;
  auto add = [&](std::filesystem::path p) {
    std::error_code ec;
    for (; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) {
      missing.insert(p);
      if (p == p.parent_path()) break;
    }
  };
  add(std::filesystem::path(dir));
  for (const std::string& s : subfolders) add(std::filesystem::path(dir) / s);
  return {missing.rbegin(), missing.rend()};
}

Status WriteInto(OutputFolder& folder, const Scenario& scenario, const BuiltFabric& fabric,
                 const SwitchConfigOptions& options) {
  const Topology& topology = fabric.topology;
  const FabricKind kind = scenario.packet.kind;
  if (kind == FabricKind::kRoce) {
    for (NodeId sw : topology.switches()) {
      const std::string& name = topology.node(sw).name;
      if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
        return Error{"switch '" + name + "' cannot name a folder of the configuration"};
      }
      Result<std::string> db = SonicConfigDb(scenario, topology, sw);
      if (!db.ok()) return db.error();
      if (Status st = folder.Write(name + "/config_db.json", *db); !st.ok()) return st.error();
    }
  } else {
    Result<OpenSmFiles> osm = OpenSmConfig(scenario);
    if (!osm.ok()) return osm.error();
    for (const auto& [file, text] : {std::pair<const char*, const std::string*>{"opensm.conf", &osm->opensm_conf},
                                     {"partitions.conf", &osm->partitions_conf},
                                     {"README", &osm->readme}}) {
      if (Status st = folder.Write(std::string("opensm/") + file, *text); !st.ok()) return st.error();
    }
    if (!osm->lfts_source.empty()) {
      Result<std::string> lfts = ReadTextFile(osm->lfts_source);
      if (!lfts.ok()) return Error{"fabric.ib.routing.file: " + lfts.error().message};
      if (Status st = folder.Write("opensm/lfts.dump", *lfts); !st.ok()) return st.error();
    }
  }
  if (Status st = folder.Write("cabling.csv", CablingCsv(topology, kind, options.cable_type, options.cable_length)); !st.ok()) {
    return st.error();
  }
  return folder.Commit();
}

}  // namespace

Status WriteSwitchConfig(const Scenario& scenario, const BuiltFabric& fabric, const std::string& dir,
                         const SwitchConfigOptions& options) {
  std::vector<std::string> subfolders;
  if (scenario.packet.kind == FabricKind::kRoce) {
    for (NodeId sw : fabric.topology.switches()) subfolders.push_back(fabric.topology.node(sw).name);
  } else {
    subfolders.push_back("opensm");
  }
  const std::vector<std::filesystem::path> created = MissingFolders(dir, subfolders);
  Status written;
  {
    OutputFolder folder(dir);
    written = WriteInto(folder, scenario, fabric, options);
  }  // the folder removes what it did not commit
  if (!written.ok()) {
    for (const std::filesystem::path& p : created) {
      std::error_code ignored;
      std::filesystem::remove(p, ignored);  // only if empty: never what was there before
    }
  }
  return written;
}

}  // namespace aifabric
