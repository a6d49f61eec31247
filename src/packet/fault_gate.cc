#include "packet/fault_gate.h"

#include "packet/packet_faults.h"

namespace aifabric {

FaultGate::FaultGate(PacketFaults& faults, EgressPort& port, FaultedLink& link)
    : faults_(faults), port_(port), link_(link), receiver_(port.receiver()) {
  port.SetReceiver(this);
}

void FaultGate::OnEvent(uint64_t tag) {
  Packet* p = reinterpret_cast<Packet*>(tag);
  // The packet's first bit left the port one serialization and one cable
  // before its last bit reached the far end.
  const Time first_bit = p->last_bit_at - port_.propagation() - port_.rate().TransmitTime(p->wire_bytes);
  // A rate draws only when set: a link with one of the two draws once per
  // packet, one with both twice for a packet that survives the first.
  if (link_.down || link_.last_down_at >= first_bit) {
    faults_.OnLost(p, link_, port_, LinkLoss::kCut);
    return;
  }
  if (link_.loss_rate > 0 && link_.rng.Uniform() < link_.loss_rate) {
    faults_.OnLost(p, link_, port_, LinkLoss::kSilent);
    return;
  }
  if (link_.corruption_rate > 0 && link_.rng.Uniform() < link_.corruption_rate) {
    faults_.OnLost(p, link_, port_, LinkLoss::kCorrupted);
    return;
  }
  receiver_->OnEvent(tag);
}

}  // namespace aifabric
