#pragma once
// Special functions the fits and goodness-of-fit tests need: digamma, trigamma and the chi-square
// tail from Boost.Math; the Kolmogorov-Smirnov p-values are our own code (exact, Marsaglia et al.).
namespace faultsweep::reliability {

double digamma(double x);   // psi(x), x > 0
double trigamma(double x);  // psi'(x), x > 0

// Upper tail of the chi-square distribution with `dof` degrees of freedom: Q(dof/2, x/2).
double chi_square_sf(double x, double dof);

// P(D_n >= d) for the one-sample Kolmogorov-Smirnov statistic of n observations from a fully
// specified continuous law. Exact (Marsaglia, Tsang & Wang 2003, "Evaluating Kolmogorov's
// distribution", J. Stat. Softw. 8(18)) for n <= kKsExactMaxN, including their documented
// shortcut 1 - 2 exp(-(2.000071 + .331/sqrt(n) + 1.409/n) n d^2) where n d^2 > 7.24 (or > 3.76
// with n > 99); otherwise the asymptotic Kolmogorov law at sqrt(n) d (scipy's "asymp").
constexpr int kKsExactMaxN = 100;
double ks_pvalue(int n, double d);
double ks_pvalue_exact(int n, double d);
double kolmogorov_sf(double lambda);  // P(K > lambda), K the Kolmogorov limiting law

}  // namespace faultsweep::reliability
