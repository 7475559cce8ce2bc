// Tests of the availability profile (policy/availability_profile.hpp) and of conservative
// backfilling on it: random operations checked against a plain sorted-vector profile (the
// model), and whole simulations checked, reservation by reservation, against conservative
// backfilling written directly on that model (every reservation recomputed on each call).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/availability_profile.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/sim/engine.hpp"
#include "sim_support.hpp"

using namespace faultsweep;

namespace {

constexpr double kNever = policy::AvailabilityProfile::kNever;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The model: steps in two vectors, free_[k] nodes from time_[k] to time_[k + 1].
struct VectorProfile {
  std::vector<double> time_;
  std::vector<std::int32_t> free_;

  void reset(double t0, std::int32_t nodes) {
    time_.assign(1, t0);
    free_.assign(1, nodes);
  }
  std::size_t split_at(double t) {
    const auto it = std::upper_bound(time_.begin(), time_.end(), t);
    const auto idx = static_cast<std::size_t>(it - time_.begin());
    if (time_[idx - 1] == t) return idx - 1;
    time_.insert(it, t);
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(idx), free_[idx - 1]);
    return idx;
  }
  void add(double begin, double end, std::int32_t nodes) {
    if (!(end > begin)) return;
    const std::size_t k = split_at(begin);
    if (end != kNever) split_at(end);
    for (std::size_t m = k; m < time_.size() && time_[m] < end; ++m) free_[m] += nodes;
  }
  bool fits(double begin, double end, std::int32_t nodes) const {
    const auto first = static_cast<std::size_t>(
        std::upper_bound(time_.begin(), time_.end(), begin) - time_.begin() - 1);
    for (std::size_t m = first; m < time_.size(); ++m) {
      if (m > first && time_[m] >= end) break;
      if (free_[m] < nodes) return false;
    }
    return true;
  }
  // From `from` on (the profile's steps before it ignored, its own step starting at from).
  double earliest(double from, std::int32_t nodes, double wall) const {
    std::vector<double> t{from};
    std::vector<std::int32_t> f{free_[static_cast<std::size_t>(
        std::upper_bound(time_.begin(), time_.end(), from) - time_.begin() - 1)]};
    for (std::size_t m = 0; m < time_.size(); ++m)
      if (time_[m] > from) {
        t.push_back(time_[m]);
        f.push_back(free_[m]);
      }
    std::size_t k = 0;
    for (std::size_t m = 0; m < t.size();) {
      if (f[m] < nodes) {
        k = ++m;
        continue;
      }
      if (m + 1 == t.size() || t[m + 1] >= t[k] + wall) break;
      ++m;
    }
    return k < t.size() ? t[k] : kNever;
  }
};

struct Counts {
  std::int64_t checks = 0, found_earlier = 0;
};

// `reps` profiles, each under `ops` random additions at integer times in [t0, t0 + span)
// (many ties), each addition followed by queries checked against the model. Now and then t0
// moves on and the profile forgets the steps before it (the model keeps them: no answer from
// t0 on may change).
Counts check_random_profiles(Engine& rng, int reps, int ops, double span) {
  const auto pick_time = [&](double lo) { return lo + std::floor(uniform01(rng) * span); };
  Counts c;
  auto& [checks, found_earlier] = c;
  for (int rep = 0; rep < reps; ++rep) {
    policy::AvailabilityProfile p;
    VectorProfile m;
    double t0 = std::floor(uniform01(rng) * 10);
    const auto cap = static_cast<std::int32_t>(1 + uniform01(rng) * 12);
    p.reset(t0, cap);
    m.reset(t0, cap);
    for (int op = 0; op < ops; ++op) {
      if (uniform01(rng) < 0.05) {
        t0 += std::floor(uniform01(rng) * span / 4);
        p.forget_before(t0);
      }
      const double b = pick_time(t0);
      const double e = uniform01(rng) < 0.1 ? kNever : pick_time(t0);
      const auto n = static_cast<std::int32_t>(uniform01(rng) * 7) - 3;
      p.add(b, e, n);
      m.add(b, e, n);
      const double from = pick_time(t0);
      const double wall = std::floor(uniform01(rng) * (span * 0.375)) - 2;  // some of no length
      const auto need = static_cast<std::int32_t>(uniform01(rng) * 8);
      INFO("rep " << rep << " op " << op);
      CHECK(p.at(from) ==
            m.free_[static_cast<std::size_t>(
                std::upper_bound(m.time_.begin(), m.time_.end(), from) - m.time_.begin() - 1)]);
      CHECK(p.fits(b, e, need) == m.fits(b, e, need));
      CHECK(p.fits(from, from + wall, need) == m.fits(from, from + wall, need));
      const double at = m.earliest(from, need, wall);
      REQUIRE(p.earliest(from, need, wall) == at);
      ++checks;
      if (at == kNever || !(wall > 0)) continue;
      // Hold [at, at + wall), then give capacity back around it: earliest_before must find
      // what giving the slot back and asking earliest would find, when it is before at.
      p.add(at, at + wall, -need);
      m.add(at, at + wall, -need);
      const double gb = pick_time(t0), ge = pick_time(t0);
      const auto gain = static_cast<std::int32_t>(uniform01(rng) * 4);
      p.add(gb, ge, gain);
      m.add(gb, ge, gain);
      VectorProfile back = m;
      back.add(at, at + wall, need);
      const double expect = back.earliest(from, need, wall);
      CHECK(p.earliest_before(from, need, wall, at, at) == (expect < at ? expect : kNever));
      const double before = pick_time(t0);  // starts asked for only before this
      CHECK(p.earliest_before(from, need, wall, at, std::min(at, before)) ==
            (expect < std::min(at, before) ? expect : kNever));
      if (expect < at) ++found_earlier;
    }
  }
  return c;
}

}  // namespace

