// Job files as untrusted input (sweep/job.hpp): bytes the TOML parser must not see, deep
// nesting, integers past 64 bits, grid sizes checked before any axis is built, and load_job's
// limits on what it reads.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"
#include "job_support.hpp"

using faultsweep::InputError;
using faultsweep::sweep::JobSpec;
using faultsweep::sweep::parse_job;
using faultsweep::testing::job_text;
using faultsweep::testing::parse;
using faultsweep::testing::parse_error;

TEST_CASE("job: bytes the TOML parser must not see are refused with file:line", "[job][input]") {
  const std::string head = "[sweep]\nmodel = \"synthetic\"\n";
  const auto says = [&](const std::string& text, const std::string& what) {
    const InputError e = parse_error(text);
    CHECK_THAT(std::string(e.what()),
               Catch::StartsWith("jobs/test.toml:") && Catch::Contains(what));
  };
  says("a=\"\xff", "byte 0xFF at offset 3 is not valid UTF-8");            // toml11 over-read
  says(head + "description = \"\xc0\xaf\"\n", "not valid UTF-8");          // overlong '/'
  says(head + "description = \"\xed\xa0\x80\"\n", "not valid UTF-8");      // a surrogate
  says(head + "description = \"\xf4\x90\x80\x80\"\n", "not valid UTF-8");  // above U+10FFFF
  says(head + "# \xe2\x82", "not valid UTF-8");                            // cut at the end
  says(head + std::string("seed = 1\0\n", 10), "a NUL byte");
  says(head + "[params]\nmean = " + std::string(10000, '['), "nested more than 64 deep");
  std::string tables = head + "[params]\nmean = ";
  for (int i = 0; i < 10000; ++i) tables += "{ a = ";
  says(tables, "nested more than 64 deep");
  std::string dotted = head;
  for (int i = 0; i < 10000; ++i) dotted += "a.";
  says(dotted + "a = 1\n", "more than 64 dotted parts");
  // The line is where the problem is.
  CHECK_THAT(std::string(parse_error(head + "seed = 1\n# caf\xe9\n").what()),
             Catch::StartsWith("jobs/test.toml:4: byte 0xE9"));
}

TEST_CASE("job: valid UTF-8, brackets inside strings and moderate nesting are accepted",
          "[job][input]") {
  const JobSpec job = parse(
      "[sweep]\nmodel = \"synthetic\"\ndescription = \"\xc3\xa9t\xc3\xa9 [[[[{{{{ \\\" ]\"\n"
      "# \xf0\x9f\x98\x80 [[[[[[\n[axes]\nmean = [1.0, 3.0]\n");
  CHECK(job.description == "\xc3\xa9t\xc3\xa9 [[[[{{{{ \" ]");
}

TEST_CASE("job: integers beyond 64 bits are refused, not clamped", "[job][input]") {
  for (const std::string seed :
       {"99999999999999999999", "0xfffffffffffffffff", "9223372036854775808"}) {
    const InputError e = parse_error("[sweep]\nmodel = \"synthetic\"\nseed = " + seed + "\n");
    CHECK(e.line() == 3);
    CHECK(e.key() == "sweep.seed");
    CHECK_THAT(e.expected(), Catch::Contains("integer out of range"));
  }
  CHECK(parse("[sweep]\nmodel = \"synthetic\"\nseed = 9_223_372_036_854_775_807\n").seed ==
        9223372036854775807ULL);
}

TEST_CASE("job: grid sizes are checked before any axis is built, without overflow",
          "[job][input]") {
  // 1,764,119 x 2,761,926 x 3,785,993 overflowed to 26 points before; 2^22 x 2^21 x 2^21 to 0.
  for (const auto& [a, b] : {std::pair{1764119, 2761926}, std::pair{4194304, 2097152}}) {
    const InputError e = parse_error(
        job_text("", "",
                 fmt::format("mean = {{ linear = [0, 1], n = {} }}\nsd = {{ linear = [0, "
                             "1], n = {} }}\nwork = [0, 1]",
                             a, b)));
    CHECK(e.key() == "axes.sd");
    CHECK_THAT(e.expected(), Catch::Contains("larger than 10000000 points"));
  }
  // Tasks: points x replicas.
  const InputError t =
      parse_error(job_text("replicas = 1000", "",
                           "mean = { linear = [0, 1], n = 2000 }\nsd = { linear = [0, "
                           "1], n = 1000 }"));
  CHECK_THAT(std::string(t.what()), Catch::Contains("at most 1000000000 tasks"));
  // A lower limit (the fuzz targets') applies the same way.
  CHECK_THROWS_AS(
      parse_job(job_text("", "", "mean = { linear = [0, 1], n = 2000 }"), "x.toml", 1000),
      InputError);
  CHECK(parse_job(job_text("", "", "mean = { linear = [0, 1], n = 1000 }"), "x.toml", 1000)
            .points.size() == 1000);
}

TEST_CASE("job: load_job reads regular files only, of at most 4 MiB", "[job][input]") {
  const auto refused = [](const std::string& path, const std::string& what) {
    try {
      (void)faultsweep::sweep::load_job(path);
      FAIL("no InputError for " << path);
    } catch (const InputError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(what));
    }
  };
  refused("/dev/zero", "is not a regular file");
  refused("/", "is a folder");
  refused("/no/such/job.toml", "no such job file");
}
