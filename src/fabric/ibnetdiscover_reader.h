// ReadIbnetdiscover turns the topology text `ibnetdiscover` prints (the same
// format ibsim reads as a net file) into a Topology plus the IB identities of
// its nodes (IbLidMap): GUIDs, IB port numbers and the LIDs the subnet
// manager assigned. Pure; thread-safe.
//
// Accepted lines (infiniband-diags ibnetdiscover, default output):
//   vendid=0x2c9 / devid=... / sysimgguid=...     ignored
//   switchguid=0x<guid>(<port guid>)  caguid=0x<guid>   GUID of the next node
//   Switch	<ports> "S-<guid>"	# "<desc>" [enhanced|base] port 0 lid <lid> lmc <lmc>
//   [<port>]	"<peer id>"[<peer port>](<peer port guid>)	# "<peer desc>" lid <peer lid> <width>x<speed>
//   Ca	<ports> "H-<guid>"	# "<desc>"
//   [<port>](<port guid>)	"<peer id>"[<peer port>]	# lid <lid> lmc <lmc> "<peer desc>" lid <peer lid> 4xHDR
//   blank lines and lines starting with '#'
// "Hca" is read as "Ca" and a missing "(guid)" is allowed, so ibsim net files
// (and WriteIbsimNetFile's output) read back too. Router ("Rt") blocks are
// an error: aifabric has no IB routers.
//
// The Topology: CAs become hosts, then switches, each sorted by node GUID
// (file order when GUIDs are missing), so host id == host index and a fabric
// written with aifabric GUIDs reads back with its node ids. A node is named
// by its description when that is unique in the file, else by its id string
// ("S-0002c903..."). Hosts get server = host index, rail 0. Each link is
// listed at both ends; the two must agree (a link listed at one end only is
// accepted). Its rate comes from the width x speed token (ParseIbLinkRate;
// the lower of the two ends), else `options.default_rate`; every link gets
// `options.link_latency`. Switch tiers are the hop distance from the nearest
// host (-1 if none), every switch gets `options.switch_spec`.
// Errors read "<origin>:<line>: <what was expected>".
#pragma once

#include <string>
#include <string_view>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"
#include "fabric/catalog.h"
#include "fabric/ib_lid_map.h"
#include "fabric/topology.h"

namespace aifabric {

struct IbFabric {
  Topology topology;
  IbLidMap lids;   // GUIDs, IB port numbers, and the LIDs the file shows (0 = none)
};

struct IbnetdiscoverOptions {
  DataRate default_rate = DataRate::Gbps(400);  // links without a width x speed
  Time link_latency = Time::FromNs(500);
  SwitchSpec switch_spec;                        // given to every switch
};

Result<IbFabric> ReadIbnetdiscover(std::string_view text, const std::string& origin,
                                   const IbnetdiscoverOptions& options = {});

}  // namespace aifabric
