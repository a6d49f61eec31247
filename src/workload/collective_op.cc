#include "workload/collective_op.h"

#include <array>
#include <string>

namespace aifabric {
namespace {

constexpr std::array<CollectiveOp, 7> kAllOps = {
    CollectiveOp::kAllReduce, CollectiveOp::kAllGather, CollectiveOp::kReduceScatter,
    CollectiveOp::kAllToAll,  CollectiveOp::kBroadcast, CollectiveOp::kReduce,
    CollectiveOp::kSendRecv};

}  // namespace

std::string_view CollectiveOpName(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllReduce: return "all_reduce";
    case CollectiveOp::kAllGather: return "all_gather";
    case CollectiveOp::kReduceScatter: return "reduce_scatter";
    case CollectiveOp::kAllToAll: return "alltoall";
    case CollectiveOp::kBroadcast: return "broadcast";
    case CollectiveOp::kReduce: return "reduce";
    case CollectiveOp::kSendRecv: return "sendrecv";
  }
  return "?";
}

Result<CollectiveOp> ParseCollectiveOp(std::string_view name) {
  std::string accepted;
  for (CollectiveOp op : kAllOps) {
    if (CollectiveOpName(op) == name) return op;
    if (!accepted.empty()) accepted += ", ";
    accepted += CollectiveOpName(op);
  }
  std::string message = "unknown collective op '";
  message += name;
  message += "' (expected one of ";
  message += accepted;
  message += ")";
  return Error{message};
}

}  // namespace aifabric
