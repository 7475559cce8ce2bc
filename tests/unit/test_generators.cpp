// Synthetic workload generators, load scaling and the workload factory.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/models/model.hpp"
#include "faultsweep/workload/factory.hpp"
#include "faultsweep/workload/generators.hpp"
#include "faultsweep/workload/load.hpp"
#include "input_support.hpp"

using namespace faultsweep;
using namespace faultsweep::workload;

namespace {

struct Engines {
  Engine a, r, s;
  explicit Engines(std::uint64_t seed)
      : a(make_stream(seed, 0, Purpose::arrivals, "gen")),
        r(make_stream(seed, 0, Purpose::runtimes, "gen")),
        s(make_stream(seed, 0, Purpose::sizes, "gen")) {}
};

void check_properties(const Workload& w, int nodes, double estimate_factor = 1.0) {
  REQUIRE(!w.jobs.empty());
  CHECK(w.jobs.front().submit_s == 0);
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    const Job& j = w.jobs[i];
    REQUIRE(j.runtime_s > 0);
    REQUIRE(j.size >= 1);
    REQUIRE(j.size <= nodes);
    REQUIRE(j.estimate_s == Approx(j.runtime_s * estimate_factor).epsilon(1e-15));
    if (i > 0) REQUIRE(w.jobs[i - 1].submit_s <= j.submit_s);
  }
}

bool same_jobs(const Workload& x, const Workload& y) {
  if (x.jobs.size() != y.jobs.size()) return false;
  for (std::size_t i = 0; i < x.jobs.size(); ++i) {
    const Job &a = x.jobs[i], &b = y.jobs[i];
    if (a.id != b.id || a.submit_s != b.submit_s || a.runtime_s != b.runtime_s ||
        a.size != b.size || a.estimate_s != b.estimate_s)
      return false;
  }
  return true;
}

// Mean of the gaps, run times and sizes, with their standard errors from the sample variance.
struct Moments {
  double gap = 0, gap_se = 0, runtime = 0, runtime_se = 0, size = 0, size_se = 0;
};
Moments moments(const Workload& w) {
  const auto stat = [&](auto f, std::size_t from, double& mean, double& se) {
    double s = 0, s2 = 0;
    const double n = static_cast<double>(w.jobs.size() - from);
    for (std::size_t i = from; i < w.jobs.size(); ++i) {
      const double v = f(i);
      s += v;
      s2 += v * v;
    }
    mean = s / n;
    se = std::sqrt((s2 / n - mean * mean) / n);
  };
  Moments m;
  stat([&](std::size_t i) { return w.jobs[i].submit_s - w.jobs[i - 1].submit_s; }, 1, m.gap,
       m.gap_se);
  stat([&](std::size_t i) { return w.jobs[i].runtime_s; }, 0, m.runtime, m.runtime_se);
  stat([&](std::size_t i) { return static_cast<double>(w.jobs[i].size); }, 0, m.size, m.size_se);
  return m;
}

models::RunContext context(std::uint64_t replica = 0) {
  models::RunContext ctx;
  ctx.master_seed = 7;
  ctx.replica = replica;
  ctx.base_dir = FAULTSWEEP_SOURCE_DIR;
  return ctx;
}

}  // namespace

TEST_CASE("FARS generator: exponential gaps, run times and sizes with the paper's means",
          "[workload]") {
  FarsParams p;
  p.jobs = 100000;
  Engines e(1);
  const Workload w = generate_fars(p, 512, e.a, e.r, e.s);
  check_properties(w, 512);
  CHECK(w.machine_nodes == 512);
  const Moments m = moments(w);
  CHECK(std::abs(m.gap - 1000.0) < 4 * m.gap_se);
  CHECK(std::abs(m.runtime - 1500.0) < 4 * m.runtime_se);
  // ceil(Exp(10)) is geometric on {1, 2, ...} with mean 1 / (1 - e^(-1/10)) = 10.508.
  CHECK(std::abs(m.size - 1.0 / -std::expm1(-0.1)) < 4 * m.size_se);

  // A machine narrower than typical sizes: truncation keeps every size in [1, nodes].
  Engines e2(2);
  p.jobs = 2000;
  p.mean_size = 8;
  check_properties(generate_fars(p, 8, e2.a, e2.r, e2.s), 8);
}

