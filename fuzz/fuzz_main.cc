// The libFuzzer entry of one fuzz target: the build compiles this file once
// per target with AIFABRIC_FUZZ_TARGET naming it (fuzz/CMakeLists.txt). A
// broken contract aborts, which libFuzzer keeps as a crash input. At exit
// it prints how many inputs the reader answered with a value and how many
// with a clean error (scripts/fuzz.sh reads that line). One thread.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_checks.h"

namespace {

unsigned long long values = 0, errors = 0;

void PrintCounts() {
  std::fprintf(stderr, "fuzz_%s: %llu inputs, %llu values, %llu clean errors\n", AIFABRIC_FUZZ_TARGET,
               values + errors, values, errors);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(PrintCounts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const aifabric::fuzz::FuzzTarget* target = aifabric::fuzz::FindFuzzTarget(AIFABRIC_FUZZ_TARGET);
  if (target == nullptr) {
    std::fprintf(stderr, "fuzz: no target called %s\n", AIFABRIC_FUZZ_TARGET);
    std::abort();
  }
  const aifabric::fuzz::CheckOutcome outcome =
      target->check(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!outcome.broke.empty()) {
    std::fprintf(stderr, "fuzz_%s: the reader's contract broke: %s\n", target->name, outcome.broke.c_str());
    std::abort();
  }
  ++(outcome.error ? errors : values);
  return 0;
}
