// Point parameters and their canonical text (core/params.hpp), which seeds streams and guards
// resume: the exact text matters.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"

using faultsweep::canonical_value;
using faultsweep::Params;
using faultsweep::Value;

TEST_CASE("canonical_value writes each type in one fixed way", "[params]") {
  SECTION("booleans and integers") {
    CHECK(canonical_value(Value(true)) == "true");
    CHECK(canonical_value(Value(false)) == "false");
    CHECK(canonical_value(Value(std::int64_t{42})) == "42");
    CHECK(canonical_value(Value(std::int64_t{-7})) == "-7");
    CHECK(canonical_value(Value(INT64_MIN)) == "-9223372036854775808");
  }
  SECTION("doubles: 17 significant digits, never readable as an integer") {
    CHECK(canonical_value(Value(1.0)) == "1.0");
    CHECK(canonical_value(Value(100.0)) == "100.0");
    CHECK(canonical_value(Value(-0.0)) == "-0.0");
    CHECK(canonical_value(Value(0.1)) == "0.10000000000000001");
    CHECK(canonical_value(Value(2.5)) == "2.5");
    CHECK(canonical_value(Value(1e22)) == "1e+22");
    CHECK(canonical_value(Value(1e300)) == "1.0000000000000001e+300");
    CHECK(canonical_value(Value(1e-5)) == "1.0000000000000001e-05");
    // An integer and the equal double are different values with different text.
    CHECK(canonical_value(Value(std::int64_t{1})) != canonical_value(Value(1.0)));
    // 17 digits round-trip: distinct doubles give distinct text.
    CHECK(canonical_value(Value(0.1)) != canonical_value(Value(std::nextafter(0.1, 1.0))));
  }
  SECTION("strings: double quotes, with \" and \\ escaped") {
    CHECK(canonical_value(Value(std::string("weibull"))) == "\"weibull\"");
    CHECK(canonical_value(Value(std::string(""))) == "\"\"");
    CHECK(canonical_value(Value(std::string("say \"hi\""))) == "\"say \\\"hi\\\"\"");
    CHECK(canonical_value(Value(std::string("C:\\dir"))) == "\"C:\\\\dir\"");
  }
}

TEST_CASE("Params::canonical_text lists every key once, sorted, whatever the insertion order",
          "[params]") {
  Params a;
  a.set("failures.shape", 0.7);
  a.set("N", std::int64_t{64});
  a.set("policy", std::string("young"));
  a.set("checkpoint", true);
  CHECK(a.canonical_text() ==
        "N=64\ncheckpoint=true\nfailures.shape=0.69999999999999996\npolicy=\"young\"\n");
  Params b;
  b.set("policy", std::string("young"));
  b.set("checkpoint", true);
  b.set("N", std::int64_t{64});
  b.set("failures.shape", 0.7);
  CHECK(b.canonical_text() == a.canonical_text());
  CHECK(b == a);
  b.set("N", std::int64_t{65});  // set replaces
  CHECK(b.canonical_text() != a.canonical_text());
  CHECK(Params().canonical_text().empty());
}

TEST_CASE("Params::sub keeps the keys under a prefix and strips it", "[params]") {
  Params p;
  p.set("failures.dist", std::string("weibull"));
  p.set("failures.shape", 0.7);
  p.set("failures.x.y", std::int64_t{1});
  p.set("failures", std::int64_t{3});  // the prefix itself: not under it
  p.set("failuresX.shape", 1.0);       // shares the letters, not the prefix
  p.set("repairs.mean", 60.0);
  const Params s = p.sub("failures");
  CHECK(s.canonical_text() == "dist=\"weibull\"\nshape=0.69999999999999996\nx.y=1\n");
  CHECK(p.sub("nothing").values().empty());
  CHECK(p.sub("failures").sub("x").integer("y") == 1);
}

TEST_CASE("Params typed access: real accepts an integer, a wrong type is a bug", "[params]") {
  Params p;
  p.set("n", std::int64_t{3});
  p.set("x", 2.5);
  p.set("s", std::string("text"));
  p.set("b", false);
  CHECK(p.real("n") == 3.0);
  CHECK(p.real("x") == 2.5);
  CHECK(p.integer("n") == 3);
  CHECK(p.str("s") == "text");
  CHECK(p.flag("b") == false);
  CHECK(p.has("n"));
  CHECK_FALSE(p.has("missing"));
  CHECK_THROWS_AS(p.integer("x"), faultsweep::InternalError);
  CHECK_THROWS_AS(p.real("s"), faultsweep::InternalError);
  CHECK_THROWS_AS(p.at("missing"), faultsweep::InternalError);
}
