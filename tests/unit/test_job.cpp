// Job files (sweep/job.hpp): parsing inline TOML with the `synthetic` model (params work, mean,
// sd; metrics value, u), the grid the axes expand to, replica rules, and what resume compares.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/sweep/job.hpp"
#include "job_support.hpp"

using faultsweep::InputError;
using faultsweep::Params;
using faultsweep::sweep::job_differences;
using faultsweep::sweep::JobSpec;
using faultsweep::sweep::nearest;
using faultsweep::testing::job_text;
using faultsweep::testing::parse;
using faultsweep::testing::parse_error;

namespace {

std::vector<double> column(const JobSpec& job, const std::string& key) {
  std::vector<double> out;
  for (const Params& p : job.points) out.push_back(p.real(key));
  return out;
}

}  // namespace

TEST_CASE("job: a job with no params and no axes is one point with every default filled in",
          "[job]") {
  const JobSpec job = parse("[sweep]\nmodel = \"synthetic\"\n");
  REQUIRE(job.model != nullptr);
  CHECK(job.model->name() == "synthetic");
  CHECK(job.seed == 1);                    // the default master seed
  CHECK(job.output == "results/test.h5");  // results/<stem of the job file>.h5
  CHECK(job.output_line == 0);             // not set in the file
  CHECK(job.base_dir == std::filesystem::path("jobs"));
  CHECK(job.replicas.min == 10);  // stochastic models default to 10 replicas
  CHECK(job.replicas.max == 10);
  CHECK_FALSE(job.replicas.adaptive());
  REQUIRE(job.points.size() == 1);
  REQUIRE(job.costs.size() == 1);
  CHECK(job.axes.empty());
  const Params& p = job.points[0];
  CHECK(p.real("work") == 0.01);
  CHECK(p.real("mean") == 0.0);
  CHECK(p.real("sd") == 1.0);
  CHECK(job.fixed == p);
  CHECK(job.metric_count() == 2);
  CHECK(job.metric_index("value") == 0);
  CHECK(job.metric_index("u") == 1);
  CHECK(job.metric_index("nope") == -1);
}

TEST_CASE("job: the [sweep] table sets seed, output, description and the file text", "[job]") {
  const std::string text =
      "[sweep]\nmodel = \"synthetic\"\nseed = 20011115\noutput = \"out/x.h5\"\n"
      "description = \"a test\"\nreplicas = 3\n";
  const JobSpec job = parse(text);
  CHECK(job.seed == 20011115u);
  CHECK(job.output == "out/x.h5");
  CHECK(job.output_line == 4);
  CHECK(job.description == "a test");
  CHECK(job.text == text);
  CHECK(job.file == "jobs/test.toml");
  CHECK(job.replicas.min == 3);
  CHECK(job.replicas.max == 3);
}

TEST_CASE("job: the grid is the product of the axes, the first axis in the file varying slowest",
          "[job]") {
  // sd is written first in the file, so it is the slowest axis even though "mean" sorts first.
  const JobSpec job = parse(job_text("", "work = 0", "sd = [1, 2, 3]\nmean = [10.0, 20.0]"));
  REQUIRE(job.axes.size() == 2);
  CHECK(job.axes[0].name == "sd");
  CHECK(job.axes[1].name == "mean");
  REQUIRE(job.points.size() == 6);
  CHECK(column(job, "sd") == std::vector<double>{1, 1, 2, 2, 3, 3});
  CHECK(column(job, "mean") == std::vector<double>{10, 20, 10, 20, 10, 20});
  // Fixed params appear at every point; integers written for a real parameter become doubles.
  for (const Params& p : job.points) {
    CHECK(p.real("work") == 0.0);
    CHECK(std::holds_alternative<double>(p.at("sd")));
  }
  CHECK(job.costs.size() == 6);
  CHECK(job.fixed.has("work"));
  CHECK_FALSE(job.fixed.has("sd"));  // swept, not fixed
}

TEST_CASE("job: a zip group is one grid dimension whose members vary together", "[job]") {
  const JobSpec job = parse(job_text(
      "", "",
      "work = [\"1ms\", \"2ms\"]\npair = { zip = { mean = [1, 2, 3], sd = [0.5, 0.6, 0.7] } }"));
  REQUIRE(job.axes.size() == 2);
  CHECK(job.axes[1].name == "pair");
  REQUIRE(job.axes[1].members.size() == 2);
  CHECK(job.axes[1].size() == 3);
  REQUIRE(job.points.size() == 6);
  CHECK(column(job, "work") == std::vector<double>{0.001, 0.001, 0.001, 0.002, 0.002, 0.002});
  CHECK(column(job, "mean") == std::vector<double>{1, 2, 3, 1, 2, 3});
  CHECK(column(job, "sd") == std::vector<double>{0.5, 0.6, 0.7, 0.5, 0.6, 0.7});
}

