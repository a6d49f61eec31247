// The dashboard `aifabric serve` answers at / (docs/serve.md, "Dashboard"):
// web/dashboard's page, script and style and the ECharts that web/report's
// package-lock.json pins, and the examples the page offers to start, all
// compiled into the binary at build time (embed_dashboard_assets.cmake), so
// the server reads nothing of the file system to serve them. Immutable;
// safe to read from any thread.
#pragma once

#include <string_view>
#include <vector>

namespace aifabric {

struct DashboardFile {
  std::string_view name;  // "index.html", "dashboard.js", "echarts.min.js", ...
  std::string_view text;  // byte for byte
};

// A scenario (or plan requirements) of examples/ the page can start as is.
struct DashboardExample {
  std::string_view name;   // "quickstart"
  std::string_view kind;   // POST /api/runs?kind=...: "run" or "plan"
  std::string_view query;  // further query parameters it runs best with ("model=flow"), or ""
  std::string_view file;   // where it lives in the repository, "examples/quickstart.yaml"
  std::string_view text;   // the file, byte for byte
};

// Every file of the dashboard, index.html first.
const std::vector<DashboardFile>& DashboardFiles();
// The examples, the quickstart first.
const std::vector<DashboardExample>& DashboardExamples();

// The file `name` (no folders), or null.
const DashboardFile* FindDashboardFile(std::string_view name);
// The Content-Type of a dashboard file, from its extension.
const char* DashboardContentType(std::string_view name);

}  // namespace aifabric
