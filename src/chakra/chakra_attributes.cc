#include "chakra/chakra_attributes.h"

#include <limits>

namespace aifabric {

using ChakraProtoMsg::AttributeProto;

const AttributeProto* FindChakraAttr(const ChakraProtoMsg::Node& node, std::string_view name) {
  for (const AttributeProto& a : node.attr()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

Result<std::optional<int64_t>> ChakraAttrInt(const ChakraProtoMsg::Node& node, std::string_view name) {
  const AttributeProto* a = FindChakraAttr(node, name);
  if (a == nullptr) return std::optional<int64_t>();
  auto too_big = [&] {
    std::string m = "attribute ";
    m += name;
    m += " is beyond the int64 range";
    return Error{m};
  };
  switch (a->value_case()) {
    case AttributeProto::kInt32Val: return std::optional<int64_t>(a->int32_val());
    case AttributeProto::kInt64Val: return std::optional<int64_t>(a->int64_val());
    case AttributeProto::kUint32Val: return std::optional<int64_t>(a->uint32_val());
    case AttributeProto::kUint64Val:
      if (a->uint64_val() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return too_big();
      return std::optional<int64_t>(static_cast<int64_t>(a->uint64_val()));
    case AttributeProto::kSint32Val: return std::optional<int64_t>(a->sint32_val());
    case AttributeProto::kSint64Val: return std::optional<int64_t>(a->sint64_val());
    case AttributeProto::kFixed32Val: return std::optional<int64_t>(a->fixed32_val());
    case AttributeProto::kFixed64Val:
      if (a->fixed64_val() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return too_big();
      return std::optional<int64_t>(static_cast<int64_t>(a->fixed64_val()));
    case AttributeProto::kSfixed32Val: return std::optional<int64_t>(a->sfixed32_val());
    case AttributeProto::kSfixed64Val: return std::optional<int64_t>(a->sfixed64_val());
    case AttributeProto::kBoolVal: return std::optional<int64_t>(a->bool_val() ? 1 : 0);
    default: break;
  }
  std::string m = "attribute ";
  m += name;
  m += " is not an integer";
  return Error{m};
}

Result<std::optional<std::string>> ChakraAttrString(const ChakraProtoMsg::Node& node, std::string_view name) {
  const AttributeProto* a = FindChakraAttr(node, name);
  if (a == nullptr) return std::optional<std::string>();
  if (a->value_case() == AttributeProto::kStringVal) return std::optional<std::string>(a->string_val());
  Result<std::optional<int64_t>> i = ChakraAttrInt(node, name);
  if (i.ok()) return std::optional<std::string>(std::to_string(**i));
  std::string m = "attribute ";
  m += name;
  m += " is neither a string nor an integer";
  return Error{m};
}

bool ChakraIsCpuOp(const ChakraProtoMsg::Node& node) {
  Result<std::optional<int64_t>> v = ChakraAttrInt(node, "is_cpu_op");
  return v.ok() && v->has_value() && **v != 0;
}

namespace {

// An attribute named `name` whose value `setter` sets.
template <typename Value>
AttributeProto Named(const std::string& name, void (AttributeProto::*setter)(Value), Value value) {
  AttributeProto a;
  a.set_name(name);
  (a.*setter)(value);
  return a;
}

}  // namespace

AttributeProto ChakraInt64Attr(const std::string& name, int64_t value) {
  return Named<int64_t>(name, &AttributeProto::set_int64_val, value);
}

AttributeProto ChakraInt32Attr(const std::string& name, int32_t value) {
  return Named<int32_t>(name, &AttributeProto::set_int32_val, value);
}

AttributeProto ChakraStringAttr(const std::string& name, const std::string& value) {
  return Named<const std::string&>(name, &AttributeProto::set_string_val, value);
}

AttributeProto ChakraBoolAttr(const std::string& name, bool value) {
  return Named<bool>(name, &AttributeProto::set_bool_val, value);
}

}  // namespace aifabric
