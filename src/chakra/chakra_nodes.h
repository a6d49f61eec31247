// Makers of Chakra nodes the way chakra's converters and ASTRA-sim's
// example generators write them (node type, attributes with the value types
// chakra's feeder reads: comm_type/comm_size as int64, comm_src/comm_dst/
// comm_tag as int32, pg_name as a string, is_cpu_op false). For tests, the
// examples and users who build traces by hand. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chakra/et_def.pb.h"

namespace aifabric {

// The GlobalMetadata aifabric writes (version "0.0.4", as ASTRA-sim's
// examples do).
ChakraProtoMsg::GlobalMetadata MakeChakraMetadata();

// A GPU kernel of `duration_us` microseconds (duration_micros), after
// `data_deps` (node ids of the same rank).
ChakraProtoMsg::Node MakeChakraCompute(uint64_t id, const std::string& name, uint64_t duration_us,
                                       const std::vector<uint64_t>& data_deps = {});

// A collective of `comm_size_bytes` over the communicator `pg_name`
// ("" = all ranks).
ChakraProtoMsg::Node MakeChakraCollective(uint64_t id, const std::string& name, ChakraProtoMsg::CollectiveCommType type,
                                          uint64_t comm_size_bytes, const std::vector<uint64_t>& data_deps = {},
                                          const std::string& pg_name = "");

// The send half of a point-to-point transfer from rank `src` to `dst`.
ChakraProtoMsg::Node MakeChakraSend(uint64_t id, const std::string& name, int32_t src, int32_t dst,
                                    uint64_t comm_size_bytes, int32_t tag, const std::vector<uint64_t>& data_deps = {});

// The receive half, on rank `dst`.
ChakraProtoMsg::Node MakeChakraRecv(uint64_t id, const std::string& name, int32_t src, int32_t dst,
                                    uint64_t comm_size_bytes, int32_t tag, const std::vector<uint64_t>& data_deps = {});

}  // namespace aifabric
