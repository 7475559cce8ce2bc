// The spare-processor part of Plank & Thomason's chain M: the GTH stationary solve and the
// birth-death spare-chain matrices (split from markov_chain.cpp by concern).
#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/core/error.hpp"

namespace faultsweep::avail {

namespace {
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

std::vector<double> gth_stationary(std::vector<double> P, int n) {
  FS_CHECK(n >= 1 && P.size() == static_cast<std::size_t>(n) * n, "GTH: matrix size");
  // State reduction: censor the chain on states 0..k-1, one state at a time. The mass leaving
  // state k for lower states, s = 1 - P_kk of the censored chain, is summed, never subtracted.
  for (int k = n - 1; k >= 1; --k) {
    const double* row_k = &P[static_cast<std::size_t>(k) * n];
    double s = 0;
    for (int j = 0; j < k; ++j) s += row_k[j];
    FS_CHECK(s > 0, fmt::format("GTH: state {} has no path to lower states (reducible chain)", k));
    for (int i = 0; i < k; ++i) {
      double* row_i = &P[static_cast<std::size_t>(i) * n];
      const double pik = row_i[k] / s;
      row_i[k] = pik;
      if (pik == 0) continue;
      for (int j = 0; j < k; ++j) row_i[j] += pik * row_k[j];
    }
  }
  std::vector<double> pi(n, 0.0);
  pi[0] = 1.0;
  double total = 1.0;
  for (int j = 1; j < n; ++j) {
    double v = 0;
    for (int i = 0; i < j; ++i) v += pi[i] * P[static_cast<std::size_t>(i) * n + j];
    pi[j] = v;
    total += v;
  }
  for (double& v : pi) v /= total;
  return pi;
}

std::vector<double> spare_q_up(int S, int a, double lambda, double theta) {
  FS_CHECK(S >= 0 && a >= 1 && lambda > 0 && theta > 0, "spare_q_up: arguments");
  const int n = S + 1;
  const double k = a * lambda;
  // M = k I - R (Eq. 8 with f functional spares): M_ff = k + f lambda + (S-f) theta,
  // M_{f,f-1} = -f lambda, M_{f,f+1} = -(S-f) theta; every row sums to k. Gaussian elimination
  // from f = 0 down keeps the row sums r_f of the reduced rows, which stay positive sums:
  // r_f = k + l_f r_{f-1}, pivot d_f = r_f + (S-f) theta, multiplier l_f = f lambda / d_{f-1}.
  std::vector<double> up(n), d(n), l(n, 0.0);
  for (int f = 0; f < n; ++f) up[f] = (S - f) * theta;
  double r = k;
  d[0] = r + up[0];
  for (int f = 1; f < n; ++f) {
    l[f] = f * lambda / d[f - 1];
    r = k + l[f] * r;
    d[f] = r + up[f];
  }
  // M = L U; column j of M^{-1} = U^{-1} (L^{-1} e_j), both triangular solves with positive terms.
  std::vector<double> q(static_cast<std::size_t>(n) * n, 0.0), v(n), x(n);
  for (int j = 0; j < n; ++j) {
    std::fill(v.begin(), v.end(), 0.0);
    v[j] = 1.0;
    for (int m = j + 1; m < n; ++m) v[m] = l[m] * v[m - 1];
    x[n - 1] = v[n - 1] / d[n - 1];
    for (int i = n - 2; i >= 0; --i) x[i] = (v[i] + up[i] * x[i + 1]) / d[i];
    for (int i = 0; i < n; ++i) q[static_cast<std::size_t>(i) * n + j] = k * x[i];  // Eq. 18
  }
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += q[static_cast<std::size_t>(i) * n + j];
    FS_CHECK(std::fabs(s - 1) < 1e-12, fmt::format("q^Up row {} sums to {}", i, s));
  }
  return q;
}

RecoveryMatrices spare_recovery_matrices(int S, int a, double lambda, double theta, double rho) {
  FS_CHECK(S >= 0 && a >= 1 && lambda > 0 && theta > 0 && rho > 0 && std::isfinite(rho),
           "spare_recovery_matrices: arguments");
  const int n = S + 1;
  const double k = a * lambda;
  // Uniformisation of the killed spare chain R - k I: jump rate Lambda = twice the largest exit
  // rate, so that every diagonal entry of the jump matrix P is >= 1/2 (no cancellation).
  double max_out = 0;
  for (int f = 0; f < n; ++f) max_out = std::max(max_out, k + f * lambda + (S - f) * theta);
  const double Lambda = 2 * max_out;
  RowMatrix P = RowMatrix::Zero(n, n);
  for (int f = 0; f < n; ++f) {
    const double down = f * lambda, upr = (S - f) * theta;
    P(f, f) = (Lambda - (k + down + upr)) / Lambda;
    if (f > 0) P(f, f - 1) = down / Lambda;
    if (f < n - 1) P(f, f + 1) = upr / Lambda;
  }
  // Scale rho down to t0 with Lambda t0 <= 1/2, then square back m times.
  int m = 0;
  double t0 = rho;
  while (Lambda * t0 > 0.5) {
    t0 *= 0.5;
    ++m;
  }
  const double x = Lambda * t0;
  // E(t0) = sum_j pois_j P^j and F(t0) = k int_0^t0 E = (k / Lambda) sum_j tail_j P^j with
  // tail_j = P(Poisson(x) > j). Entry (i, l) first appears in P^{|i-l|}; 40 further terms shrink
  // by x^40 / 40! < 1e-59, far below double precision.
  const int J = n + 40;
  std::vector<double> pois(J + 60, 0.0), tail(J + 1, 0.0);
  pois[0] = std::exp(-x);
  for (int j = 1; j < static_cast<int>(pois.size()); ++j) pois[j] = pois[j - 1] * x / j;
  double acc = 0;
  for (int j = static_cast<int>(pois.size()) - 1; j > J; --j) acc += pois[j];
  for (int j = J; j >= 0; --j) {
    tail[j] = acc;  // sum of pois_{j+1..}, summed from the small end
    acc += pois[j];
  }
  tail[0] = -std::expm1(-x);
  for (int j = 1; j <= J; ++j) tail[j] = std::min(tail[j], tail[j - 1]);
  RowMatrix W = RowMatrix::Identity(n, n);
  RowMatrix E = pois[0] * W, F = (k / Lambda) * tail[0] * W;
  for (int j = 1; j <= J; ++j) {
    // W <- W P, with P tridiagonal.
    RowMatrix Wn = RowMatrix::Zero(n, n);
    for (int c = 0; c < n; ++c) {
      Wn.col(c) += P(c, c) * W.col(c);
      if (c > 0) Wn.col(c) += P(c - 1, c) * W.col(c - 1);
      if (c < n - 1) Wn.col(c) += P(c + 1, c) * W.col(c + 1);
    }
    W.swap(Wn);
    E += pois[j] * W;
    F += (k / Lambda) * tail[j] * W;
  }
  // expm(G 2t) = expm(G t)^2 for G = [[R - kI, kI], [0, 0]]: E <- E E, F <- F + E F. Each row of
  // [E F] is a probability law (the spares either survive the step with the actives, or the
  // first active failure happens at some spare count); renormalising it removes the drift of
  // the row sums without touching relative accuracy.
  auto renormalise = [&](const char* where) {
    for (int i = 0; i < n; ++i) {
      const double s = E.row(i).sum() + F.row(i).sum();
      FS_CHECK(std::fabs(s - 1) < 1e-9, fmt::format("{}: row {} of [E F] sums to {}", where, i, s));
      E.row(i) /= s;
      F.row(i) /= s;
    }
  };
  renormalise("uniformisation");
  for (int s = 0; s < m; ++s) {
    RowMatrix EF = E * F;
    F += EF;
    E = (E * E).eval();
    renormalise("squaring");
  }
  RecoveryMatrices out;
  out.S = S;
  out.no_failure.assign(E.data(), E.data() + static_cast<std::size_t>(n) * n);
  out.failure.assign(F.data(), F.data() + static_cast<std::size_t>(n) * n);
  return out;
}

}  // namespace faultsweep::avail
