// The subcommands of the aifabric CLI, one function each, returning the
// process exit code. They use only the api library.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/result.h"

namespace aifabric {

inline constexpr const char* kVersion = "0.1.0";
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

// Prints "aifabric: error: <message>" on stderr; returns kExitBadInput.
inline int ReportBadInput(const Error& error) {
  std::fprintf(stderr, "aifabric: error: %s\n", error.message.c_str());
  return kExitBadInput;
}

struct RunOptions {
  std::string scenario;
  std::string out_dir;                 // "" -> out/<scenario name>
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string model;                   // "" -> the scenario's simulation.model
  bool quiet = false;
};
int RunCommand(const RunOptions& options);

struct ValidateOptions {
  std::string scenario;
  std::string dot_file;    // --dot: Graphviz
  std::string ibsim_file;  // --ibsim: ibsim net file (docs/infiniband.md)
  std::vector<std::string> overrides;
};
int ValidateCommand(const ValidateOptions& options);

}  // namespace aifabric