TEST_CASE("job: zipped lists of unequal lengths are refused, naming the member", "[job]") {
  const InputError e =
      parse_error(job_text("", "", "pair = { zip = { mean = [1, 2, 3], sd = [0.5, 0.6] } }"));
  CHECK(e.file() == "jobs/test.toml");
  CHECK(e.key() == "axes.pair.zip.sd");
  CHECK_THAT(e.expected(), Catch::Contains("equal lengths"));
}

TEST_CASE("job: linear and log axes have n values with exact end points", "[job]") {
  SECTION("linear") {
    const JobSpec job = parse(job_text("", "", "mean = { linear = [0.1, 0.7], n = 7 }"));
    const auto v = column(job, "mean");
    REQUIRE(v.size() == 7);
    CHECK(v.front() == 0.1);
    CHECK(v.back() == 0.7);
    for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == Approx(0.1 + 0.1 * i).epsilon(1e-14));
  }
  SECTION("log, on a duration given with units") {
    const JobSpec job = parse(job_text("", "", "work = { log = [\"1ms\", \"1s\"], n = 4 }"));
    const auto v = column(job, "work");
    REQUIRE(v.size() == 4);
    CHECK(v.front() == 0.001);
    CHECK(v.back() == 1.0);
    CHECK(v[1] == Approx(0.01).epsilon(1e-13));
    CHECK(v[2] == Approx(0.1).epsilon(1e-13));
    CHECK(job.axes[0].members[0].units == "s");
  }
  SECTION("n = 1 gives lo") {
    const JobSpec job = parse(job_text("", "", "sd = { log = [2.0, 8.0], n = 1 }"));
    CHECK(column(job, "sd") == std::vector<double>{2.0});
  }
  SECTION("range is for integer parameters only") {
    const InputError e = parse_error(job_text("", "", "mean = { range = [1, 4] }"));
    CHECK(e.key() == "axes.mean");
    CHECK_THAT(e.expected(), Catch::Contains("integer"));
  }
  SECTION("a log axis needs lo > 0") {
    const InputError e = parse_error(job_text("", "", "sd = { log = [0.0, 8.0], n = 3 }"));
    CHECK(e.key() == "axes.sd.log");
    CHECK(e.line() == 8);
  }
  SECTION("linear needs n") {
    const InputError e = parse_error(job_text("", "", "sd = { linear = [0.0, 8.0] }"));
    CHECK(e.key() == "axes.sd.n");
  }
}

TEST_CASE("job: durations are converted to seconds, in [params] and on axes", "[job]") {
  const JobSpec job = parse(job_text("", "work = \"2min\"", ""));
  CHECK(job.points[0].real("work") == 120.0);
  const JobSpec job2 = parse(job_text("", "", "work = [\"250ms\", \"0.5h\", 3, \"1h\", 2.5]"));
  CHECK(column(job2, "work") == std::vector<double>{0.25, 1800.0, 3.0, 3600.0, 2.5});
  CHECK(job2.axes[0].members[0].units == "s");
  const JobSpec job3 = parse(job_text("", "", "mean = [1.0]"));
  CHECK(job3.axes[0].members[0].units == "1");  // the parameter's own unit
}

