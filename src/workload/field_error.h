// FieldError is the Error a workload check returns for one bad field of
// its spec: "<field>: <what>", the field named as the user wrote it (the
// training step and training memory checks share it). Header-only;
// stateless.
#pragma once

#include <string>
#include <utility>

#include "core/result.h"

namespace aifabric {

inline Error FieldError(const char* field, const std::string& what) {
  std::string message = field;
  message += ": ";
  message += what;
  return Error{std::move(message)};
}

}  // namespace aifabric
