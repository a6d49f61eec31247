#include "cli_harness.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "test_paths.h"

namespace aifabric::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "aifabric-test-XXXXXX").string();
  char* made = mkdtemp(pattern.data());
  path_ = made ? made : "";
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::string& contents) const {
  const std::string full = path_ + "/" + name;
  std::filesystem::create_directories(std::filesystem::path(full).parent_path());
  std::ofstream(full, std::ios::binary) << contents;
  return full;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) { return std::filesystem::exists(path); }

namespace {

CommandResult RunShell(const std::string& command_line) {
  TempDir capture;
  const std::string out = capture.path() + "/stdout", err = capture.path() + "/stderr";
  const std::string command = command_line + " >" + out + " 2>" + err + " </dev/null";
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

}  // namespace

CommandResult RunAifabric(const std::string& args) { return RunShell(std::string(AIFABRIC_BINARY) + " " + args); }

CommandResult RunAifabricUnderMpirun(int processes, const std::string& args) {
  return RunShell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpirun -np " +
                  std::to_string(processes) + " --oversubscribe " + AIFABRIC_BINARY + " " + args);
}

}  // namespace aifabric::testing