TEST_CASE("availability profile: random operations agree with a sorted-vector profile",
          "[queue][profile]") {
  Engine rng = make_stream(424242, 0, Purpose::tiebreaks, "availability-profile");
  const Counts c = check_random_profiles(rng, 300, 60, 40);
  CHECK(c.checks > 15000);
  CHECK(c.found_earlier > 200);  // not vacuous: the gains often open an earlier start
}

TEST_CASE("availability profile: long profiles agree with the model", "[queue][profile]") {
  Engine rng = make_stream(424242, 0, Purpose::tiebreaks, "availability-profile-long");
  const Counts c = check_random_profiles(rng, 4, 1500, 1500);
  CHECK(c.checks > 5000);
  CHECK(c.found_earlier > 100);
}

namespace {

// Conservative backfilling written on the model, every reservation recomputed on every call:
// what ConservativeBackfill must reproduce exactly.
class ModelConservative final : public policy::QueuePolicy {
 public:
  std::string_view name() const override { return "conservative"; }
  bool keeps_state() const override { return true; }
  void select(const policy::QueueState& s, std::vector<std::int32_t>& start) override {
    if (s.waiting.empty()) return;
    if (reserved_.size() < s.info.size()) reserved_.resize(s.info.size(), kNaN);
    // A release due by now is a job running past its estimate: its nodes come back at the
    // first instant after now.
    p_.reset(s.now_s, s.free_nodes);
    for (const policy::Release& r : s.releases->releases())
      p_.add(std::max(r.time_s, std::nextafter(s.now_s, kNever)), kNever, r.nodes);
    for (const std::int32_t job : s.waiting) {
      double& at = reserved_[static_cast<std::size_t>(job)];
      if (std::isnan(at)) continue;
      const policy::JobInfo& j = s.info[static_cast<std::size_t>(job)];
      at = std::max(at, s.now_s);
      if (p_.fits(at, at + j.est_wall_s, j.size))
        p_.add(at, at + j.est_wall_s, -j.size);
      else
        at = kNaN;
    }
    for (std::size_t pos = 0; pos < s.waiting.size(); ++pos) {
      const std::int32_t job = s.waiting[pos];
      const policy::JobInfo& j = s.info[static_cast<std::size_t>(job)];
      double& at = reserved_[static_cast<std::size_t>(job)];
      if (!std::isnan(at)) p_.add(at, at + j.est_wall_s, j.size);
      at = p_.earliest(s.now_s, j.size, j.est_wall_s);
      REQUIRE(at != kNever);
      p_.add(at, at + j.est_wall_s, -j.size);
      trace.push_back({job, at, s.now_s});
      if (at == s.now_s) {
        start.push_back(static_cast<std::int32_t>(pos));
        at = kNaN;
      }
    }
  }
  std::vector<policy::ConservativeBackfill::Given> trace;