TEST_CASE("job: replicas: a fixed count, or a stopping rule with its defaults", "[job]") {
  SECTION("fixed") {
    const JobSpec job = parse(job_text("replicas = 25", "", ""));
    CHECK(job.replicas.min == 25);
    CHECK(job.replicas.max == 25);
    CHECK_FALSE(job.replicas.adaptive());
  }
  SECTION("absolute CI target") {
    const JobSpec job = parse(job_text(
        "replicas = { min = 3, max = 40, until = { metric = \"value\", ci95 = 0.5 } }", "", ""));
    CHECK(job.replicas.min == 3);
    CHECK(job.replicas.max == 40);
    CHECK(job.replicas.metric == "value");
    CHECK(job.replicas.ci95 == 0.5);
    CHECK(job.replicas.rel_ci95 == 0);
    CHECK(job.replicas.adaptive());
  }
  SECTION("relative CI target, min defaults to 10") {
    const JobSpec job = parse(
        job_text("replicas = { max = 400, until = { metric = \"u\", rel_ci95 = 0.01 } }", "", ""));
    CHECK(job.replicas.min == 10);
    CHECK(job.replicas.max == 400);
    CHECK(job.replicas.metric == "u");
    CHECK(job.replicas.rel_ci95 == 0.01);
    CHECK(job.replicas.ci95 == 0);
  }
  SECTION("min defaults to max when max is below 10") {
    const JobSpec job = parse(
        job_text("replicas = { max = 5, until = { metric = \"u\", rel_ci95 = 0.01 } }", "", ""));
    CHECK(job.replicas.min == 5);
    CHECK(job.replicas.max == 5);
  }
  SECTION("min is raised to 2: a CI needs two replicas") {
    const JobSpec job = parse(job_text(
        "replicas = { min = 1, max = 5, until = { metric = \"value\", ci95 = 1 } }", "", ""));
    CHECK(job.replicas.min == 2);
    CHECK(job.replicas.ci95 == 1.0);
  }
  SECTION("errors") {
    CHECK(parse_error(job_text("replicas = 0", "", "")).key() == "sweep.replicas");
    CHECK(parse_error(job_text("replicas = \"ten\"", "", "")).key() == "sweep.replicas");
    CHECK(parse_error(
              job_text("replicas = { min = 9, max = 5, until = { metric = \"value\", ci95 = 1 "
                       "} }",
                       "", ""))
              .key() == "sweep.replicas.max");
    const InputError m = parse_error(
        job_text("replicas = { min = 2, max = 5, until = { metric = \"availability\", ci95 = 1 } }",
                 "", ""));
    CHECK(m.key() == "sweep.replicas.until.metric");
    CHECK_THAT(m.expected(), Catch::Contains("value") && Catch::Contains("u"));
    CHECK(parse_error(
              job_text("replicas = { min = 2, max = 5, until = { metric = \"value\", ci95 = 1, "
                       "rel_ci95 = 0.1 } }",
                       "", ""))
              .key() == "sweep.replicas.until");
    CHECK(parse_error(
              job_text("replicas = { min = 2, max = 5, until = { metric = \"value\", ci95 = -1 } }",
                       "", ""))
              .key() == "sweep.replicas.until.ci95");
    // max below an explicit min.
    CHECK(parse_error(
              job_text("replicas = { min = 8, max = 5, until = { metric = \"value\", ci95 = 1 } }",
                       "", ""))
              .key() == "sweep.replicas.max");
    CHECK(parse_error(
              job_text("replicas = { min = 5, until = { metric = \"value\", ci95 = 1 } }", "", ""))
              .key() == "sweep.replicas");
  }
}

TEST_CASE("job: bad input names file, line, key and value", "[job]") {
  SECTION("unknown parameter, with a suggestion") {
    const InputError e = parse_error(job_text("", "sdd = 2.0", ""));
    CHECK(e.file() == "jobs/test.toml");
    CHECK(e.line() == 6);
    CHECK(e.key() == "params.sdd");
    CHECK(e.value() == "2");
    CHECK_THAT(e.expected(), Catch::Contains("did you mean \"sd\""));
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("jobs/test.toml:6: params.sdd = 2"));
  }
  SECTION("unknown [sweep] key, with a suggestion") {
    const InputError e = parse_error("[sweep]\nmodel = \"synthetic\"\nsede = 3\n");
    CHECK(e.line() == 3);
    CHECK(e.key() == "sweep.sede");
    CHECK_THAT(e.expected(), Catch::Contains("did you mean \"seed\""));
  }
  SECTION("unknown top-level table") {
    const InputError e = parse_error("[sweep]\nmodel = \"synthetic\"\n[param]\nsd = 1\n");
    CHECK(e.key() == "param");
    CHECK_THAT(e.expected(), Catch::Contains("did you mean \"params\""));
  }
  SECTION("unknown model") {
    const InputError e = parse_error("[sweep]\nmodel = \"synthetc\"\n");
    CHECK(e.key() == "sweep.model");
    CHECK(e.line() == 2);
    CHECK_THAT(e.expected(), Catch::Contains("did you mean \"synthetic\""));
  }
  SECTION("missing [sweep] or model") {
    CHECK_THROWS_AS(parse("[params]\nsd = 1\n"), InputError);
    CHECK(parse_error("[sweep]\nseed = 3\n").key() == "sweep.model");
  }
  SECTION("wrong type") {
    const InputError t = parse_error(job_text("", "mean = \"big\"", ""));
    CHECK(t.key() == "params.mean");
    CHECK(t.value() == "\"big\"");
    CHECK_THAT(t.expected(), Catch::Contains("expected a number, got a string"));
    CHECK(parse_error("[sweep]\nmodel = \"synthetic\"\nseed = \"x\"\n").key() == "sweep.seed");
  }
  SECTION("out of range") {
    const InputError e = parse_error(job_text("", "sd = -0.5", ""));
    CHECK(e.key() == "params.sd");
    CHECK(e.line() == 6);
    CHECK_THAT(e.expected(), Catch::Contains("between 0 and"));
    // On an axis the error names the axis key and the line of the axis.
    const InputError a = parse_error(job_text("", "", "sd = [1.0, -2.0]"));
    CHECK(a.key() == "axes.sd");
    CHECK(a.line() == 8);
  }
  SECTION("bad duration unit") {
    const InputError e = parse_error(job_text("", "work = \"5 parsecs\"", ""));
    CHECK(e.key() == "params.work");
    CHECK(e.value() == "\"5 parsecs\"");
  }
  SECTION("empty axis") {
    CHECK(parse_error(job_text("", "", "sd = []")).key() == "axes.sd");
  }
  SECTION("a parameter both fixed and swept") {
    CHECK(parse_error(job_text("", "sd = 1.0", "sd = [1.0, 2.0]")).key() == "axes.sd");
  }
  SECTION("not TOML") {
    const InputError e = parse_error("[sweep\nmodel = 1\n");
    CHECK_THAT(std::string(e.what()), Catch::Contains("jobs/test.toml"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("not valid TOML"));
  }
}

