#include "flow/qos_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace aifabric {
namespace {
// A lane counts as full (its class would take more) within this fraction
// of its capacity; a capacity moves only by more than this fraction of its
// port's (finer moves would re-solve for rounding).
constexpr double kFullFraction = 1e-7;
constexpr double kCapacityTolerance = 1e-9;
}  // namespace

void QosSolver::SetClasses(std::span<const ClassScheduling> classes) {
  assert(active_flows() == 0 && !classes.empty());
  for ([[maybe_unused]] const ClassScheduling& c : classes) assert(c.weight > 0);
  classes_.assign(classes.begin(), classes.end());
}

int QosSolver::AddResource(double capacity) {
  const int resource = solver_.AddResource(capacity);
  const int port = static_cast<int>(ports_.size());
  Port p;
  p.capacity = capacity;
  p.first.resource = resource;
  ports_.push_back(std::move(p));
  port_of_.push_back(port);
  return port;
}

int QosSolver::LaneFor(int port, int traffic_class) {
  Port& p = ports_[static_cast<size_t>(port)];
  if (p.first.traffic_class == traffic_class) return p.first.resource;
  for (const Lane& l : p.more) {
    if (l.traffic_class == traffic_class) return l.resource;
  }
  // The class has no lane here: take an idle one, else make one.
  if (solver_.user_count(p.first.resource) == 0) {
    p.first.traffic_class = traffic_class;
    return p.first.resource;
  }
  for (Lane& l : p.more) {
    if (solver_.user_count(l.resource) == 0) {
      l.traffic_class = traffic_class;
      return l.resource;
    }
  }
  const int lane = solver_.AddResource(p.capacity);
  port_of_.push_back(port);
  p.more.push_back(Lane{lane, traffic_class});
  contested_ever_ = true;
  return lane;
}

bool QosSolver::OneClassSoFar(int traffic_class) {
  if (only_class_ == traffic_class) return true;
  if (only_class_ == kNoClassYet) {
    only_class_ = traffic_class;
    return true;
  }
  if (only_class_ != kMixedClasses) {
    // A second class arrives: the ports the first one's flows cross are
    // that class's lanes (LaneFor's rule from now on).
    for (Port& p : ports_) {
      if (solver_.user_count(p.first.resource) > 0) p.first.traffic_class = only_class_;
    }
    only_class_ = kMixedClasses;
  }
  return false;
}

int QosSolver::AddFlow(std::span<const int> resources, double weight, int traffic_class) {
  assert(traffic_class >= 0 && static_cast<size_t>(traffic_class) < classes_.size());
  if (OneClassSoFar(traffic_class)) return Record(solver_.AddFlow(resources, weight), true);
  lanes_.clear();
  bool own = true;
  for (int r : resources) {
    const int lane = LaneFor(r, traffic_class);
    own = own && lane == r;
    lanes_.push_back(lane);
  }
  return Record(solver_.AddFlow(lanes_, weight), own);
}

int QosSolver::AddFlow(std::span<const int> resources, std::span<const double> coefficients, double weight,
                       int traffic_class) {
  assert(traffic_class >= 0 && static_cast<size_t>(traffic_class) < classes_.size());
  if (OneClassSoFar(traffic_class)) return Record(solver_.AddFlow(resources, coefficients, weight), true);
  lanes_.clear();
  bool own = true;
  for (int r : resources) {
    const int lane = LaneFor(r, traffic_class);
    own = own && lane == r;
    lanes_.push_back(lane);
  }
  return Record(solver_.AddFlow(lanes_, coefficients, weight), own);
}

int QosSolver::Record(int flow, bool own) {
  const size_t f = static_cast<size_t>(flow);
  if (own_ports_.size() <= f) {
    own_ports_.resize(f + 1, 1);
    ports_of_flow_.resize(f + 1);
    flow_mark_.resize(f + 1, 0);
  }
  own_ports_[f] = own;
  if (!own) {
    std::vector<int>& ports = ports_of_flow_[f];
    ports.clear();
    for (int lane : solver_.resources(flow)) ports.push_back(port_of_[static_cast<size_t>(lane)]);
  }
  if (contested_ever_) {
    for (int lane : solver_.resources(flow)) MarkPort(port_of_[static_cast<size_t>(lane)]);
  }
  return flow;
}

std::span<const int> QosSolver::resources(int flow) const {
  const size_t f = static_cast<size_t>(flow);
  if (own_ports_[f]) return solver_.resources(flow);
  return ports_of_flow_[f];
}

