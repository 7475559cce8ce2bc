// Distributions as a job file names them (dist/distribution.hpp): each parameterisation
// accepted and normalised, the canonical text that identifies a distribution, and bad input
// reported on the offending sub-key.
#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "input_support.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::Value;
using faultsweep::dist::Dist;
using faultsweep::dist::Kind;

using faultsweep::testing::make_params;
using faultsweep::testing::str;

namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

TEST_CASE("Dist::from_params accepts each parameterisation and normalises it", "[dist]") {
  SECTION("exponential by mean (an integer is accepted) or by rate") {
    const Dist a = Dist::from_params(make_params({{"dist", str("exponential")}, {"mean", 4200}}));
    CHECK(a.kind() == Kind::exponential);
    CHECK(a.mean() == 4200);
    CHECK(a.canonical_text() == "dist=exponential;mean=4200.0");
    const Dist b = Dist::from_params(make_params({{"dist", str("exponential")}, {"rate", 0.25}}));
    CHECK(b.canonical_text() == "dist=exponential;mean=4.0");
  }
  SECTION("weibull by scale or by mean; the text always names shape and scale") {
    const Dist a = Dist::from_params(
        make_params({{"dist", str("weibull")}, {"shape", 0.7}, {"scale", 18000.0}}));
    CHECK(a.canonical_text() == "dist=weibull;scale=18000.0;shape=0.69999999999999996");
    const Dist b =
        Dist::from_params(make_params({{"dist", str("weibull")}, {"shape", 1}, {"mean", 50}}));
    CHECK(b.canonical_text() == "dist=weibull;scale=50.0;shape=1.0");
    const Dist c =
        Dist::from_params(make_params({{"dist", str("weibull")}, {"shape", 2}, {"mean", 7200}}));
    CHECK(c.p2() == Approx(7200 / (std::sqrt(kPi) / 2)).epsilon(1e-15));
    CHECK(c.mean() == Approx(7200).epsilon(1e-15));
  }
  SECTION("lognormal by mu or by mean (mu = log(mean) - sigma^2 / 2)") {
    const Dist a =
        Dist::from_params(make_params({{"dist", str("lognormal")}, {"mu", 8}, {"sigma", 1.2}}));
    CHECK(a.canonical_text() == "dist=lognormal;mu=8.0;sigma=1.2");
    const Dist b = Dist::from_params(
        make_params({{"dist", str("lognormal")}, {"mean", 3600}, {"sigma", 1.2}}));
    CHECK(b.p1() == Approx(std::log(3600.0) - 0.72).epsilon(1e-15));
    CHECK(b.mean() == Approx(3600).epsilon(1e-14));
    CHECK(b.canonical_text().starts_with("dist=lognormal;mu="));
  }
  SECTION("constant") {
    CHECK(Dist::from_params(make_params({{"dist", str("constant")}, {"value", 0}}))
              .canonical_text() == "dist=constant;value=0.0");
    CHECK(Dist::from_params(make_params({{"dist", str("constant")}, {"value", 4500.0}})).mean() ==
          4500);
  }
}

TEST_CASE("Dist: canonical text is stable and identifies the distribution", "[dist]") {
  // Part of stream derivation: changing these strings changes every stored result.
  CHECK(Dist::exponential(4200).canonical_text() == "dist=exponential;mean=4200.0");
  CHECK(Dist::weibull(0.7, 18000).canonical_text() ==
        "dist=weibull;scale=18000.0;shape=0.69999999999999996");
  CHECK(Dist::lognormal(8, 1.2).canonical_text() == "dist=lognormal;mu=8.0;sigma=1.2");
  CHECK(Dist::lognormal(-0.5, 2).canonical_text() == "dist=lognormal;mu=-0.5;sigma=2.0");
  CHECK(Dist::constant(4500).canonical_text() == "dist=constant;value=4500.0");
  CHECK(Dist::weibull(0.1, 1e-3).canonical_text() ==
        "dist=weibull;scale=0.001;shape=0.10000000000000001");
  // Same distribution, two parameterisations: the same text, hence the same stream.
  CHECK(Dist::from_params(make_params({{"dist", str("weibull")}, {"shape", 1}, {"mean", 50}}))
            .canonical_text() == Dist::weibull(1, 50).canonical_text());
  CHECK(Dist::weibull(0.7, 18000).canonical_text() != Dist::weibull(0.7, 18001).canonical_text());
}