TEST_CASE("generators are deterministic for fixed engines and differ across seeds", "[workload]") {
  LublinParams lp;
  lp.jobs = 500;
  ZhangParams zp;
  zp.jobs = 500;
  FarsParams fp;
  fp.jobs = 500;
  Engines a(3), b(3), b2(3), c(4);
  CHECK(
      same_jobs(generate_lublin(lp, 256, a.a, a.r, a.s), generate_lublin(lp, 256, b.a, b.r, b.s)));
  CHECK(!same_jobs(generate_lublin(lp, 256, b2.a, b2.r, b2.s),
                   generate_lublin(lp, 256, c.a, c.r, c.s)));
  Engines d(5), f(5);
  CHECK(same_jobs(generate_zhang(zp, 320, d.a, d.r, d.s), generate_zhang(zp, 320, f.a, f.r, f.s)));
  Engines g(6), h(6);
  CHECK(same_jobs(generate_fars(fp, 512, g.a, g.r, g.s), generate_fars(fp, 512, h.a, h.r, h.s)));
  // Streams are separate: another size model leaves arrivals and run times untouched.
  Engines i(7), k(7);
  LublinParams lp2 = lp;
  lp2.size.serial_prob = 0.9;
  const Workload x = generate_lublin(lp, 256, i.a, i.r, i.s);
  const Workload y = generate_lublin(lp2, 256, k.a, k.r, k.s);
  for (std::size_t n = 0; n < x.jobs.size(); ++n) {
    REQUIRE(x.jobs[n].submit_s == y.jobs[n].submit_s);
    REQUIRE(x.jobs[n].runtime_s == y.jobs[n].runtime_s);
  }
}

TEST_CASE("Lublin generator: serial fraction, power-of-two sizes, hyperexponential run times",
          "[workload]") {
  LublinParams p;
  p.jobs = 100000;
  Engines e(8);
  const Workload w = generate_lublin(p, 256, e.a, e.r, e.s);
  check_properties(w, 256);
  std::int64_t serial = 0, pow2 = 0;
  for (const Job& j : w.jobs) {
    serial += j.size == 1;
    pow2 += j.size > 1 && (j.size & (j.size - 1)) == 0;
  }
  const double n = static_cast<double>(w.jobs.size());
  CHECK(std::abs(serial / n - 0.24) < 4 * std::sqrt(0.24 * 0.76 / n));
  // At least pow2_prob of the parallel jobs are powers of two (more land there by rounding);
  // lublin_256.swf has 81.5 %.
  CHECK(pow2 / (n - serial) > 0.75);
  CHECK(pow2 / (n - serial) < 0.86);
  const Moments m = moments(w);
  CHECK(std::abs(m.gap - 770.7) < 4 * m.gap_se);
  const double mean_rt = 0.8544 * 2845.6 + (1 - 0.8544) * 16702.0;
  CHECK(std::abs(m.runtime - mean_rt) < 4 * m.runtime_se);
}

TEST_CASE("generators on small and odd-sized machines keep 1 <= size <= nodes", "[workload]") {
  for (int nodes : {1, 2, 3, 5, 100, 384}) {
    INFO("nodes " << nodes);
    LublinParams lp;
    lp.jobs = 3000;
    ZhangParams zp;
    zp.jobs = 3000;
    FarsParams fp;
    fp.jobs = 3000;
    fp.mean_size = std::min(10.0, nodes / 2.0);
    Engines a(20), b(21), c(22);
    check_properties(generate_lublin(lp, nodes, a.a, a.r, a.s), nodes);
    check_properties(generate_zhang(zp, nodes, b.a, b.r, b.s), nodes);
    check_properties(generate_fars(fp, nodes, c.a, c.r, c.s), nodes);
  }
  // On 384 nodes the power-of-two draws above 256 become 256, never 384 or 512.
  LublinParams lp;
  lp.jobs = 20000;
  lp.size.serial_prob = 0;
  lp.size.pow2_prob = 1;
  Engines e(23);
  for (const Job& j : generate_lublin(lp, 384, e.a, e.r, e.s).jobs)
    REQUIRE((j.size & (j.size - 1)) == 0);
}

TEST_CASE("Zhang generator: hyper-Erlang run times", "[workload]") {
  ZhangParams p;
  p.jobs = 100000;
  Engines e(9);
  const Workload w = generate_zhang(p, 320, e.a, e.r, e.s);
  check_properties(w, 320);
  const Moments m = moments(w);
  CHECK(std::abs(m.runtime - 4140.0) < 4 * m.runtime_se);
  CHECK(std::abs(m.gap - 900.0) < 4 * m.gap_se);
  p.estimate_factor = 2.5;
  p.jobs = 100;
  Engines e2(9);
  check_properties(generate_zhang(p, 320, e2.a, e2.r, e2.s), 320, 2.5);
  p.runtime_probs = {0.5, 0.6, 0.1};
  CHECK_THROWS_AS(generate_zhang(p, 320, e2.a, e2.r, e2.s), InputError);
}

