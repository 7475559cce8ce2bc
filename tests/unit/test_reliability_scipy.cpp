// MLE fits, standard errors, K-S and chi-square p-values and correlations against scipy.stats,
// on fixed samples. The reference numbers were computed once by
// tests/reference/reliability_reference.py (scipy 1.10.1; output kept next to it in
// reliability_reference.txt). Tolerances: parameters and log-likelihoods 1e-6 relative (both
// sides solve the same likelihood equations to ~1e-10; the Weibull reference is scipy's fit
// refined by a 1e-12 Nelder-Mead), SEs 1e-3 relative (both are central-difference Hessians),
// K-S D 1e-9 absolute (D depends on the fitted parameters only to first order) and p 1e-6.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "faultsweep/reliability/fit.hpp"
#include "faultsweep/reliability/gof.hpp"
#include "faultsweep/reliability/special.hpp"

using namespace faultsweep::reliability;
using Catch::Matchers::WithinRel;

namespace {

const std::vector<double> W = {3642.9, 426.2,  412.8,   3756.9, 1106.9, 2195.9, 1540.0, 1126.3,
                               872.7,  1101.5, 1040.2,  164.4,  5866.7, 235.2,  293.5,  2328.8,
                               939.2,  1552.6, 1896.4,  2552.2, 4753.4, 1406.2, 3643.4, 6027.2,
                               18.6,   5851.2, 11335.9, 3591.7, 439.0,  14.4};
const std::vector<double> L = {109.4,  208.8, 61.5,  601.1,  104.7, 33.6,   82.1,  2944.7,
                               656.4,  99.9,  32.0,  894.5,  72.3,  47.7,   48.2,  687.5,
                               1150.8, 108.1, 244.4, 80.1,   21.0,  243.3,  70.6,  60.1,
                               71.1,   126.6, 377.4, 28.2,   429.2, 1165.9, 158.7, 23.8,
                               116.4,  221.3, 716.3, 1161.2, 225.4, 25.1,   18.5,  244.1};
const std::vector<double> C = {2500.0, 800.0, 4000.0, 150.0};

struct Ref {
  Law law;
  const std::vector<double>* x;
  bool censored;
  double p1, p2, se1, se2, loglik, ks_d, ks_p;
};

// Copied from reliability_reference.txt (ks_d < 0: not computed for censored samples).
const Ref kRefs[] = {
    {Law::weibull, &W, false, 0.8936076345427745, 2219.8586933238907, 0.12996315162483557,
     476.1442929152334, -262.391937880122, 0.0855426898349716, 0.9672281626189106},
    {Law::weibull, &L, false, 0.7735631592589847, 288.0186923062816, 0.0894487476542884,
     62.52456514583965, -270.81037421461303, 0.13949107907226332, 0.38234274810993596},
    {Law::weibull, &W, true, 0.9092052031067526, 2507.738474705146, 0.13220175955954766,
     515.9302948136236, -265.5123491971518, -1, -1},
    {Law::gamma, &W, false, 0.8196284388566046, 2852.1989019738307, 0.18300268551170037,
     858.1310111914088, -262.2887990474263, 0.08712850323600274, 0.9616699235219058},
    {Law::gamma, &L, false, 0.7179735313492757, 479.5441405102536, 0.1371214178791122,
     128.04375408456102, -272.00803540184677, 0.17264925782426566, 0.16359602193333744},
    {Law::gamma, &W, true, 0.8406595544727726, 3110.4878601039204, 0.18236423248614164,
     951.8455402733555, -265.40147573457284, -1, -1},
    {Law::lognormal, &W, false, 7.035137555664407, 1.5288891773694726, 0.2791356947753659,
     0.19737874058089677, -266.358525981734, 0.16490381418572464, 0.34942937608876234},
    {Law::lognormal, &L, false, 5.002735287916517, 1.285004438236775, 0.20317704018775928,
     0.14366785782075214, -266.8974397337266, 0.10081856730037458, 0.7735997992187084},
    {Law::lognormal, &W, true, 7.197804018570038, 1.5613999378561354, 0.2753485614218902,
     0.20176225513015714, -269.57070160780984, -1, -1},
};

}  // namespace

