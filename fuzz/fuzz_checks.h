// The fuzz targets' checks: one per reader of user input, each feeding an
// input's bytes to the entry the CLI (or the server) reads that input with
// and checking the readers' contract — a value, or an error whose message
// names the input — on top of what the fuzzer itself watches for (a crash,
// a hang, unbounded memory). The libFuzzer binaries (fuzz_main.cc) and the
// regression test that replays fuzz/regressions/ (fuzz_regressions_test.cc)
// call the same checks. Each check is stateless apart from a per-process
// scratch file (the Chakra target, whose reader takes a path); call one
// check at a time per process.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace aifabric::fuzz {

// What a check found: whether the reader answered with an error (a clean
// refusal) or a value, and what broke the contract (empty when it held).
struct CheckOutcome {
  bool error = false;
  std::string broke;
};
using FuzzCheck = CheckOutcome (*)(std::string_view input);

struct FuzzTarget {
  const char* name;         // the binary is fuzz_<name>; its corpus and regressions are fuzz/*/<name>/
  const char* reads;        // the input, as docs/reliability.md lists it
  FuzzCheck check;
};

// Every target, in the order docs/reliability.md lists them.
std::span<const FuzzTarget> FuzzTargets();

// The target called `name`, or nullptr.
const FuzzTarget* FindFuzzTarget(std::string_view name);

}  // namespace aifabric::fuzz
