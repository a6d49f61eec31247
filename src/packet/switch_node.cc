#include "packet/switch_node.h"

#include "packet/packet_network.h"

namespace aifabric {

void SwitchNode::OnEvent(uint64_t tag) {
  Packet* p = reinterpret_cast<Packet*>(tag);
  EgressPort& out = network_.port(network_.TakeNextHop(p));
  if (!buffer_.TryAdmit(out.queue_bytes(p->priority), p->wire_bytes)) {
    network_.OnDropped(p, out);
    return;
  }
  out.Enqueue(p);
}

}  // namespace aifabric
