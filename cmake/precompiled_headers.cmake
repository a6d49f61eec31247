# Precompiled headers (AIFABRIC_PCH): each library and each test binary
# precompiles the standard and third-party headers most of its files
# include, so a clean build parses them once per target instead of once per
# file. Only headers outside the project go in, so a precompiled header
# changes neither what a file means nor its warnings; our own headers are
# left out, so editing one rebuilds only the files that include it.
#
# Measured with a compiler launcher that logged each object's CPU time
# (docs/reliability.md, "Build time"): parsing these headers is most of a
# clean build's work — nlohmann/json.hpp alone costs about 3.5 s of CPU a
# file, gtest.h about 2 s, the standard headers below 1.8 s.
#
# Off by default. scripts/sanitizer_build.sh turns it on (clang loads a
# precompiled header in about 0.1 s, so it pays in every file), except
# under a compiler launcher: ccache does not cache a compile that uses a
# precompiled header (it counts it as "could not use precompiled header")
# unless its sloppiness settings allow it, and a warm cache beats a
# precompiled header on every rebuild. For gcc's Release build it is
# opt-in (`make test CMAKE_FLAGS=-DAIFABRIC_PCH=ON`): gcc loads the header
# in 0.3 to 1.2 s a file, so it saves less.
option(AIFABRIC_PCH "Precompile the standard and third-party headers per target" OFF)

# The standard headers a third or more of the files include.
set(AIFABRIC_PCH_STANDARD_HEADERS
  <algorithm> <array> <cassert> <chrono> <cmath> <cstddef> <cstdint> <cstdio> <cstdlib> <functional> <limits>
  <map> <memory> <optional> <set> <span> <string> <string_view> <utility> <vector>)

# aifabric_pch_headers(<target> <header>...): the third-party headers that
# <target>'s precompiled header adds to the standard ones; set here, before
# the folders are added, so the table stays in one place.
macro(aifabric_pch_headers target)
  set(AIFABRIC_PCH_HEADERS_${target} ${ARGN})
endmacro()

# aifabric_precompile_headers(<target> [TEST]): gives <target> its
# precompiled header (when AIFABRIC_PCH is on): the standard headers, the
# ones aifabric_pch_headers named for it and, for a test binary (TEST),
# GoogleTest's. A target of fewer than 3 files gets none: building the
# header costs about what parsing it in each file would.
function(aifabric_precompile_headers target)
  get_target_property(sources ${target} SOURCES)
  list(LENGTH sources source_count)
  if(NOT AIFABRIC_PCH OR source_count LESS 3)
    return()
  endif()
  set(headers ${AIFABRIC_PCH_STANDARD_HEADERS} ${AIFABRIC_PCH_HEADERS_${target}})
  if(ARGV1 STREQUAL "TEST")
    list(APPEND headers <gtest/gtest.h>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# Which third-party headers each target precompiles: those a third or more
# of its files include (counted from a Release build's dependency files,
# 2026-12-02). Below that, gcc's cost of loading the bigger precompiled
# header in every file (about 0.9 s a file for nlohmann/json.hpp) outweighs
# the parsing saved in the files that include it (about 2.5 s each). A
# stale entry costs build time only, never correctness.
set(aifabric_pch_json <nlohmann/json.hpp>)
set(aifabric_pch_yaml <yaml-cpp/yaml.h>)
set(aifabric_pch_protobuf <google/protobuf/message.h> <google/protobuf/generated_message_reflection.h>
    <google/protobuf/repeated_field.h>)
aifabric_pch_headers(aifabric_diagnosis ${aifabric_pch_json})
aifabric_pch_headers(aifabric_diagnosis_tests ${aifabric_pch_json})
aifabric_pch_headers(aifabric_fabric_tests <gmock/gmock.h>)
aifabric_pch_headers(aifabric_sched ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_chakra ${aifabric_pch_protobuf})
aifabric_pch_headers(aifabric_chakra_tests ${aifabric_pch_protobuf} <gmock/gmock.h>)
aifabric_pch_headers(aifabric_scenario ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_scenario_tests ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_run ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_calibrate ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_calibrate_tests ${aifabric_pch_json} ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_report ${aifabric_pch_json} ${aifabric_pch_yaml} <fmt/format.h>)
aifabric_pch_headers(aifabric_report_tests ${aifabric_pch_json} ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_observe_tests ${aifabric_pch_json} <gmock/gmock.h>)
aifabric_pch_headers(aifabric_plan ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_plan_tests ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_server ${aifabric_pch_yaml})
aifabric_pch_headers(aifabric_server_tests ${aifabric_pch_json} ${aifabric_pch_yaml} <httplib.h>)
aifabric_pch_headers(aifabric ${aifabric_pch_json} ${aifabric_pch_yaml})
aifabric_pch_headers(cli_tests ${aifabric_pch_json} <gmock/gmock.h>)
