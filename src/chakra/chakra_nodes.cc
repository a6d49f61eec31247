#include "chakra/chakra_nodes.h"

#include "chakra/chakra_attributes.h"

namespace aifabric {
namespace {

ChakraProtoMsg::Node Base(uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type,
                          const std::vector<uint64_t>& data_deps) {
  ChakraProtoMsg::Node n;
  n.set_id(id);
  n.set_name(name);
  n.set_type(type);
  for (uint64_t d : data_deps) n.add_data_deps(d);
  *n.add_attr() = ChakraBoolAttr("is_cpu_op", false);
  return n;
}

ChakraProtoMsg::Node PointToPoint(uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type, int32_t src,
                                  int32_t dst, uint64_t comm_size_bytes, int32_t tag,
                                  const std::vector<uint64_t>& data_deps) {
  ChakraProtoMsg::Node n = Base(id, name, type, data_deps);
  *n.add_attr() = ChakraInt32Attr("comm_src", src);
  *n.add_attr() = ChakraInt32Attr("comm_dst", dst);
  *n.add_attr() = ChakraInt64Attr("comm_size", static_cast<int64_t>(comm_size_bytes));
  *n.add_attr() = ChakraInt32Attr("comm_tag", tag);
  return n;
}

}  // namespace

ChakraProtoMsg::GlobalMetadata MakeChakraMetadata() {
  ChakraProtoMsg::GlobalMetadata m;
  m.set_version("0.0.4");
  return m;
}

ChakraProtoMsg::Node MakeChakraCompute(uint64_t id, const std::string& name, uint64_t duration_us,
                                       const std::vector<uint64_t>& data_deps) {
  ChakraProtoMsg::Node n = Base(id, name, ChakraProtoMsg::COMP_NODE, data_deps);
  n.set_duration_micros(duration_us);
  return n;
}

ChakraProtoMsg::Node MakeChakraCollective(uint64_t id, const std::string& name, ChakraProtoMsg::CollectiveCommType type,
                                          uint64_t comm_size_bytes, const std::vector<uint64_t>& data_deps,
                                          const std::string& pg_name) {
  ChakraProtoMsg::Node n = Base(id, name, ChakraProtoMsg::COMM_COLL_NODE, data_deps);
  *n.add_attr() = ChakraInt64Attr("comm_type", type);
  *n.add_attr() = ChakraInt64Attr("comm_size", static_cast<int64_t>(comm_size_bytes));
  if (!pg_name.empty()) *n.add_attr() = ChakraStringAttr("pg_name", pg_name);
  return n;
}

ChakraProtoMsg::Node MakeChakraSend(uint64_t id, const std::string& name, int32_t src, int32_t dst,
                                    uint64_t comm_size_bytes, int32_t tag, const std::vector<uint64_t>& data_deps) {
  return PointToPoint(id, name, ChakraProtoMsg::COMM_SEND_NODE, src, dst, comm_size_bytes, tag, data_deps);
}

ChakraProtoMsg::Node MakeChakraRecv(uint64_t id, const std::string& name, int32_t src, int32_t dst,
                                    uint64_t comm_size_bytes, int32_t tag, const std::vector<uint64_t>& data_deps) {
  return PointToPoint(id, name, ChakraProtoMsg::COMM_RECV_NODE, src, dst, comm_size_bytes, tag, data_deps);
}

}  // namespace aifabric
