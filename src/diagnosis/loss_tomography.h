// LocaliseLoss is boolean loss tomography: from which flows had to resend
// and the links each crossed, it names the links whose losses best explain
// the resends, when no counter saw them. It knows nothing of networks or
// time: links are integer ids, a flow is the set it crossed and one bit.
// A pure function; safe to call from several threads.
//
// The model is risk-model localisation's SCORE (Kompella, Yates,
// Greenberg and Snoeren, "IP Fault Localization via Risk Modeling",
// NSDI 2005): a link is a risk group, the flows crossing it its members,
// a flow that resent an observed failure. Write F(l) for the flows
// crossing link l and L for the lossy ones; then
//   hit ratio    h(l) = |F(l) ∩ L| / |F(l)|   (how many of its flows resent)
//   explanation  e(l) = |F(l) ∩ U|            (U: lossy flows not yet explained)
// Greedily, while U is not empty: among the links with h(l) >=
// min_hit_ratio, pick the one with the largest e(l) (ties: the larger
// h(l), then the lower id); stop when that e(l) < min_flows; else report
// it, remove its flows from U and go on. So a link all of whose flows
// resent and that more resending flows cross than any other is picked
// first, ahead of a host link that only one of them crosses; a lossy flow
// every link of whose path explains it equally alone (e = 1) names none.
//
// Worked example (loss_tomography_test.cc): flows A {0,1,3}, B {0,2,3},
// C {4,2,5}, D {4,1,5}; A and B resent. Link 0 and 3 each explain 2 with
// h = 2/2; links 1 and 2, 1 each with h = 1/2; 4 and 5 none. Pick link 0
// (ties with 3 on e and h, lower id); U is then empty.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace aifabric {

struct TomographyFlow {
  std::vector<int> links;  // the links it crossed, each once, ids in [0, num_links)
  bool lossy = false;      // it had to resend
};

struct TomographyOptions {
  // A link must explain at least this many lossy flows: one lossy flow is
  // explained as well by every link of its path, so it localises nothing.
  size_t min_flows = 2;
  // And at least this share of the flows crossing it must have resent.
  // Ours, not a published figure: a flow of n packets crossing a link
  // that loses p of them resends with probability 1 - (1 - p)^n, e.g.
  // 0.47 for 64 packets at 1%, so 0.25 keeps such a link while a link
  // that a few flows lossy elsewhere happen to share falls below it.
  double min_hit_ratio = 0.25;
};

struct TomographyPick {
  int link = -1;
  std::vector<int> explained;  // indices of the lossy flows it explained (in U when picked), ascending
  size_t crossing = 0;         // |F(l)|
  size_t lossy = 0;            // |F(l) ∩ L|
  double hit_ratio = 0;        // lossy / crossing
};

// The picks in the order made. REQUIRES: every flow's links are distinct
// and in [0, num_links).
std::vector<TomographyPick> LocaliseLoss(std::span<const TomographyFlow> flows, size_t num_links,
                                         const TomographyOptions& options = {});

}  // namespace aifabric
