// A what-if beside an attached fabric (POST /api/runs/{id}/whatif): a
// simulated run of the same fabric with a change, linked to the
// attachment (its record's whatif_of). The scenario is the body when one
// is posted, else the attachment's template (the attach document's
// `scenario:`, kept in the attachment's folder as
// input/whatif_template.json by WriteWhatIfTemplate); the change is the
// query's `set=KEY=VALUE` (repeatable) and `model`, as kind=run takes them.
// The scenario must describe the attached fabric: the same node names and
// the same cables (compared with the attachment's topology.json), else
// 400. Pure functions of their arguments and the files they read;
// thread-safe.
#pragma once

#include <string>

#include "core/result.h"
#include "server/attach_request.h"
#include "server/run_request.h"
#include "server/serve_limits.h"

namespace aifabric {

// The file of the attachment's folder that holds its template:
// {"origin", "base_dir" (absolute), "text"}.
inline constexpr const char* kWhatIfTemplateFile = "input/whatif_template.json";

Status WriteWhatIfTemplate(const std::string& attachment_dir, const AttachSpec& spec);

// The run (kind "run", whatif_of = attachment_id). Errors are 400s: an
// unknown parameter, no scenario (none posted and no template), the
// scenario's own errors, a refused limit, or a fabric that is not the
// attached one (naming the first node or cable that differs).
Result<ParsedRun> ParseWhatIfRequest(const std::string& attachment_id, const std::string& attachment_dir,
                                     const QueryParams& params, const std::string& body, const ServeLimits& limits);

}  // namespace aifabric