TEST_CASE("load scaling hits its target exactly, by run times or by inter-arrival times",
          "[workload]") {
  FarsParams p;
  p.jobs = 3000;
  for (auto how : {LoadScale::runtimes, LoadScale::interarrivals}) {
    for (double target : {0.1, 0.7, 0.95, 1.3}) {
      Engines e(10);
      Workload w = generate_fars(p, 512, e.a, e.r, e.s);
      const Workload before = w;
      scale_to_load(w.jobs, 512, target, how);
      CHECK(offered_load(w.jobs, 512) == Approx(target).epsilon(1e-12));
      check_properties(w, 512);
      // The other quantity is untouched.
      for (std::size_t i = 0; i < w.jobs.size(); ++i) {
        if (how == LoadScale::runtimes)
          REQUIRE(w.jobs[i].submit_s == before.jobs[i].submit_s);
        else
          REQUIRE(w.jobs[i].runtime_s == before.jobs[i].runtime_s);
      }
    }
  }
  // The definition: sum size * runtime / (nodes * span).
  std::vector<Job> jobs(2);
  jobs[0].size = 2, jobs[0].runtime_s = 10, jobs[1].submit_s = 100, jobs[1].size = 4,
  jobs[1].runtime_s = 5;
  CHECK(offered_load(jobs, 10) == Approx((20.0 + 20.0) / (10 * 100)));
  std::vector<Job> one(1);
  CHECK_THROWS_AS(offered_load(one, 10), InputError);
  CHECK_THROWS_AS(scale_to_load(jobs, 10, -1, LoadScale::runtimes), InputError);
}