TEST_CASE("Dist::from_params reports bad input on the offending sub-key", "[dist]") {
  struct Case {
    const char* what;
    Params p;
    const char* key;
    const char* value;  // nullptr: not checked
  };
  const std::vector<Case> cases = {
      {"no dist", make_params({{"mean", 3}}), "dist", ""},
      {"unknown dist", make_params({{"dist", str("gamma")}, {"mean", 3}}), "dist", "\"gamma\""},
      {"dist not a string", make_params({{"dist", 42}}), "dist", "42"},
      {"negative mean", make_params({{"dist", str("exponential")}, {"mean", -1}}), "mean", "-1"},
      {"zero rate", make_params({{"dist", str("exponential")}, {"rate", 0.0}}), "rate", "0.0"},
      {"mean and rate", make_params({{"dist", str("exponential")}, {"mean", 1}, {"rate", 1}}),
       "rate", "1"},
      {"neither mean nor rate", make_params({{"dist", str("exponential")}}), "mean", ""},
      {"mean not a number", make_params({{"dist", str("exponential")}, {"mean", str("70min")}}),
       "mean", "\"70min\""},
      {"mean infinite", make_params({{"dist", str("exponential")}, {"mean", HUGE_VAL}}), "mean",
       nullptr},
      {"unknown key", make_params({{"dist", str("exponential")}, {"mean", 1}, {"shape", 2}}),
       "shape", "2"},
      {"negative shape", make_params({{"dist", str("weibull")}, {"shape", -0.5}, {"scale", 1}}),
       "shape", "-0.5"},
      {"NaN shape", make_params({{"dist", str("weibull")}, {"shape", NAN}, {"scale", 1}}), "shape",
       nullptr},
      {"missing shape", make_params({{"dist", str("weibull")}, {"scale", 1}}), "shape", ""},
      {"zero scale", make_params({{"dist", str("weibull")}, {"shape", 1}, {"scale", 0}}), "scale",
       "0"},
      {"scale and mean",
       make_params({{"dist", str("weibull")}, {"shape", 1}, {"scale", 1}, {"mean", 1}}), "mean",
       "1"},
      {"neither scale nor mean", make_params({{"dist", str("weibull")}, {"shape", 1}}), "scale",
       ""},
      {"negative weibull mean",
       make_params({{"dist", str("weibull")}, {"shape", 1}, {"mean", -3.0}}), "mean", "-3.0"},
      {"rate for weibull", make_params({{"dist", str("weibull")}, {"shape", 1}, {"rate", 1}}),
       "rate", "1"},
      {"zero sigma", make_params({{"dist", str("lognormal")}, {"mu", 1}, {"sigma", 0}}), "sigma",
       "0"},
      {"missing sigma", make_params({{"dist", str("lognormal")}, {"mu", 1}}), "sigma", ""},
      {"mu and mean",
       make_params({{"dist", str("lognormal")}, {"mu", 1}, {"mean", 2}, {"sigma", 1}}), "mu", "1"},
      {"neither mu nor mean", make_params({{"dist", str("lognormal")}, {"sigma", 1}}), "mean", ""},
      {"infinite mu", make_params({{"dist", str("lognormal")}, {"mu", -HUGE_VAL}, {"sigma", 1}}),
       "mu", nullptr},
      {"boolean sigma", make_params({{"dist", str("lognormal")}, {"mu", 1}, {"sigma", true}}),
       "sigma", "true"},
      {"negative value", make_params({{"dist", str("constant")}, {"value", -1}}), "value", "-1"},
      {"missing value", make_params({{"dist", str("constant")}}), "value", ""},
      {"mean for constant", make_params({{"dist", str("constant")}, {"mean", 3}}), "mean", "3"},
  };
  for (const Case& c : cases) {
    INFO(c.what << ": " << c.p.canonical_text());
    bool thrown = false;
    try {
      Dist::from_params(c.p);
    } catch (const InputError& e) {
      thrown = true;
      INFO("message: " << e.what());
      CHECK(e.key() == c.key);
      if (c.value != nullptr) CHECK(e.value() == c.value);
      CHECK_FALSE(e.expected().empty());
    }
    CHECK(thrown);
  }

  SECTION("messages say what was expected") {
    const auto expected_of = [](const Params& p) {
      const auto e = faultsweep::testing::thrown_error([&] { (void)Dist::from_params(p); });
      return e ? e->expected() : std::string("(no error)");
    };
    CHECK(expected_of(make_params({{"dist", str("gamma")}})) ==
          "expected one of exponential, weibull, lognormal, constant");
    CHECK(expected_of(make_params({{"dist", str("exponential")}})) ==
          "required for dist = \"exponential\" (or give rate)");
    CHECK(expected_of(make_params({{"dist", str("weibull")}, {"shape", -0.5}, {"scale", 1}})) ==
          "must be > 0");
    const std::string unknown = expected_of(
        make_params({{"dist", str("weibull")}, {"shape", 1}, {"scale", 1}, {"sclae", 1}}));
    CHECK_THAT(unknown,
               Catch::Contains("unknown key") && Catch::Contains("dist, mean, scale, shape"));
  }
}
