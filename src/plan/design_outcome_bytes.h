// A design's outcome and its packet check as bytes, for the processes of
// one plan to exchange (plan_processes.h): every field of DesignOutcome but
// the Design itself, which each process enumerates alike and the receiver
// supplies; every field of PacketCheck. Numbers
// travel as their exact bits, so a plan gathered from many processes is
// byte-for-byte the plan of one. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "plan/design_evaluation.h"
#include "plan/packet_check.h"

namespace aifabric {

std::string EncodeDesignOutcome(const DesignOutcome& outcome);

// The outcome `bytes` encode, for `design`; an error if they are cut short
// or carry more than one outcome.
Result<DesignOutcome> DecodeDesignOutcome(std::string_view bytes, const Design& design);

std::string EncodePacketCheck(const PacketCheck& check);
Result<PacketCheck> DecodePacketCheck(std::string_view bytes);

}  // namespace aifabric