TEST_CASE("workload factory: generated sources, streams and load", "[workload]") {
  Params t;
  t.set("source", std::string("lublin"));
  t.set("jobs", std::int64_t{2000});
  t.set("target_load", 0.8);
  validate_workload(t, ".");
  const Workload w = make_workload(t, 256, context());
  check_properties(w, 256);
  CHECK(w.jobs.size() == 2000);
  CHECK(offered_load(w.jobs, 256) == Approx(0.8).epsilon(1e-12));
  // Same replica, same jobs (common random numbers); another replica, other jobs.
  CHECK(same_jobs(w, make_workload(t, 256, context())));
  CHECK(!same_jobs(w, make_workload(t, 256, context(1))));

  // Another load gives the same jobs with run times scaled by one factor (paired load sweeps).
  Params t2 = t;
  t2.set("target_load", 0.4);
  const Workload w2 = make_workload(t2, 256, context());
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    REQUIRE(w2.jobs[i].submit_s == w.jobs[i].submit_s);
    REQUIRE(w2.jobs[i].runtime_s == Approx(w.jobs[i].runtime_s * 0.5).epsilon(1e-12));
  }

  // FARS defaults to the paper's 70 % load (§5.2.1), unless scale = "none".
  Params f;
  f.set("source", std::string("fars"));
  f.set("jobs", std::int64_t{1000});
  const Workload fw = make_workload(f, 512, context());
  CHECK(offered_load(fw.jobs, 512) == Approx(0.7).epsilon(1e-12));
  f.set("scale", std::string("none"));
  const Workload raw = make_workload(f, 512, context());
  CHECK(offered_load(raw.jobs, 512) < 0.1);

  Params z;
  z.set("source", std::string("zhang"));
  z.set("jobs", std::int64_t{300});
  z.set("runtime_order", std::int64_t{3});
  z.set("runtime_probs", std::string("0.5, 0.5"));
  z.set("runtime_means", std::string("10min, 2h"));
  z.set("scale", std::string("interarrivals"));
  z.set("target_load", 0.5);
  validate_workload(z, ".");
  const Workload zw = make_workload(z, 320, context());
  check_properties(zw, 320);
  CHECK(offered_load(zw.jobs, 320) == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("workload factory: errors name the sub-key", "[workload]") {
  const auto key_of = [](const Params& t) {
    return testing::thrown_key_expected([&] { validate_workload(t, FAULTSWEEP_SOURCE_DIR); });
  };
  Params t;
  CHECK_THAT(key_of(t), Catch::StartsWith("source |"));
  t.set("source", std::string("lublin"));
  t.set("mean_runtime", 10.0);  // a FARS key
  CHECK_THAT(key_of(t), Catch::StartsWith("mean_runtime | a key of a \"lublin\" workload:") &&
                            Catch::Contains("serial_prob"));
  t = {};
  t.set("source", std::string("swf"));
  t.set("file", std::string("tests/data/swf/missing.swf"));
  CHECK_THAT(key_of(t), Catch::StartsWith("file |"));
  t.set("file", std::string("tests/data/swf/basic.swf"));
  CHECK(key_of(t) == "no error");
  t.set("size", std::string("biggest"));
  CHECK_THAT(key_of(t), Catch::StartsWith("size | one of \"requested\", \"allocated\""));
  t = {};
  t.set("source", std::string("fars"));
  t.set("jobs", std::int64_t{0});
  CHECK_THAT(key_of(t), Catch::StartsWith("jobs |"));
  t.set("jobs", std::int64_t{10});
  t.set("target_load", -0.5);
  CHECK_THAT(key_of(t), Catch::StartsWith("target_load |"));
  t = {};
  t.set("source", std::string("zhang"));
  t.set("runtime_probs", std::string("0.5, x"));
  CHECK_THAT(key_of(t), Catch::StartsWith("runtime_probs |"));
  t.set("runtime_probs", std::string("0.5, 0.5"));  // three means by default
  CHECK_THAT(key_of(t), Catch::StartsWith("runtime_means |"));
  t = {};
  t.set("source", std::string("lublin"));
  t.set("pow2_prob", 1.5);
  CHECK_THAT(key_of(t), Catch::StartsWith("pow2_prob |"));
}

TEST_CASE("workload factory: SWF traces with windows, options and the cache", "[workload][swf]") {
  Params t;
  t.set("source", std::string("swf"));
  t.set("file", std::string("tests/data/swf/basic.swf.gz"));
  const Workload all = make_workload(t, 64, context());
  CHECK(all.jobs.size() == 5);
  CHECK(all.machine_nodes == 64);
  // The machine of the point drops wider jobs.
  CHECK(make_workload(t, 16, context()).jobs.size() == 3);  // sizes 4, 16, 8
  t.set("skip_jobs", std::int64_t{2});
  t.set("max_jobs", std::int64_t{2});
  const Workload win = make_workload(t, 64, context());
  REQUIRE(win.jobs.size() == 2);
  CHECK(win.jobs[0].id == 3);
  CHECK(win.jobs[0].submit_s == 0);  // the window starts at 0
  CHECK(win.jobs[1].submit_s == 200);
  t.set("skip_jobs", std::int64_t{5});
  CHECK_THROWS_AS(make_workload(t, 64, context()), InputError);

  Params s;
  s.set("source", std::string("swf"));
  s.set("file", std::string("tests/data/swf/basic.swf"));
  s.set("estimate", std::string("runtime"));
  s.set("target_load", 0.5);
  const Workload sw = make_workload(s, 64, context());
  CHECK(offered_load(sw.jobs, 64) == Approx(0.5).epsilon(1e-12));
  for (const Job& j : sw.jobs) CHECK(j.estimate_s == Approx(j.runtime_s));
  // The cache hands later replicas the same parse; scaling copies, never touches it.
  CHECK(same_jobs(sw, make_workload(s, 64, context(3))));

  Params bad;
  bad.set("source", std::string("swf"));
  bad.set("file", std::string("tests/data/swf/bad.swf"));
  CHECK(make_workload(bad, 8, context()).stats.bad_lines == 4);
  bad.set("bad_lines", std::string("fail"));
  CHECK_THROWS_AS(make_workload(bad, 8, context()), InputError);
}

TEST_CASE("workload factory: replicas on several threads share one parse", "[workload][swf]") {
  Params t;
  t.set("source", std::string("swf"));
  t.set("file", std::string("tests/data/swf/basic.swf"));
  t.set("procs_per_node", std::int64_t{2});  // a cache entry no other test uses
  std::vector<Workload> out(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < out.size(); ++i)
    threads.emplace_back([&, i] { out[i] = make_workload(t, 64, context(i)); });
  for (auto& th : threads) th.join();
  for (const Workload& w : out) {
    CHECK(w.jobs.size() == 6);
    CHECK(same_jobs(w, out[0]));
  }
}
