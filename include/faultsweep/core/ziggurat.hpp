#pragma once
// Exponential draws (mean 1) by Marsaglia & Tsang's ziggurat (J. Stat. Softw. 5(8), 2000).
// The region under e^-x is cut into 256 layers of equal area v: layer 0 is the base rectangle
// [0, X0] x [0, e^-r] (the strip below x = r plus, beyond r, as much area as the tail), layer i
// >= 1 the box [0, X_i] x [e^-X_i, e^-X_(i+1)], with X_1 = r > X_2 > ... > X_256 = 0. A draw
// takes one 64-bit value: its low 8 bits pick a layer i, its high 53 bits a point x = U X_i. A
// point left of X_(i+1) lies under the curve and is returned at once (97.8 % of draws, no log);
// otherwise layer 0 returns r + Exp(1) by inversion (the tail: the law is memoryless), and a
// layer i >= 1 accepts x if a uniform height in the box falls under e^-x, else draws again.
// Exact, up to the 53-bit resolution of x.
#include <array>
#include <cstdint>

#include "faultsweep/core/rng.hpp"

namespace faultsweep {

class ExpZiggurat {
 public:
  ExpZiggurat();
  double operator()(Engine& e) const {
    const std::uint64_t bits = e();
    double x;
    return first(bits, x) ? x : rest(e, bits);
  }

  // The same draw in two parts, for a hot loop that should hold no call: first(bits, x), bits
  // one output of the engine, is true where that output alone gives the draw (97.8 %), x; else
  // rest(e, bits) makes the draw operator() would have made from them (a call).
  bool first(std::uint64_t bits, double& x) const {
    const unsigned i = static_cast<unsigned>(bits & 255u);
    x = static_cast<double>(bits >> 11) * width_[i];
    return x < x_[i + 1];
  }
  double rest(Engine& e, std::uint64_t bits) const {
    const unsigned i = static_cast<unsigned>(bits & 255u);
    return rare(e, i, static_cast<double>(bits >> 11) * width_[i]);
  }

 private:
  // The draw when the point is not left of X_(i+1): the tail, the wedge test, or a new draw.
  double rare(Engine& e, unsigned i, double x) const;
  std::array<double, 257> x_{};      // X_i
  std::array<double, 257> f_{};      // e^-X_i
  std::array<double, 256> width_{};  // X_i / 2^53: turns the 53 high bits into a point
};

}  // namespace faultsweep