void QosSolver::MarkPort(int port) {
  const size_t p = static_cast<size_t>(port);
  if (ports_[p].more.empty()) return;  // one lane: its capacity is the port's
  if (port_mark_.size() < ports_.size()) port_mark_.resize(ports_.size(), 0);
  if (port_mark_[p] == port_epoch_) return;
  port_mark_[p] = port_epoch_;
  dirty_ports_.push_back(port);
}

void QosSolver::SetCapacity(int resource, double capacity) {
  Port& p = ports_[static_cast<size_t>(resource)];
  p.capacity = capacity;
  if (p.more.empty()) {
    solver_.SetCapacity(p.first.resource, capacity);  // one lane: the port itself
  } else {
    MarkPort(resource);  // Solve gives its lanes their shares of it
  }
}

void QosSolver::RemoveFlow(int flow) {
  if (contested_ever_) {
    for (int lane : solver_.resources(flow)) MarkPort(port_of_[static_cast<size_t>(lane)]);
  }
  solver_.RemoveFlow(flow);
}

double QosSolver::load(int resource) const {
  const Port& p = ports_[static_cast<size_t>(resource)];
  double sum = solver_.load(p.first.resource);
  for (const Lane& l : p.more) sum += solver_.load(l.resource);
  return sum;
}

bool QosSolver::Reallocate(int port) {
  const Port& p = ports_[static_cast<size_t>(port)];
  tiered_.clear();
  const auto consider = [&](const Lane& l) {
    if (solver_.user_count(l.resource) == 0) return;
    const ClassScheduling& c = classes_[static_cast<size_t>(l.traffic_class)];
    tiered_.push_back(Tiered{c.tier, l.resource, c.weight});
  };
  consider(p.first);
  for (const Lane& l : p.more) consider(l);
  std::sort(tiered_.begin(), tiered_.end(), [](const Tiered& a, const Tiered& b) {
    return a.tier != b.tier ? a.tier > b.tier : a.resource < b.resource;
  });
  bool moved = false;
  double residual = p.capacity;  // what the tiers above leave
  for (size_t i = 0; i < tiered_.size();) {
    size_t j = i;
    while (j < tiered_.size() && tiered_[j].tier == tiered_[i].tier) ++j;
    // Water-filling over the tier's lanes: a lane with slack demands its
    // load, a full one its weighted share of whatever is left.
    constexpr double kUnbounded = std::numeric_limits<double>::infinity();
    double left = residual, weights = 0;
    for (size_t k = i; k < j; ++k) {
      Tiered& t = tiered_[k];
      const double capacity = solver_.capacity(t.resource);
      t.load = solver_.load(t.resource);
      t.satisfied = false;
      t.full = t.load >= capacity * (1 - kFullFraction);
      weights += t.weight;
    }
    double level = kUnbounded;
    for (bool grew = true; grew;) {
      grew = false;
      level = weights > 0 ? left / weights : kUnbounded;
      for (size_t k = i; k < j; ++k) {
        Tiered& t = tiered_[k];
        if (t.satisfied || t.full || !(t.load < t.weight * level)) continue;
        t.satisfied = true;
        left -= t.load;
        weights -= t.weight;
        grew = true;
      }
    }
    double used = 0;
    for (size_t k = i; k < j; ++k) {
      const Tiered& t = tiered_[k];
      const double capacity = level == kUnbounded ? residual : std::min(residual, t.weight * level);
      if (std::abs(solver_.capacity(t.resource) - capacity) > kCapacityTolerance * p.capacity) {
        solver_.SetCapacity(t.resource, capacity);
        moved = true;
      }
      used += std::min(t.load, capacity);
    }
    residual -= used;
    if (residual < kCapacityTolerance * p.capacity) residual = 0;
    i = j;
  }
  return moved;
}

void QosSolver::Solve() {
  solver_.Solve();
  rounds_ = 1;
  if (!contested_ever_) return;
  // The first round's re-rated flows, then each further round's: their
  // contested ports get lane capacities from the new loads; a moved
  // capacity is one more round.
  solved_flows_.clear();
  const uint32_t solve_epoch = ++flow_epoch_;
  for (;;) {
    for (int f : solver_.solved_flows()) {
      const size_t fu = static_cast<size_t>(f);
      if (flow_mark_[fu] != solve_epoch) {
        flow_mark_[fu] = solve_epoch;
        solved_flows_.push_back(f);
      }
      for (int lane : solver_.resources(f)) MarkPort(port_of_[static_cast<size_t>(lane)]);
    }
    bool moved = false;
    for (int port : dirty_ports_) moved = Reallocate(port) || moved;
    dirty_ports_.clear();
    ++port_epoch_;
    if (!moved || rounds_ == kMaxRounds) break;
    solver_.Solve();
    ++rounds_;
  }
}

}  // namespace aifabric
