// An attachment of a real fabric to the server (POST /api/runs?kind=observe,
// or `aifabric serve --attach FILE`): the small YAML (or JSON) document that
// says where its counters are and what its topology is, read and checked
// into an AttachSpec, and made into the RunTask that watches it
// (server/observe_task.h). The document (docs/serve.md, "Attaching a real
// fabric"):
//   name: pod-a                                   # default: the file name's stem
//   prometheus: http://127.0.0.1:9090             # http:// only
//   exporter: aifabric                            # or infiniband_exporter
//   topology: {format: hpcc, file: fabric.txt}    # or text: the file's content
//   interval: 5s                                  # between passes, >= 1s
//   window: 30s                                   # counters over the last WINDOW
//   timeout: 5s                                   # each HTTP request, <= interval
//   scenario: {file: whatif.yaml}                 # optional, or text: ...; the what-if template
// Errors are the CLI's: "<origin>:<line>:<col>: <field>: <what>". Pure
// functions of their arguments and the files they name; thread-safe.
#pragma once

#include <memory>
#include <string>

#include "core/result.h"
#include "core/time.h"
#include "fabric/topology.h"
#include "observe/exporter_schema.h"
#include "server/run_request.h"

namespace aifabric {

struct AttachSpec {
  std::string name;
  std::string prometheus;                      // http://HOST[:PORT][/PREFIX]
  const ExporterSchema* exporter = nullptr;    // never null once read
  std::shared_ptr<const Topology> topology;    // read from the file (or text) now
  Time interval = Time::FromSeconds(5);
  Time window = Time::FromSeconds(30);
  Time timeout = Time::FromSeconds(5);
  // The what-if template: a scenario of the same fabric ("" when none was given).
  std::string scenario_text;
  std::string scenario_origin;                 // its file name, as messages name it
  std::string scenario_base_dir;               // where its relative paths resolve
};

// Reads `text` (named `origin` in messages); relative paths resolve
// against `base_dir`. Bounds: interval >= 1s; 1ms <= timeout <= interval;
// window > 0.
Result<AttachSpec> ReadAttachSpec(const std::string& text, const std::string& origin, const std::string& base_dir);

// The run of kind "observe" that watches the fabric `text` describes;
// the task keeps `text` as input/attach.yaml in the run's folder.
Result<ParsedRun> ParseAttachRequest(const std::string& text, const std::string& origin, const std::string& base_dir);

// The file an attached fabric's run keeps its attach document in.
inline constexpr const char* kAttachInputFile = "input/attach.yaml";

}  // namespace aifabric
