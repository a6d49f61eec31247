#include "report/collective_request.h"

namespace aifabric {
namespace {

Result<uint64_t> SizeArgument(const char* flag, const std::string& text) {
  Result<uint64_t> v = ParseNcclTestsSize(text);
  if (!v.ok()) return Error{std::string(flag) + ": " + v.error().message};
  return v;
}

// The ranges the CLI's parser enforces before a request is made.
Status CheckRanges(const CollectiveFlags& o) {
  auto outside = [](const char* flag, int64_t value, int64_t lo, int64_t hi) -> Status {
    if (value >= lo && value <= hi) return Status::Ok();
    return Error{std::string(flag) + ": " + std::to_string(value) + " is not in [" + std::to_string(lo) + " - " +
                 std::to_string(hi) + "]"};
  };
  if (Status s = outside("-f", static_cast<int64_t>(o.step_factor), 2, 1 << 20); !s.ok()) return s;
  if (o.gpus != 0) {
    if (Status s = outside("--gpus", o.gpus, 1, 1 << 24); !s.ok()) return s;
  }
  if (o.channels != 0) {
    if (Status s = outside("--channels", o.channels, 1, 64); !s.ok()) return s;
  }
  if (Status s = outside("-r", o.root, 0, 1 << 24); !s.ok()) return s;
  return outside("-c", o.check, 0, 1);
}

}  // namespace

Result<CollectiveRequest> CollectiveRequestFrom(const CollectiveFlags& o) {
  if (Status s = CheckRanges(o); !s.ok()) return s.error();
  CollectiveRequest r;
  Result<CollectiveOp> op = ParseCollectiveOp(o.op);
  if (!op.ok()) return Error{"--op: " + op.error().message};
  r.op = *op;
  if (o.algorithm != "auto") {
    Result<CollectiveAlgorithm> algo = ParseCollectiveAlgorithm(o.algorithm);
    if (!algo.ok()) return Error{"--algo: " + algo.error().message + " or auto"};
    r.algorithm = *algo;
  }
  if (o.protocol != "auto") {
    Result<CollectiveProtocol> proto = ParseCollectiveProtocol(o.protocol);
    if (!proto.ok()) return Error{"--proto: " + proto.error().message + " or auto"};
    r.protocol = *proto;
  }
  Result<uint64_t> min = SizeArgument("-b", o.min_bytes), max = SizeArgument("-e", o.max_bytes);
  if (!min.ok()) return min.error();
  if (!max.ok()) return max.error();
  r.sweep.min_bytes = *min;
  r.sweep.max_bytes = *max;
  if (!o.step_bytes.empty()) {
    Result<uint64_t> step = SizeArgument("-i", o.step_bytes);
    if (!step.ok()) return step.error();
    r.sweep.step_bytes = *step;
    r.sweep.step_factor = 1;
  } else {
    r.sweep.step_factor = o.step_factor;
  }
  if (!o.chunk_bytes.empty()) {
    Result<uint64_t> chunk = SizeArgument("--chunk", o.chunk_bytes);
    if (!chunk.ok()) return chunk.error();
    r.chunk_bytes = *chunk;
  }
  r.gpus = o.gpus;
  r.channels = o.channels;
  r.pxn = !o.no_pxn;
  r.root = o.root;
  r.data_check = o.check != 0;
  return r;
}

}  // namespace aifabric
