# cmake -DSOURCE_DIR=... -DEXAMPLES=name|kind|query|file,... -DOUT=... -P embed_dashboard_assets.cmake
# Writes OUT, the definitions of DashboardFiles() and DashboardExamples()
# (server/dashboard_assets.h): web/dashboard's files, ECharts from
# web/report/node_modules, and the examples' scenario texts, each as a
# constexpr unsigned char array ending in a 0 byte that is not part of the
# text (src/telemetry/embed_byte_array.cmake).

cmake_policy(SET CMP0007 NEW)  # keep the empty query of an example
include(${SOURCE_DIR}/src/telemetry/embed_byte_array.cmake)

set(body "")
set(files "")
set(index 0)
foreach(pair "index.html|web/dashboard/index.html" "dashboard.css|web/dashboard/dashboard.css"
             "dashboard.js|web/dashboard/dashboard.js" "dashboard_views.js|web/dashboard/dashboard_views.js"
             "dashboard_live.js|web/dashboard/dashboard_live.js"
             "echarts.min.js|web/report/node_modules/echarts/dist/echarts.min.js")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 path)
  AppendArray(kFile${index} ${SOURCE_DIR}/${path})
  set(files "${files}      {\"${name}\", Text(kFile${index})},\n")
  math(EXPR index "${index} + 1")
endforeach()

set(examples "")
set(index 0)
string(REPLACE "," ";" example_list "${EXAMPLES}")
foreach(e ${example_list})
  string(REPLACE "|" ";" parts "${e}")
  list(GET parts 0 name)
  list(GET parts 1 kind)
  list(GET parts 2 query)
  list(GET parts 3 path)
  AppendArray(kExample${index} ${SOURCE_DIR}/${path})
  set(examples "${examples}      {\"${name}\", \"${kind}\", \"${query}\", \"${path}\", Text(kExample${index})},\n")
  math(EXPR index "${index} + 1")
endforeach()

file(WRITE ${OUT}.tmp "// GENERATED from web/dashboard/ and examples/ by src/server/embed_dashboard_assets.cmake; do not edit.
#include \"server/dashboard_assets.h\"

#include <cstddef>

namespace aifabric {
namespace {

${body}// The text of `bytes` without its terminating 0.
template <size_t N>
std::string_view Text(const unsigned char (&bytes)[N]) {
  return std::string_view(reinterpret_cast<const char*>(bytes), N - 1);
}

}  // namespace

const std::vector<DashboardFile>& DashboardFiles() {
  static const std::vector<DashboardFile> files{
${files}  };
  return files;
}

const std::vector<DashboardExample>& DashboardExamples() {
  static const std::vector<DashboardExample> examples{
${examples}  };
  return examples;
}

}  // namespace aifabric
")
file(RENAME ${OUT}.tmp ${OUT})
