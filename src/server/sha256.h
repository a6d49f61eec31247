// Sha256Hex is the SHA-256 digest (FIPS 180-4) of a byte string as 64
// lowercase hex digits: the run store's scenario hash, so runs of the same
// scenario text can be told apart from others at a glance. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace aifabric {

std::string Sha256Hex(std::string_view bytes);

}  // namespace aifabric
