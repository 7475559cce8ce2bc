#include "faultsweep/core/ziggurat.hpp"

#include <cmath>

namespace faultsweep {

namespace {
// Marsaglia & Tsang (2000), 256 layers for e^-x: the right end of the base strip r, and the
// layers' common area v = r e^-r + e^-r (the strip below r plus the tail beyond it).
constexpr double kR = 7.69711747013104972;
}  // namespace

ExpZiggurat::ExpZiggurat() {
  const double v = (kR + 1) * std::exp(-kR);
  x_[1] = kR;
  f_[1] = std::exp(-kR);
  x_[0] = v / f_[1];
  f_[0] = 0;  // layer 0's box starts at height 0
  // Each box [0, X_i] x [e^-X_i, e^-X_(i+1)] has area v: X_(i+1) = -ln(v / X_i + e^-X_i). With
  // this r the recursion ends at X_256 = 0 within 1e-14, which is set exactly.
  for (int i = 1; i < 255; ++i) {
    x_[i + 1] = -std::log(v / x_[i] + f_[i]);
    f_[i + 1] = std::exp(-x_[i + 1]);
  }
  x_[256] = 0;
  f_[256] = 1;
  for (int i = 0; i < 256; ++i) width_[i] = x_[i] * 0x1.0p-53;
}

double ExpZiggurat::rare(Engine& e, unsigned i, double x) const {
  for (;;) {
    if (i == 0) return kR - std::log(uniform01(e));  // beyond r, e^-x is Exp(1) shifted by r
    // The wedge of layer i: x in [X_(i+1), X_i); a uniform height in the box under the curve.
    if (f_[i] + uniform01(e) * (f_[i + 1] - f_[i]) < std::exp(-x)) return x;
    const std::uint64_t bits = e();
    i = static_cast<unsigned>(bits & 255u);
    x = static_cast<double>(bits >> 11) * width_[i];
    if (x < x_[i + 1]) return x;
  }
}

}  // namespace faultsweep
