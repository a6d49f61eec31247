// Time is a point or span of simulated time, held as integer picoseconds.
// A plain value type; thread-compatible. Factories name their unit so a
// literal can never be read in the wrong one: Time::FromNs(500).
#pragma once

#include <cstdint>
#include <compare>
#include <limits>

namespace aifabric {

class Time {
 public:
  constexpr Time() = default;

  static constexpr Time FromPs(int64_t ps) { return Time(ps); }
  static constexpr Time FromNs(int64_t ns) { return Time(ns * 1000); }
  static constexpr Time FromUs(int64_t us) { return Time(us * 1000 * 1000); }
  static constexpr Time FromMs(int64_t ms) { return Time(ms * 1000 * 1000 * 1000); }
  // Rounds to the nearest picosecond.
  static constexpr Time FromSeconds(double s) {
    return Time(static_cast<int64_t>(s * 1e12 + (s >= 0 ? 0.5 : -0.5)));
  }
  static constexpr Time Zero() { return Time(0); }
  static constexpr Time Infinite() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  // Truncates toward zero.
  constexpr int64_t ns() const { return ps_ / 1000; }
  constexpr double ns_f() const { return static_cast<double>(ps_) / 1e3; }
  constexpr double us_f() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double seconds() const { return static_cast<double>(ps_) / 1e12; }
  constexpr bool IsInfinite() const { return ps_ == std::numeric_limits<int64_t>::max(); }

  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time& operator-=(Time o) { ps_ -= o.ps_; return *this; }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

constexpr Time Max(Time a, Time b) { return a < b ? b : a; }
constexpr Time Min(Time a, Time b) { return a < b ? a : b; }

}  // namespace aifabric
