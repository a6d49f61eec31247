// Where the tests find the source tree and the aifabric binary.
//
// Both live in one generated object (cmake/test_paths.cmake), not in a -D
// flag on every test file: a test object then does not depend on where the
// tree is checked out or built, so two clones compile the same objects and a
// compiler cache serves the second from the first.
#pragma once

namespace aifabric_test_paths {
extern const char kSourceDir[];  // the checkout's root, absolute
extern const char kBinary[];     // the aifabric executable, absolute
}  // namespace aifabric_test_paths

#define AIFABRIC_SOURCE_DIR (::aifabric_test_paths::kSourceDir)
#define AIFABRIC_BINARY (::aifabric_test_paths::kBinary)