 private:
  VectorProfile p_;
  std::vector<double> reserved_;
};

// Bursty arrivals, integer times (ties), estimates exact (reservations at release times) or
// up to 4x over (jobs end early and reservations compress); sizes up to the machine. With
// `overrun`, one job in five outlives its estimate (down to a tenth of its run time).
std::vector<workload::Job> tricky_workload(Engine& rng, int nodes, bool overrun = false) {
  std::vector<workload::Job> jobs;
  double t = 0;
  const int n_jobs = 20 + static_cast<int>(uniform01(rng) * 60);
  for (int i = 0; i < n_jobs; ++i) {
    t += uniform01(rng) < 0.3 ? 0 : std::floor(-15 * std::log(uniform01(rng)));
    const double run = 1 + std::floor(-60 * std::log(uniform01(rng)));
    double est = uniform01(rng) < 0.4 ? run : std::ceil(run * (1 + 3 * uniform01(rng)));
    if (overrun && uniform01(rng) < 0.2) est = std::ceil(run * (0.1 + 0.8 * uniform01(rng)));
    jobs.push_back(testing::job(i, t, run, 1 + static_cast<int>(uniform01(rng) * nodes), est));
  }
  return jobs;
}

// Runs `reps` random workloads (failures in two of three) with ConservativeBackfill and with
// the model, checking every reservation and every job's start and end; returns how many
// reservations were given.
std::int64_t check_against_model(Engine& rng, int reps, bool overrun) {
  const policy::OnFailure rules[] = {policy::OnFailure::requeue_head,
                                     policy::OnFailure::requeue_original,
                                     policy::OnFailure::wait_repair};
  std::int64_t reservations = 0;
  for (int rep = 0; rep < reps; ++rep) {
    const int nodes = 2 + static_cast<int>(uniform01(rng) * 14);
    const std::vector<workload::Job> jobs = tricky_workload(rng, nodes, overrun);
    std::vector<failures::FailureEvent> fails;
    if (rep % 3 != 0) fails = testing::random_failures(rng, nodes);
    sim::SimConfig cfg;
    cfg.nodes = nodes;
    cfg.on_failure = rules[rep % 3];
    std::vector<policy::ConservativeBackfill::Given> got;
    policy::ConservativeBackfill cons;
    cons.set_reservation_trace(&got);
    ModelConservative model;
    std::vector<sim::JobRecord> a, b;
    for (policy::QueuePolicy* q :
         {static_cast<policy::QueuePolicy*>(&cons), static_cast<policy::QueuePolicy*>(&model)}) {
      testing::ListFailures source{fails};
      policy::FirstFit ff;
      sim::Simulation s(cfg, jobs, source, *q, ff);
      s.run();
      (q == &cons ? a : b) = s.jobs();
    }
    INFO("rep " << rep);
    REQUIRE(got.size() == model.trace.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      INFO("reservation " << k);
      REQUIRE(got[k].job == model.trace[k].job);
      REQUIRE(got[k].at_s == model.trace[k].at_s);
      REQUIRE(got[k].now_s == model.trace[k].now_s);
    }
    for (std::size_t j = 0; j < a.size(); ++j) {
      CHECK(a[j].first_start_s == b[j].first_start_s);
      CHECK(a[j].finish_s == b[j].finish_s);
    }
    reservations += static_cast<std::int64_t>(got.size());
  }
  return reservations;
}

}  // namespace

TEST_CASE("conservative: the kept profile gives every reservation the model gives",
          "[queue][conservative][profile]") {
  Engine rng = make_stream(20261126, 0, Purpose::tiebreaks, "conservative-model");
  CHECK(check_against_model(rng, 240, false) > 100000);
}

TEST_CASE("conservative: jobs running past their estimates, against the model",
          "[queue][conservative][profile][overrun]") {
  Engine rng = make_stream(20261126, 0, Purpose::tiebreaks, "conservative-overrun");
  CHECK(check_against_model(rng, 120, true) > 40000);
}

TEST_CASE("conservative: a job running past its estimate keeps its nodes until it ends",
          "[queue][conservative][overrun]") {
  // 2 nodes (id submit run size estimate): 0 0 100 1 10, 1 5 50 2 50, 2 20 5 1 5. Job 0
  // outlives its estimate (only the library can ask this; SWF raises low estimates). Job 1 is
  // reserved at 10, job 0's estimated end; when job 2 arrives at 20 job 0 still holds its node,
  // expected back any moment: job 1 cannot start then, and job 2 would delay it. Job 1 runs
  // 100-150 (from job 0's end) and job 2 150-155, as with EASY.
  const std::vector<workload::Job> jobs{
      testing::job(0, 0, 100, 1, 10), testing::job(1, 5, 50, 2, 50), testing::job(2, 20, 5, 1, 5)};
  sim::SimConfig cfg;
  cfg.nodes = 2;
  for (const char* queue : {"conservative", "easy"}) {
    INFO(queue);
    const testing::Run r = testing::simulate(cfg, jobs, {}, queue);
    CHECK(r.jobs[1].first_start_s == 100);
    CHECK(r.jobs[2].first_start_s == 150);
    CHECK(r.m.makespan_s == 155);
  }
}