TEST_CASE("job: job_differences names each changed key, and ignores comments", "[job]") {
  const std::string base = job_text("replicas = 4", "sd = 1.5", "mean = [1.0, 2.0]");
  const JobSpec before = parse(base);
  SECTION("same job, other comments and layout") {
    const JobSpec now = parse("# a comment\n" + base + "\n# trailing\n");
    CHECK(job_differences(before, now).empty());
  }
  SECTION("a fixed parameter") {
    const auto d =
        job_differences(before, parse(job_text("replicas = 4", "sd = 2.5", "mean = [1.0, 2.0]")));
    REQUIRE(d.size() == 1);
    CHECK_THAT(d[0],
               Catch::StartsWith("params.sd:") && Catch::Contains("1.5") && Catch::Contains("2.5"));
  }
  SECTION("an axis") {
    const auto d =
        job_differences(before, parse(job_text("replicas = 4", "sd = 1.5", "mean = [1.0, 3.0]")));
    REQUIRE(d.size() == 1);
    CHECK_THAT(d[0], Catch::StartsWith("axes.mean"));
  }
  SECTION("seed and replicas") {
    const auto d =
        job_differences(before, parse(job_text("replicas = 5", "sd = 1.5", "mean = [1.0, 2.0]")));
    REQUIRE(d.size() == 1);
    CHECK_THAT(d[0], Catch::StartsWith("sweep.replicas"));
    const JobSpec seeded = parse(
        "[sweep]\nmodel = \"synthetic\"\nseed = 8\nreplicas = 4\n[params]\nsd = 1.5\n[axes]\nmean "
        "= [1.0, 2.0]\n");
    const auto s = job_differences(before, seeded);
    REQUIRE(s.size() == 1);
    CHECK_THAT(s[0], Catch::StartsWith("sweep.seed: 7 -> 8"));
  }
  SECTION("a default written out explicitly changes nothing") {
    const JobSpec now =
        parse(job_text("replicas = 4", "sd = 1.5\nwork = \"10ms\"", "mean = [1.0, 2.0]"));
    CHECK(job_differences(before, now).empty());
  }
  SECTION("a parameter moved from [params] to an axis") {
    const auto d = job_differences(
        before, parse(job_text("replicas = 4", "", "mean = [1.0, 2.0]\nsd = [1.5]")));
    REQUIRE(d.size() == 2);
    CHECK_THAT(d[0], Catch::StartsWith("params.sd:"));
    CHECK_THAT(d[1], Catch::StartsWith("axes.sd"));
  }
}

TEST_CASE("job: nearest suggests a close candidate, or nothing", "[job]") {
  const std::vector<std::string> keys{"model", "seed", "output", "replicas", "description"};
  CHECK(nearest("sede", keys) == "seed");
  CHECK(nearest("replicsa", keys) == "replicas");
  CHECK(nearest("OUTPUT", keys) == "output");  // case does not count
  CHECK(nearest("outptu", keys) == "output");
  CHECK(nearest("zzzzzz", keys).empty());
  CHECK(nearest("seed", {}).empty());
  CHECK(nearest("descriptoin", keys) == "description");
}
