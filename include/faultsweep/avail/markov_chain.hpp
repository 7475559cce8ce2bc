#pragma once
// Plank & Thomason's availability Markov chain M (JPDC 2001, §6 and Appendix).
// All times in seconds, rates per second.
//
// Spare-chain indexing: everything here indexes the birth-death chain S^τ by the number of
// functional spares f = 0..S. The paper numbers the same states k = 1..S+1 with k - 1 failed
// spares, so its q_{S-i+1, S-j+1} is our [i][j] (i, j functional spares).
#include <vector>

namespace faultsweep::avail {

struct ChainParams {
  int N = 32;               // processors in the system
  int a = 1;                // active processors, 1 <= a <= N
  double I_s = 0;           // checkpoint interval (wall-clock, includes overhead C), I >= L
  double C_s = 0;           // checkpoint overhead
  double L_s = 0;           // checkpoint latency
  double R_s = 0;           // recovery time
  double lambda_per_s = 0;  // failure rate of one processor (1 / MTTF)
  double theta_per_s = 0;   // repair rate of one processor (1 / MTTR)
};

struct ChainResult {
  double availability = 0;       // A(a, I), Eq. 5
  double down_fraction = 0;      // long-run fraction of time in System Down states
  double recovery_fraction = 0;  // fraction of time in System Recovery states
  double up_fraction = 0;        // fraction of time in System Up states
};

// Builds M for these parameters and evaluates Eq. 5. Accurate (relative error ~1e-12) even when
// A is far below 1e-3. Throws InputError if a parameter is out of range.
ChainResult evaluate_chain(const ChainParams& p);

struct IntervalOptimum {
  double I_s = 0;
  double availability = 0;
  int evaluations = 0;  // evaluations of A (or of its derivative) spent on the search
};

// The I >= I_min_s that maximises A(a, I) for p.N, p.a (p.I_s ignored).
IntervalOptimum optimize_interval(const ChainParams& p, double I_min_s);

// ---- Building blocks, exposed for tests and for callers that sweep I ----

// Stationary vector of the irreducible row-stochastic n x n matrix P (row-major) by the GTH
// state-reduction algorithm (Grassmann, Taksar & Heyman 1985). It never subtracts, so every
// entry keeps a small relative error even when it is astronomically small. Diagonal entries of P
// are not read.
std::vector<double> gth_stationary(std::vector<double> P, int n);

// q^{Up,S} of Eq. 17-18: row i = law of the number of functional spares at an Exp(a*lambda)
// time, starting from i functional spares; (S+1) x (S+1), row-major. Computed as
// a*lambda*(a*lambda*I - R)^{-1} by a subtraction-free elimination of the diagonally dominant
// tridiagonal M-matrix (entrywise relative accuracy; no eigenvectors).
std::vector<double> spare_q_up(int S, int a, double lambda_per_s, double theta_per_s);

// The two matrices out of a System Recovery state of length rho = R + I + L, (S+1) x (S+1) each:
//   no_failure = e^{-a lambda rho} Q^{S,rho}          (Eq. 9 times the success probability)
//   failure    = (1 - e^{-a lambda rho}) q^{Rec,S}     (Eq. 19 times the failure probability)
// Both are blocks of expm(G rho) for the generator G = [[R - a lambda I, a lambda I], [0, 0]]
// (the spare chain killed at rate a lambda), computed by uniformisation with scaling and
// squaring: only sums and products of nonnegative numbers, so tiny entries stay accurate.
struct RecoveryMatrices {
  int S = 0;
  std::vector<double> no_failure;
  std::vector<double> failure;
};
RecoveryMatrices spare_recovery_matrices(int S, int a, double lambda_per_s, double theta_per_s,
                                         double rho_s);

// g(x) = 1/x - 1/expm1(x), without cancellation for small x (series). Eq. 2 is rho*g(a lambda rho)
// and the last-interval part of Eq. 3's weighting is I*g(a lambda I).
double g_mean_excess(double x);

// Everything in M that does not depend on I, C, L, R: the spare chain and the Down excursion.
// Because the spares evolve independently of the active processors, and the time from the start
// of a System Recovery state to the next active failure is Exp(a lambda) whether or not the state
// passes through System Up (memorylessness), the spares at that failure follow q^Up from the
// spares at the start of the recovery, whatever I is. (Algebraically: e^{-a lambda rho} Q^rho
// q^Up + (1 - e^{-a lambda rho}) q^Rec = q^Up, from Eq. 9, 18, 19.) M then reduces to
//   A = a lambda e^{-a lambda (R+L)} (I - C e^{-a lambda I}) / expm1(a lambda I)
//       / (1 + a lambda p_D T_D)
// where p_D = long-run probability that a recovery cycle ends in System Down and T_D = mean
// length of a Down excursion from [D : a-1] to a functional processors. Tests check this
// against the full chain built state by state.
class ChainCore {
 public:
  ChainCore(int N, int a, double lambda_per_s, double theta_per_s);

  int N() const { return N_; }
  int a() const { return a_; }
  double p_down() const { return p_down_; }              // p_D
  double down_excursion_s() const { return T_down_s_; }  // T_D

  // A and the time fractions for one interval (closed form above). Throws InputError on bad I/C.
  ChainResult evaluate(double I_s, double C_s, double L_s, double R_s) const;
  // log A, finite even where A underflows a double.
  double log_availability(double I_s, double C_s, double L_s, double R_s) const;
  // The I >= I_min_s maximising A: log-spaced scan, then Brent's root finder on dA/dI.
  IntervalOptimum optimize_interval(double C_s, double L_s, double R_s, double I_min_s) const;

 private:
  int N_, a_;
  double lambda_, theta_;
  double p_down_ = 0;
  double T_down_s_ = 0;
};

}  // namespace faultsweep::avail
