// Typed access to a Chakra node's attributes (AttributeProto, a name and a
// oneof value). Chakra's converters and ASTRA-sim's examples do not agree
// on one integer type per attribute (comm_size is written as int64_val by
// some and uint64_val by others), so the integer accessors take any integer
// member of the oneof. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chakra/et_def.pb.h"
#include "core/result.h"

namespace aifabric {

// The attribute named `name`, or nullptr. The first one wins.
const ChakraProtoMsg::AttributeProto* FindChakraAttr(const ChakraProtoMsg::Node& node, std::string_view name);

// The value of an integer attribute (any of int32/int64/uint32/uint64/
// sint*/fixed*/sfixed*, or bool), nullopt when absent. Errors (the message
// says what, the caller says where): not an integer, or out of int64 range.
Result<std::optional<int64_t>> ChakraAttrInt(const ChakraProtoMsg::Node& node, std::string_view name);

// The value of a string attribute; an integer attribute is accepted and
// written in decimal (some writers store pg_name as a number).
Result<std::optional<std::string>> ChakraAttrString(const ChakraProtoMsg::Node& node, std::string_view name);

// is_cpu_op: true only when present and set (bool or integer).
bool ChakraIsCpuOp(const ChakraProtoMsg::Node& node);

// Builders of attributes with the types chakra's feeder reads.
ChakraProtoMsg::AttributeProto ChakraInt64Attr(const std::string& name, int64_t value);
ChakraProtoMsg::AttributeProto ChakraInt32Attr(const std::string& name, int32_t value);
ChakraProtoMsg::AttributeProto ChakraStringAttr(const std::string& name, const std::string& value);
ChakraProtoMsg::AttributeProto ChakraBoolAttr(const std::string& name, bool value);

}  // namespace aifabric