TEST_CASE("MLE, SEs and K-S of the Weibull, gamma and lognormal agree with scipy.stats",
          "[reliability][scipy]") {
  for (const Ref& r : kRefs) {
    INFO(law_name(r.law) << (r.x == &W ? " W" : " L") << (r.censored ? " censored" : ""));
    const Fit f = fit_mle(r.law, *r.x, r.censored ? C : std::vector<double>{});
    CHECK(f.converged);
    CHECK_THAT(f.p1, WithinRel(r.p1, 1e-6));
    CHECK_THAT(f.p2, WithinRel(r.p2, 1e-6));
    CHECK_THAT(f.log_likelihood, WithinRel(r.loglik, 1e-9));
    CHECK_THAT(f.se1, WithinRel(r.se1, 1e-3));
    CHECK_THAT(f.se2, WithinRel(r.se2, 1e-3));
    if (r.ks_d >= 0) {
      const KsResult ks = ks_test(*r.x, f);
      CHECK(ks.exact);
      CHECK(ks.d == Approx(r.ks_d).margin(1e-7));
      CHECK(ks.p == Approx(r.ks_p).margin(1e-5));
    }
  }
}

TEST_CASE("The exponential MLE is the total time on test over the failures",
          "[reliability][scipy]") {
  const Fit f = fit_mle(Law::exponential, W);
  CHECK_THAT(f.p1, WithinRel(2337.743333333333, 1e-12));
  CHECK_THAT(f.se1, WithinRel(2337.743333333333 / std::sqrt(30.0), 1e-12));
  const Fit fc = fit_mle(Law::exponential, W, C);  // survivals add time, not failures
  CHECK_THAT(fc.p1, WithinRel(2586.0766666666664, 1e-12));
  const KsResult ks = ks_test(W, f);
  CHECK(ks.d == Approx(0.09545711027383502).margin(1e-12));
  CHECK(ks.p == Approx(0.9233092663674413).margin(1e-7));
}

TEST_CASE(
    "K-S p-values: exact (Marsaglia-Tsang-Wang) and asymptotic match scipy's kstwo and "
    "kstwobign",
    "[reliability][scipy]") {
  CHECK(ks_pvalue_exact(30, 0.1) == Approx(0.8960782680050898).margin(1e-9));
  CHECK(ks_pvalue_exact(10, 0.3) == Approx(0.27053557479999946).margin(1e-9));
  CHECK(ks_pvalue_exact(100, 0.05) == Approx(0.9532159710635725).margin(1e-9));
  CHECK(kolmogorov_sf(1.0) == Approx(0.26999967167735456).margin(1e-12));
  // n = 500 is above the exact range: the asymptotic law at sqrt(n) D, as scipy's "asymp".
  CHECK(ks_pvalue(500, 0.03203240192341872) == Approx(0.6840139778039456).margin(1e-10));
}

TEST_CASE("Spearman, Pearson, Durbin-Watson and chi-square agree with scipy",
          "[reliability][scipy]") {
  const std::vector<double> w(W.begin(), W.begin() + 20), l(L.begin(), L.begin() + 20);
  CHECK(spearman(w, l) == Approx(0.04661654135338346).margin(1e-12));
  CHECK(pearson(w, l) == Approx(-0.13049981791121829).margin(1e-12));
  CHECK(durbin_watson(W) == Approx(1.6643165412697023).margin(1e-12));
  // Gottumukkala Fig. 4.3: chi-square 1.365 with m - c - 1 = 3 dof; p from scipy's chi2.sf.
  CHECK(chi_square_sf(1.365, 3) == Approx(0.7137590368979478).margin(1e-10));
}
