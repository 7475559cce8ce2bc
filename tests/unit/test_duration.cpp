// Durations with units (core/duration.hpp): everything inside is seconds.
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/core/run_context.hpp"
#include "faultsweep/sweep/progress.hpp"
#include "faultsweep/workload/factory.hpp"
#include "input_support.hpp"

using faultsweep::InputError;
using faultsweep::parse_duration_s;

TEST_CASE("parse_duration_s converts every unit to seconds", "[duration]") {
  CHECK(parse_duration_s("90s") == 90);
  CHECK(parse_duration_s("5min") == 300);
  CHECK(parse_duration_s("2h") == 7200);
  CHECK(parse_duration_s("3d") == 3 * 86400);
  CHECK(parse_duration_s("1.5w") == 1.5 * 7 * 86400);
  CHECK(parse_duration_s("250ms") == Approx(0.25).epsilon(1e-15));
  CHECK(parse_duration_s("42") == 42);  // a bare number is seconds
  CHECK(parse_duration_s("0.5") == 0.5);
  CHECK(parse_duration_s("70min") == 4200);
  CHECK(parse_duration_s("1e3s") == 1000);
}

TEST_CASE("parse_duration_s ignores surrounding and inner whitespace", "[duration]") {
  CHECK(parse_duration_s("  90s ") == 90);
  CHECK(parse_duration_s("5 min") == 300);
  CHECK(parse_duration_s("\t2 h\n") == 7200);
  CHECK(parse_duration_s(" 42 ") == 42);
}

TEST_CASE("parse_duration_s rejects bad text with an InputError carrying the text", "[duration]") {
  for (const std::string text :
       {"5 parsecs", "abc", "", "1e999", "   ", "h", "5 h h", "inf", "nan", "5min!"}) {
    INFO("text: \"" << text << "\"");
    bool thrown = false;
    try {
      parse_duration_s(text);
    } catch (const InputError& e) {
      thrown = true;
      CHECK(e.value() == text);
      CHECK(e.key().empty());  // the caller locates it
      CHECK_THAT(e.expected(), Catch::Contains("duration"));
    }
    CHECK(thrown);
  }
  // The unknown unit is named.
  try {
    parse_duration_s("5 parsecs");
  } catch (const InputError& e) {
    CHECK_THAT(e.expected(), Catch::Contains("\"parsecs\""));
  }
}

TEST_CASE("format_duration picks a readable unit", "[duration]") {
  CHECK(faultsweep::format_duration(6552) == "1.82h");
  CHECK(faultsweep::format_duration(32.7 * 86400) == "32.7d");
  CHECK(faultsweep::format_duration(90) == "1.5min");
  CHECK(faultsweep::format_duration(12) == "12s");
}

TEST_CASE("format_duration of a non-finite value names seconds", "[duration]") {
  CHECK(faultsweep::format_duration(std::numeric_limits<double>::infinity()) == "inf s");
}

TEST_CASE("format_elapsed rounds wall times for people", "[duration]") {
  using faultsweep::sweep::format_elapsed;
  CHECK(format_elapsed(0.274458) == "0.27 s");
  CHECK(format_elapsed(3.2861) == "3.3 s");
  CHECK(format_elapsed(9.96) == "10 s");
  CHECK(format_elapsed(42.4) == "42 s");
  CHECK(format_elapsed(125.2) == "2 min 05 s");
  CHECK(format_elapsed(3599.7) == "1 h 00 min");
  CHECK(format_elapsed(4020) == "1 h 07 min");
  CHECK(format_elapsed(3 * 86400 + 4 * 3600 + 100) == "3 d 04 h");
}

TEST_CASE("an error repeats a bad duration in a unit a job file accepts", "[duration]") {
  // -864000 s was printed as "-864000 s"; the user wrote days.
  faultsweep::Params t;
  t.set("source", std::string("lublin"));
  t.set("jobs", std::int64_t{9});
  t.set("submit_all_at", -10 * faultsweep::kDay_s);
  faultsweep::RunContext ctx;
  const auto e =
      faultsweep::testing::thrown_error([&] { faultsweep::workload::make_workload(t, 64, ctx); });
  REQUIRE(e);
  CHECK(e->key() == "submit_all_at");
  CHECK(e->value() == "-10d");
}
