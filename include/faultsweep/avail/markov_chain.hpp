#pragma once
// Plank & Thomason's availability Markov chain M (JPDC 2001, §6 and Appendix).
// All times in seconds, rates per second.
namespace faultsweep::avail {

struct ChainParams {
  int N = 32;              // processors in the system
  int a = 1;               // active processors, 1 <= a <= N
  double I_s = 0;          // checkpoint interval (wall-clock, includes overhead C), I >= L
  double C_s = 0;          // checkpoint overhead
  double L_s = 0;          // checkpoint latency
  double R_s = 0;          // recovery time
  double lambda_per_s = 0; // failure rate of one processor (1 / MTTF)
  double theta_per_s = 0;  // repair rate of one processor (1 / MTTR)
};

struct ChainResult {
  double availability = 0;   // A(a, I), Eq. 5
  double down_fraction = 0;  // long-run fraction of time in System Down states
  double recovery_fraction = 0;  // fraction of time in System Recovery states
  double up_fraction = 0;        // fraction of time in System Up states
};

// Builds M for these parameters and evaluates Eq. 5. Accurate (relative error ~1e-12) even when
// A is far below 1e-3. Throws InputError if a parameter is out of range.
ChainResult evaluate_chain(const ChainParams& p);

struct IntervalOptimum {
  double I_s = 0;
  double availability = 0;
};

// The I >= I_min_s that maximises A(a, I) for p.N, p.a (p.I_s ignored).
IntervalOptimum optimize_interval(const ChainParams& p, double I_min_s);

}  // namespace faultsweep::avail
