// Durations with units (core/duration.hpp): everything inside is seconds.
#include <catch2/catch.hpp>

#include <string>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"

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
