// The typed reader of parameter sub-tables (core/table_reader.hpp): each error names the sub-key,
// its value and what was expected, in the wording the dist, failures and workload tables use.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/table_reader.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::TableReader;

namespace {

// The error thrown by f, or a failed check if none is thrown.
template <class F>
InputError error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError thrown");
  return InputError("unreachable");
}

Params table() {
  Params t;
  t.set("dist", std::string("weibull"));
  t.set("shape", 0.7);
  t.set("W", std::int64_t{3});
  t.set("neg", -1.0);
  t.set("inf", std::numeric_limits<double>::infinity());
  t.set("probs", std::string("0.6, 0.3, 0.1"));
  t.set("means", std::string("5min, 1h"));
  t.set("bad_list", std::string("0.6,,0.1"));
  t.set("bad_means", std::string("5min, soon"));
  return t;
}

}  // namespace

TEST_CASE("TableReader 'must be' reads name the sub-key and the selector", "[table_reader]") {
  const Params t = table();
  const TableReader r(t, "dist = \"weibull\"");
  CHECK(*r.number("shape") == 0.7);
  CHECK(*r.number("W") == 3.0);  // an integer is a number
  CHECK_FALSE(r.number("absent").has_value());
  CHECK(r.required_positive("shape") == 0.7);

  InputError e = error_of([&] { (void)r.number("dist"); });
  CHECK(e.key() == "dist");
  CHECK(e.value() == "\"weibull\"");
  CHECK(e.expected() == "must be a number");
  CHECK(error_of([&] { (void)r.number("inf"); }).expected() == "must be a finite number");

  e = error_of([&] { (void)r.required("scale"); });
  CHECK(e.key() == "scale");
  CHECK(e.value().empty());
  CHECK(e.expected() == "required for dist = \"weibull\"");

  e = error_of([&] { (void)r.required_positive("neg"); });
  CHECK(e.key() == "neg");
  CHECK(e.value() == "-1.0");
  CHECK(e.expected() == "must be > 0");

  CHECK(error_of([&] { (void)r.integer("shape"); }).expected() == "must be an integer");
  CHECK(error_of([&] { (void)r.string("W"); }).expected() == "must be a string");
  CHECK(*r.integer("W") == 3);
  CHECK(*r.string("dist") == "weibull");
}

TEST_CASE("TableReader::first_of wants exactly one of two keys", "[table_reader]") {
  const Params t = table();
  const TableReader r(t, "dist = \"weibull\"");
  CHECK(r.first_of("shape", "scale"));
  CHECK_FALSE(r.first_of("scale", "shape"));
  InputError both = error_of([&] { (void)r.first_of("shape", "W"); });
  CHECK(both.key() == "W");
  CHECK(both.expected() == "give either shape or W, not both");
  InputError none = error_of([&] { (void)r.first_of("scale", "mean"); });
  CHECK(none.key() == "scale");
  CHECK(none.expected() == "required for dist = \"weibull\" (or give mean)");
}

TEST_CASE("TableReader::check_keys lists the allowed keys after the first unknown one",
          "[table_reader]") {
  Params t;
  t.set("dist", std::string("weibull"));
  t.set("shap", 0.7);
  const TableReader r(t, "dist = \"weibull\"");
  InputError e = error_of([&] { r.check_keys({"dist", "shape", "scale"}); });
  CHECK(e.key() == "shap");
  CHECK(e.value() == "0.69999999999999996");
  CHECK(e.expected() == "unknown key for dist = \"weibull\"; allowed keys: dist, shape, scale");
  e = error_of([&] { r.check_keys({"dist"}, "a key of a \"swf\" workload: "); });
  CHECK(e.expected() == "a key of a \"swf\" workload: dist");
  Params ok;
  ok.set("shape", 1.0);
  CHECK_NOTHROW(TableReader(ok).check_keys({"dist", "shape"}));
}

TEST_CASE("TableReader '_or' reads return the fallback when absent and say what was expected",
          "[table_reader]") {
  const Params t = table();
  const TableReader r(t);
  CHECK(r.real_or("absent", 2.5) == 2.5);
  CHECK(r.real_or("W", 0.0) == 3.0);
  CHECK(std::isinf(r.real_or("inf", 0.0)));  // not range-checked: the caller decides
  CHECK(error_of([&] { (void)r.real_or("dist", 0.0); }).expected() == "a number");

  CHECK(r.integer_or("absent", 7, 1) == 7);
  CHECK(r.integer_or("W", 0, 1) == 3);
  CHECK(error_of([&] { (void)r.integer_or("shape", 0, 1); }).expected() == "an integer");
  CHECK(error_of([&] { (void)r.integer_or("W", 0, 4); }).expected() == "an integer >= 4");

  CHECK(r.choice_or("absent", "fcfs", {"fcfs"}) == "fcfs");
  CHECK(r.choice_or("dist", "", {"exponential", "weibull"}) == "weibull");
  InputError e = error_of([&] { (void)r.choice_or("dist", "", {"a", "b"}); });
  CHECK(e.key() == "dist");
  CHECK(e.expected() == "one of \"a\", \"b\"");

  CHECK(r.list_or("probs", {}, false) == std::vector<double>{0.6, 0.3, 0.1});
  CHECK(r.list_or("means", {}, true) == std::vector<double>{300.0, 3600.0});
  CHECK(r.list_or("absent", {1.0}, false) == std::vector<double>{1.0});
  CHECK(error_of([&] { (void)r.list_or("bad_list", {}, false); }).expected() ==
        "a comma-separated list of numbers, e.g. \"0.6, 0.3, 0.1\"");
  CHECK(error_of([&] { (void)r.list_or("bad_means", {}, true); }).expected() ==
        "a comma-separated list of durations, e.g. \"5min, 1h, 8h\"");
  CHECK(error_of([&] { (void)r.list_or("W", {}, false); }).expected() ==
        "a comma-separated list in a string, e.g. \"0.6, 0.3, 0.1\"");
}
