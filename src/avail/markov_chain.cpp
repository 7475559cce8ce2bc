// Plank & Thomason (JPDC 2001) §6 and Appendix: the availability chain M, built state by state
// (evaluate_chain) and in the reduced closed form that the interval search uses (ChainCore).
//
// Numerics. A can be astronomically small (LOW environment: e^{-a lambda (R+I+L)} ~ 1e-115), so
// every quantity is computed with a small *relative* error:
//  - stationary vectors by GTH state reduction (no subtractions);
//  - q^Up by eliminating the diagonally dominant tridiagonal M-matrix a lambda I - R through its
//    row sums (no subtractions) instead of the eigendecomposition of Eq. 12-18. The paper's
//    diagonalisation, and also the symmetrisation D^{1/2} R D^{-1/2} with D the binomial law of
//    the spares, scale rounding errors by sqrt(D_j / D_i); in HIGH with a = 1 (S = 31) that law
//    spans 44 orders of magnitude, and the symmetrised q^Up has rows summing to 1 +- 6e-6 and
//    0.2% errors in its entries near 1e-38 (measured), where this elimination has ~1e-15;
//  - Q^{S,rho} and q^Rec as blocks of one matrix exponential by uniformisation with scaling and
//    squaring (sums and products of nonnegative numbers only);
//  - expm1 / log1p and a series for g(x) = 1/x - 1/expm1(x) wherever Eq. 2-3 would cancel.
#include "faultsweep/avail/markov_chain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {
namespace {

void check_rates(int N, int a, double lambda, double theta) {
  if (N < 1) throw InputError("N", fmt::format("{}", N), "must be >= 1");
  if (a < 1 || a > N)
    throw InputError("a", fmt::format("{}", a), fmt::format("must be in 1..N = {}", N));
  if (!(lambda > 0) || !std::isfinite(lambda))
    throw InputError("mttf", format_duration(1.0 / lambda), "must be > 0 and finite");
  if (!(theta > 0) || !std::isfinite(theta))
    throw InputError("mttr", format_duration(1.0 / theta), "must be > 0 and finite");
}

void check_times(double I, double C, double L, double R) {
  auto nonneg = [](const char* key, double v) {
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError(key, format_duration(v), "must be >= 0 and finite");
  };
  nonneg("C", C);
  nonneg("L", L);
  nonneg("R", R);
  if (!(I > 0) || !std::isfinite(I)) throw InputError("I", format_duration(I), "must be > 0");
  if (I < L)
    throw InputError("I", format_duration(I), fmt::format("must be >= L = {}", format_duration(L)));
  if (I < C)
    throw InputError("I", format_duration(I), fmt::format("must be >= C = {}", format_duration(C)));
}

// phi(y) = e^{-y} - 1 + y >= 0 without cancellation (series below 0.1).
double phi_exp(double y) {
  if (y < 0.1) {
    double term = y * y / 2, sum = 0;
    for (int n = 3; n <= 14; ++n) {
      sum += term;
      term *= -y / n;
    }
    return sum;
  }
  return std::expm1(-y) + y;
}

// log(expm1(y)) for y > 0, finite for large y.
double log_expm1(double y) {
  return y > 1 ? y + std::log1p(-std::exp(-y)) : std::log(std::expm1(y));
}

// Sign of d A / d I at y = a lambda I, c = a lambda C (see ChainCore::optimize_interval):
// G(y) = c e^{-y} (2 - e^{-y}) - (e^{-y} - 1 + y), strictly decreasing for y > 0, G(0) = c.
double interval_gradient(double y, double c) {
  const double emy = std::exp(-y);
  return c * emy * (1.0 - std::expm1(-y)) - phi_exp(y);
}

// Brent-Dekker root finding (zeroin) of f on [a, b] with f(a) f(b) <= 0, to absolute tolerance
// tol in the argument.
template <class F>
double brent_root(F&& f, double a, double b, double fa, double fb, double tol) {
  double c = b, fc = fb, d = b - a, e = d;
  for (int it = 0; it < 200; ++it) {
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) c = a, fc = fa, e = d = b - a;
    if (std::fabs(fc) < std::fabs(fb)) {
      a = b, b = c, c = a;
      fa = fb, fb = fc, fc = fa;
    }
    const double tol1 = 2 * std::numeric_limits<double>::epsilon() * std::fabs(b) + 0.5 * tol;
    const double xm = 0.5 * (c - b);
    if (std::fabs(xm) <= tol1 || fb == 0) return b;
    if (std::fabs(e) >= tol1 && std::fabs(fa) > std::fabs(fb)) {
      const double s = fb / fa;
      double p, q;
      if (a == c) {
        p = 2 * xm * s;
        q = 1 - s;
      } else {
        const double qa = fa / fc, r = fb / fc;
        p = s * (2 * xm * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      p = std::fabs(p);
      if (2 * p < std::min(3 * xm * q - std::fabs(tol1 * q), std::fabs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = e = xm;
      }
    } else {
      d = e = xm;
    }
    a = b;
    fa = fb;
    b += std::fabs(d) > tol1 ? d : (xm > 0 ? tol1 : -tol1);
    fb = f(b);
  }
  return b;
}

}  // namespace

double g_mean_excess(double x) {
  FS_CHECK(x > 0, "g_mean_excess needs x > 0");
  if (x < 0.25) {
    // x/(e^x - 1) = sum B_n x^n / n!, so g(x) = 1/2 - sum_{n>=1} B_{2n} x^{2n-1} / (2n)!.
    static constexpr double kCoef[] = {1.0 / 12,       -1.0 / 720,     1.0 / 30240,
                                       -1.0 / 1209600, 1.0 / 47900160, -691.0 / 1307674368000.0};
    const double x2 = x * x;
    double p = 0;
    for (int i = 5; i >= 0; --i) p = p * x2 + kCoef[i];
    return 0.5 - x * p;
  }
  return 1.0 / x - 1.0 / std::expm1(x);
}

ChainResult evaluate_chain(const ChainParams& p) {
  check_rates(p.N, p.a, p.lambda_per_s, p.theta_per_s);
  check_times(p.I_s, p.C_s, p.L_s, p.R_s);
  const int N = p.N, a = p.a, S = N - a;
  const double lambda = p.lambda_per_s, theta = p.theta_per_s, k = a * lambda;
  const double I = p.I_s, C = p.C_s, L = p.L_s, R = p.R_s;
  const double rho = R + I + L;

  // §6.1 states, in this order: [R:s] s = 0..nR-1 (nR = S, or 1 if a = N), [U:s] s = 0..S,
  // [D:p] p = 0..a-1.
  const int nR = S > 0 ? S : 1, nU = S + 1, nD = a;
  const int n = nR + nU + nD;
  auto iR = [](int s) { return s; };
  auto iU = [&](int s) { return nR + s; };
  auto iD = [&](int q) { return nR + nU + q; };
  std::vector<double> P(static_cast<std::size_t>(n) * n, 0.0);
  auto at = [&](int i, int j) -> double& { return P[static_cast<std::size_t>(i) * n + j]; };
  std::vector<double> up_s(n, 0.0), down_s(n, 0.0);  // expected U and D weight per visit

  const RecoveryMatrices rec = spare_recovery_matrices(S, a, lambda, theta, rho);
  const std::vector<double> qup = spare_q_up(S, a, lambda, theta);
  const int ns = S + 1;

  // Recovery states (§6.3): [R:i] -> [U:j] with e^{-a lambda rho} q^{S,rho}_{S-i+1,S-j+1};
  // -> [R:j] with (1 - e^{-a lambda rho}) q^{Rec,S}_{S-i+1,S-j}; -> [D:a-1] with
  // (1 - e^{-a lambda rho}) q^{Rec,S}_{S-i+1,S+1}. (Paper row S-i+1 is our row i; see header.)
  const double e_rho = std::exp(-k * rho);
  const double fail_rho = -std::expm1(-k * rho);
  const double D_RR = rho * g_mean_excess(k * rho);  // Eq. 2
  for (int i = 0; i < nR; ++i) {
    for (int j = 0; j < ns; ++j) at(iR(i), iU(j)) += rec.no_failure[i * ns + j];
    for (int j = 0; j < S; ++j) at(iR(i), iR(j)) += rec.failure[i * ns + j + 1];
    at(iR(i), iD(a - 1)) += rec.failure[i * ns + 0];
    // §6.4: R->R and R->D carry U = 0, D = Eq. 2; R->U carries U = I, D = R + L.
    up_s[iR(i)] = e_rho * I;
    down_s[iR(i)] = fail_rho * D_RR + e_rho * (R + L);
  }
  // Up states (§6.3): [U:i] -> [D:a-1] with q^{Up,S}_{S-i+1,S+1}, -> [R:s] with
  // q^{Up,S}_{S-i+1,S-s}.
  const double y = k * I;
  const double M = 1.0 / std::expm1(y);  // Eq. 3
  for (int i = 0; i < nU; ++i) {
    at(iU(i), iD(a - 1)) += qup[i * ns + 0];
    for (int s = 0; s < S; ++s) at(iU(i), iR(s)) += qup[i * ns + s + 1];
    // §6.4: U = M (I - C); D = M C + (1/(a lambda) - I M) = M C + I g(a lambda I).
    up_s[iU(i)] = M * (I - C);
    down_s[iU(i)] = M * C + I * g_mean_excess(y);
  }
  // Down states (§6.3, §6.4): [D:q] -> [D:q+1] (or [R:0] if q = a-1) on a repair, -> [D:q-1] on
  // a failure; D weight = mean occupancy 1 / (q lambda + (N-q) theta).
  for (int q = 0; q < nD; ++q) {
    const double fail = q * lambda, repair = (N - q) * theta, total = fail + repair;
    at(iD(q), q == a - 1 ? iR(0) : iD(q + 1)) += repair / total;
    if (q > 0) at(iD(q), iD(q - 1)) += fail / total;
    down_s[iD(q)] = 1.0 / total;
  }
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += at(i, j);
    FS_CHECK(std::fabs(s - 1) < 1e-9, fmt::format("row {} of M sums to {}", i, s));
  }

  // Eq. 5 with the weights aggregated per source state: sum_j P_ij U_ij = up_s[i], etc.
  const std::vector<double> pi = gth_stationary(std::move(P), n);
  double useful = 0, rec_t = 0, up_t = 0, down_t = 0;
  for (int i = 0; i < nR; ++i) rec_t += pi[iR(i)] * (up_s[iR(i)] + down_s[iR(i)]);
  for (int i = 0; i < nR; ++i) useful += pi[iR(i)] * up_s[iR(i)];
  for (int i = 0; i < nU; ++i) up_t += pi[iU(i)] * (up_s[iU(i)] + down_s[iU(i)]);
  for (int i = 0; i < nU; ++i) useful += pi[iU(i)] * up_s[iU(i)];
  for (int q = 0; q < nD; ++q) down_t += pi[iD(q)] * down_s[iD(q)];
  const double total = rec_t + up_t + down_t;
  ChainResult out;
  out.availability = useful / total;
  out.recovery_fraction = rec_t / total;
  out.up_fraction = up_t / total;
  out.down_fraction = down_t / total;
  return out;
}

ChainCore::ChainCore(int N, int a, double lambda, double theta)
    : N_(N), a_(a), lambda_(lambda), theta_(theta) {
  check_rates(N, a, lambda, theta);
  const int S = N - a;
  // Recovery cycles: the number of functional spares at the start of a System Recovery state
  // is a Markov chain on 0..S-1 whose step is q^Up (see header), with the Down exit (column 0)
  // sending the next cycle to [R:0]. p_D = stationary probability that a cycle ends in Down.
  if (S == 0) {
    p_down_ = 1.0;
  } else {
    const std::vector<double> qup = spare_q_up(S, a, lambda, theta);
    const int ns = S + 1;
    std::vector<double> K(static_cast<std::size_t>(S) * S, 0.0);
    for (int s = 0; s < S; ++s) {
      for (int t = 0; t < S; ++t) K[s * S + t] = qup[s * ns + t + 1];
      K[s * S + 0] += qup[s * ns + 0];
    }
    const std::vector<double> x = gth_stationary(std::move(K), S);
    double pd = 0;
    for (int s = 0; s < S; ++s) pd += x[s] * qup[s * ns + 0];
    p_down_ = pd;
  }
  // T_D: mean first passage from a-1 to a functional processors in the N-processor
  // birth-death chain; tau_q (q -> q+1) = (1 + q lambda tau_{q-1}) / ((N-q) theta).
  double tau = 0;
  for (int q = 0; q < a; ++q) tau = (1.0 + q * lambda * tau) / ((N - q) * theta);
  T_down_s_ = tau;
}

ChainResult ChainCore::evaluate(double I, double C, double L, double R) const {
  check_times(I, C, L, R);
  const double k = a_ * lambda_, y = k * I, rho = R + I + L;
  // Per recovery cycle (start of [R:s] to the next one): useful time e^{-k rho} (I + M (I - C))
  // = e^{-k (R+L)} (I - C e^{-y}) / expm1(y); total time 1/k + p_D T_D.
  const double useful = std::exp(-k * (R + L)) * ((I - C) - C * std::expm1(-y)) / std::expm1(y);
  const double down = p_down_ * T_down_s_;
  const double cycle = 1.0 / k + down;
  ChainResult out;
  out.availability = useful / cycle;
  out.recovery_fraction = -std::expm1(-k * rho) / k / cycle;  // E min(Exp(k), rho)
  out.up_fraction = std::exp(-k * rho) / k / cycle;
  out.down_fraction = down / cycle;
  return out;
}

double ChainCore::log_availability(double I, double C, double L, double R) const {
  check_times(I, C, L, R);
  const double k = a_ * lambda_, y = k * I;
  return -k * (R + L) + std::log((I - C) - C * std::expm1(-y)) - log_expm1(y) + std::log(k) -
         std::log1p(k * p_down_ * T_down_s_);
}

IntervalOptimum ChainCore::optimize_interval(double C, double L, double R, double I_min) const {
  if (!(I_min >= 0) || !std::isfinite(I_min))
    throw InputError("I", format_duration(I_min), "lower bound must be >= 0");
  const double k = a_ * lambda_;
  // A(I) = const * h(I), h = (I - C e^{-kI}) / expm1(kI). With y = kI, c = kC, dh/dI has the
  // sign of G(y) = c e^{-y}(2 - e^{-y}) - (e^{-y} - 1 + y), which starts at G(0) = c >= 0 and
  // strictly decreases (G' = -(1 - e^{-y})(1 + 2c e^{-y})). So A is unimodal in I with its
  // maximum at the root y* < 2 + log(1 + 2c); the scan below cannot miss it.
  const double lo = std::max({I_min, L, C, 1e-9 / k});
  const double hi = 1e4 * std::max({1.0 / k, lo, C});
  IntervalOptimum best;
  constexpr int kScan = 48;
  const double ulo = std::log(lo), uhi = std::log(hi);
  auto u_at = [&](int j) { return j == 0 ? ulo : ulo + (uhi - ulo) * j / (kScan - 1); };
  int jbest = 0;
  double fbest = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < kScan; ++j) {
    const double f = log_availability(std::max(std::exp(u_at(j)), lo), C, L, R);
    ++best.evaluations;
    if (f > fbest) fbest = f, jbest = j;
  }
  auto grad = [&](double u) {
    ++best.evaluations;
    return interval_gradient(k * std::exp(u), k * C);
  };
  // Bracket the root of dA/dI around the best grid point; widen it if rounding flattened A.
  double ua = u_at(std::max(jbest - 1, 0)), ub = u_at(std::min(jbest + 1, kScan - 1));
  double ga = grad(ua), gb = grad(ub);
  if (ga <= 0 && ua > ulo) ua = ulo, ga = grad(ua);
  if (gb > 0 && ub < uhi) ub = uhi, gb = grad(ub);
  FS_CHECK(gb <= 0, "the interval optimum lies beyond the scan (cannot happen: see bound above)");
  double u_opt = ulo;  // ga <= 0: A decreases from the lower bound on, I_opt = I_min (e.g. L)
  if (ga > 0) u_opt = brent_root(grad, ua, ub, ga, gb, 1e-13);
  best.I_s = std::max(lo, std::exp(u_opt));
  best.availability = evaluate(best.I_s, C, L, R).availability;
  return best;
}

IntervalOptimum optimize_interval(const ChainParams& p, double I_min_s) {
  const ChainCore core(p.N, p.a, p.lambda_per_s, p.theta_per_s);
  return core.optimize_interval(p.C_s, p.L_s, p.R_s, I_min_s);
}

}  // namespace faultsweep::avail
