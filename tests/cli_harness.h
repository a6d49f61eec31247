// Test helpers that run the aifabric binary in a fresh temporary folder and
// capture its exit code, stdout and stderr.
#pragma once

#include <string>

namespace aifabric::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A fresh, empty temporary folder, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // Writes `contents` to `name` inside the folder; returns the full path.
  std::string Write(const std::string& name, const std::string& contents) const;

 private:
  std::string path_;
};

// Runs `aifabric <args>` (args are passed to the shell as written).
CommandResult RunAifabric(const std::string& args);

// Runs `mpirun -np <processes> aifabric <args>` with OpenMPI's mpirun on
// this machine (allowed as root, more processes than cores allowed),
// given at most two minutes.
CommandResult RunAifabricUnderMpirun(int processes, const std::string& args);

std::string ReadFile(const std::string& path);
bool Exists(const std::string& path);

}  // namespace aifabric::testing
