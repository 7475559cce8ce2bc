// Student's t quantile, digamma, trigamma, the incomplete gamma P and the chi-square tail come
// from Boost.Math. These cases pin the values of the code they replaced (a bisection on the t
// CDF, recurrence + asymptotic series for psi and psi', a series / continued fraction for P and
// 1 - P for the chi-square tail; printed with %.17g before the change), each to the old code's
// own accuracy, and check where Boost is the more accurate one (references named at each case).
#include <catch2/catch.hpp>

#include <limits>
#include <utility>

#include "faultsweep/dist/gamma.hpp"
#include "faultsweep/reliability/special.hpp"
#include "faultsweep/sweep/stats.hpp"

using faultsweep::dist::regularized_gamma_p;
using faultsweep::reliability::chi_square_sf;
using faultsweep::reliability::digamma;
using faultsweep::reliability::trigamma;
using faultsweep::sweep::student_t_quantile;

TEST_CASE("student_t_quantile agrees with the bisection it replaced to 1e-12", "[special]") {
  const std::pair<double, double> old[] = {
      {1, 12.706204736174584},  {2, 4.302652729749501},   {3, 3.1824463052837482},
      {5, 2.5705818356364096},  {9, 2.2621571627982062},  {19, 2.0930240544083101},
      {29, 2.0452296421326621}, {99, 1.9842169515864039}, {999, 1.9623414611333323}};
  for (const auto& [df, t] : old) CHECK(student_t_quantile(0.975, df) == Approx(t).epsilon(1e-12));
  // Closer to the exact values than the bisection (1e-14 off) and scipy (2e-11 off for df = 1):
  // cot(pi / 40) for df = 1, and the root of I_{3/(3+t^2)}(3/2, 1/2) = 0.05 by mpmath (30 digits).
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706204736174707).epsilon(2e-15));
  CHECK(student_t_quantile(0.975, 3) == Approx(3.1824463052837095).epsilon(2e-15));
}

TEST_CASE("digamma and trigamma agree with the series they replaced", "[special]") {
  struct Old {
    double x, psi, psi1;
  };
  const Old old[] = {{0.1, -10.423754940418281, 101.43329915063261},
                     {0.5, -1.9635100260248224, 4.934802200464298},
                     {1, -0.57721566491029197, 1.644934066656657},
                     {2.5, 0.70315664064184402, 0.49035775601985304},
                     {6, 1.7061176684230412, 0.1813229555455457},
                     {40, 3.6763273740348428, 0.025315103841291028}};
  for (const Old& o : old) {
    CHECK(digamma(o.x) == Approx(o.psi).margin(1e-11));
    CHECK(trigamma(o.x) == Approx(o.psi1).epsilon(2e-9));  // the old series stopped at 1e-9
  }
  CHECK(digamma(6.0) == Approx(1.7061176684318005).epsilon(1e-15));   // scipy.special.digamma
  CHECK(trigamma(1.0) == Approx(1.6449340668482264).epsilon(1e-15));  // pi^2 / 6
}

TEST_CASE("the incomplete gamma P and the chi-square tail agree with the old code", "[special]") {
  struct Old {
    double a, x, p;
  };
  for (const Old& o : {Old{0.5, 0.05, 0.24817036595415076}, Old{1.5, 1, 0.42759329552912023},
                       Old{2.5, 7.5, 0.98963766208421355}, Old{10, 3, 0.00110248813011548}})
    CHECK(regularized_gamma_p(o.a, o.x) == Approx(o.p).epsilon(1e-13));
  struct OldChi {
    double x, dof, q;
  };
  for (const OldChi& o :
       {OldChi{1.365, 3, 0.71375903689794784}, OldChi{7, 3, 0.071897772496465007},
        OldChi{15, 2, 0.00055308437014778278}, OldChi{30, 1, 4.3204630539861455e-08}})
    CHECK(chi_square_sf(o.x, o.dof) == Approx(o.q).epsilon(1e-9));
  // Far in the tail 1 - P lost digits (9.4369e-15, 0.5 % low); Q directly does not.
  CHECK(chi_square_sf(60, 1) == Approx(9.485737571073857e-15).epsilon(1e-12));
  CHECK(chi_square_sf(0, 3) == 1.0);
  CHECK(chi_square_sf(std::numeric_limits<double>::infinity(), 3) == 0.0);
}
