#include "server/dashboard_assets.h"

namespace aifabric {

const DashboardFile* FindDashboardFile(std::string_view name) {
  for (const DashboardFile& f : DashboardFiles()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const char* DashboardContentType(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace aifabric
