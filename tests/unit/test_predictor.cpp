// Tests of the emulated FARS failure predictor (failures/predictor, FARS §5.1): over a long run
// its measured precision and recall equal the settings; false alarms fall on distinct nodes
// without a failure, uniformly; the fractional false alarm is rounded at random with the right
// mean; too few healthy nodes are counted as a shortfall; the perfect and "none" predictors;
// bad precision / recall are rejected naming the key.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/failures/predictor.hpp"
#include "input_support.hpp"

using namespace faultsweep;
using failures::Predictor;
using testing::make_params;
using testing::thrown_key;
using testing::thrown_key_expected;

namespace {

// A random failing set of one interval: floor(Exp(mean 2.5)) draws of uniform node ids
// (repeats possible, as when a node fails twice in an interval).
void random_failing(Engine& rng, int nodes, std::vector<std::int32_t>& failing) {
  failing.clear();
  const int k = static_cast<int>(std::floor(-2.5 * std::log(uniform01(rng))));
  for (int i = 0; i < k; ++i)
    failing.push_back(static_cast<std::int32_t>(rng(static_cast<std::uint64_t>(nodes))));
}

}  // namespace

TEST_CASE("predictor: measured precision and recall equal the settings over a long run",
          "[predictor]") {
  // Seed 8, 512 nodes, 20,000 intervals of ~2.5 failures each, on the grid {0.1, 0.4, 0.7,
  // 1.0}^2: measured recall and precision within 0.01 of the settings (>= 7 standard errors for
  // recall at r = 0.1; precision is tighter). The grid spacing is 0.3, so a predictor that ignored
  // p or r (or confused them) would miss by >= 0.3 somewhere. No shortfall may occur, else the
  // measured precision would be biased up.
  const double grid[] = {0.1, 0.4, 0.7, 1.0};
  const int nodes = 512;
  std::vector<std::int32_t> failing, out;
  out.reserve(nodes);
  for (const double p : grid) {
    for (const double r : grid) {
      Predictor pred(nodes, p, r);
      Engine rng = make_stream(8, 0, Purpose::failures, "test");
      Engine eng = make_stream(8, 0, Purpose::predictor, "test");
      for (int i = 0; i < 20000; ++i) {
        random_failing(rng, nodes, failing);
        pred.predict(failing, eng, out);
      }
      const auto& c = pred.counts();
      INFO("precision " << p << " recall " << r << ": measured " << c.precision() << ", "
                        << c.recall() << " (tp " << c.true_positives << ", fp " << c.false_positives
                        << ", missed " << c.missed << ")");
      CHECK(c.intervals == 20000);
      CHECK(c.shortfall == 0);
      CHECK(c.true_positives + c.missed > 40000);
      CHECK(std::abs(c.recall() - r) < 0.01);
      CHECK(std::abs(c.precision() - p) < 0.01);
    }
  }
}

TEST_CASE("predictor: false alarms fall on distinct nodes without a failure, uniformly",
          "[predictor]") {
  // 20 nodes; nodes 3 and 7 fail (7 twice) in every interval; p = 0.5, r = 1: both are reported
  // first, in the order given, then exactly 2 false alarms on 2 distinct other nodes. Over
  // 50,000 intervals each of the 18 healthy nodes gets 2/18 of the alarms (5,556, sd ~70):
  // every count within 6 % (~5 sd) of that. Seed 9.
  const int nodes = 20;
  Predictor pred(nodes, 0.5, 1.0);
  Engine eng = make_stream(9, 0, Purpose::predictor, "test");
  const std::vector<std::int32_t> failing{3, 7, 7};
  std::vector<std::int32_t> out;
  std::vector<int> alarms(nodes, 0);
  const int intervals = 50000;
  for (int i = 0; i < intervals; ++i) {
    pred.predict(failing, eng, out);
    REQUIRE(out.size() == 4);
    REQUIRE(out[0] == 3);
    REQUIRE(out[1] == 7);
    REQUIRE(out[2] != out[3]);
    for (std::size_t k = 2; k < out.size(); ++k) {
      REQUIRE(out[k] != 3);
      REQUIRE(out[k] != 7);
      ++alarms[static_cast<std::size_t>(out[k])];
    }
  }
  const double expected = 2.0 * intervals / 18.0;
  for (int n = 0; n < nodes; ++n) {
    INFO("node " << n << ": " << alarms[static_cast<std::size_t>(n)] << " false alarms");
    if (n == 3 || n == 7)
      CHECK(alarms[static_cast<std::size_t>(n)] == 0);
    else
      CHECK(std::abs(alarms[static_cast<std::size_t>(n)] - expected) < 0.06 * expected);
  }
  CHECK(pred.counts().true_positives == 2 * intervals);  // node 7's repeat counts once
  CHECK(pred.counts().false_positives == 2 * intervals);
}

TEST_CASE("predictor: a fractional number of false alarms is rounded at random, exact in mean",
          "[predictor]") {
  // One true report at p = 0.4 asks for 1 x 0.6 / 0.4 = 1.5 false alarms: each interval gives
  // 1 or 2, 1.5 on average (within 0.01; sd of the mean 0.0025 over 40,000 intervals, seed 10).
  // Always rounding down (1) or up (2) would fail.
  Predictor pred(100, 0.4, 1.0);
  Engine eng = make_stream(10, 0, Purpose::predictor, "test");
  const std::vector<std::int32_t> failing{0};
  std::vector<std::int32_t> out;
  double total = 0;
  for (int i = 0; i < 40000; ++i) {
    pred.predict(failing, eng, out);
    REQUIRE((out.size() == 2 || out.size() == 3));
    total += static_cast<double>(out.size() - 1);
  }
  CHECK(std::abs(total / 40000 - 1.5) < 0.01);
}

TEST_CASE("predictor: too few healthy nodes for the false alarms are counted as a shortfall",
          "[predictor]") {
  // 4 nodes, 0 and 1 fail, p = 0.1, r = 1: 2 true reports want 2 x 0.9 / 0.1 = 18 false alarms;
  // only nodes 2 and 3 are healthy, so both are reported and 16 are short.
  Predictor pred(4, 0.1, 1.0);
  Engine eng = make_stream(11, 0, Purpose::predictor, "test");
  const std::vector<std::int32_t> failing{1, 0};
  std::vector<std::int32_t> out;
  pred.predict(failing, eng, out);
  REQUIRE(out.size() == 4);
  CHECK(out[0] == 1);
  CHECK(out[1] == 0);
  CHECK(std::set<std::int32_t>(out.begin() + 2, out.end()) == std::set<std::int32_t>{2, 3});
  CHECK(pred.counts().false_positives == 2);
  CHECK(pred.counts().shortfall == 16);
}

TEST_CASE("predictor: the smallest precision flags every healthy node, a tinier one is refused",
          "[predictor]") {
  // p = 1e-9: 2 x (1 - p) / p ~ 2e9 false alarms wanted, far more than the 2 healthy nodes.
  Predictor pred(4, 1e-9, 1.0);
  Engine eng = make_stream(11, 0, Purpose::predictor, "test");
  const std::vector<std::int32_t> failing{1, 0};
  std::vector<std::int32_t> out;
  pred.predict(failing, eng, out);
  CHECK(out.size() == 4);
  CHECK(pred.counts().false_positives == 2);
  CHECK(pred.counts().shortfall > 1999999990);
  // 1e-20 wanted 2e20 false alarms, beyond every integer type: it reported none (a perfect
  // predictor); now it is refused with the range.
  for (const double tiny : {1e-20, 9.9e-10, 1e-300})
    CHECK_THAT(thrown_key_expected([&] { Predictor(8, tiny, 0.5); }),
               Catch::StartsWith("predictor.precision | must be in [1e-09, 1]"));
}

TEST_CASE("predictor: the perfect predictor reports exactly the failing nodes, drawing nothing",
          "[predictor]") {
  Predictor pred(16, 1.0, 1.0);
  Engine eng = make_stream(12, 0, Purpose::predictor, "test");
  const Engine before = eng;
  std::vector<std::int32_t> out;
  const std::vector<std::int32_t> failing{5, 2, 5, 9};
  pred.predict(failing, eng, out);
  CHECK(out == std::vector<std::int32_t>{5, 2, 9});
  pred.predict({}, eng, out);
  CHECK(out.empty());
  CHECK(bool(eng == before));
  CHECK(pred.counts().precision() == 1.0);
  CHECK(pred.counts().recall() == 1.0);
  CHECK(pred.counts().intervals == 2);
}

TEST_CASE("predictor: \"none\" never reports and counts every failure as missed", "[predictor]") {
  Predictor pred = Predictor::none(16);
  Engine eng = make_stream(13, 0, Purpose::predictor, "test");
  std::vector<std::int32_t> out{1, 2};
  const std::vector<std::int32_t> failing{4, 4, 6};
  pred.predict(failing, eng, out);
  CHECK(out.empty());
  CHECK(pred.counts().missed == 2);
  CHECK(pred.counts().true_positives == 0);
  CHECK(std::isnan(pred.counts().precision()));
  CHECK(pred.counts().recall() == 0.0);
}

TEST_CASE("predictor: the same stream gives the same predictions", "[predictor]") {
  Predictor a(64, 0.3, 0.6), b(64, 0.3, 0.6);
  Engine ea = make_stream(14, 3, Purpose::predictor, "x"), eb = ea;
  Engine rng = make_stream(14, 3, Purpose::failures, "x");
  std::vector<std::int32_t> failing, oa, ob;
  int differ = 0;
  for (int i = 0; i < 2000; ++i) {
    random_failing(rng, 64, failing);
    a.predict(failing, ea, oa);
    b.predict(failing, eb, ob);
    differ += oa != ob;
  }
  CHECK(differ == 0);
  CHECK(a.counts().false_positives > 0);
}

TEST_CASE("predictor: precision or recall not in 0 < x <= 1 is rejected naming the key",
          "[predictor]") {
  for (const double bad : {0.0, -0.1, 1.5, std::nan("")}) {
    CHECK(thrown_key([&] { Predictor(8, bad, 0.5); }) == "predictor.precision");
    CHECK(thrown_key([&] { Predictor(8, 0.5, bad); }) == "predictor.recall");
  }
  CHECK(thrown_key([] {
          Predictor::from_table(make_params({{"precision", 0.5}}), 8);
        }) == "predictor.recall");
  CHECK(thrown_key([] {
          Predictor::from_table(make_params({{"precision", 0.5}, {"recall", std::string("high")}}),
                                8);
        }) == "predictor.recall");
  CHECK(thrown_key([] {
          Predictor::from_table(make_params({{"precision", 0.5}, {"recal", 0.5}}), 8);
        }) == "predictor.recal");
  CHECK(
      thrown_key([] {
        Predictor::from_table(make_params({{"kind", std::string("none")}, {"precision", 0.5}}), 8);
      }) == "predictor.precision");
  CHECK(thrown_key([] {
          Predictor::from_table(make_params({{"kind", std::string("oracle")}}), 8);
        }) == "predictor.kind");
  const Predictor ok =
      Predictor::from_table(make_params({{"precision", 0.7}, {"recall", std::int64_t{1}}}), 8);
  CHECK(ok.kind() == Predictor::Kind::emulated);
  CHECK(ok.precision() == 0.7);
  CHECK(ok.recall() == 1.0);
  CHECK(Predictor::from_table(make_params({{"kind", std::string("none")}}), 8).kind() ==
        Predictor::Kind::none);
}

TEST_CASE("predictor: the table spec declares the keys from_table accepts, with their ranges",
          "[predictor][reference]") {
  const faultsweep::ParamSpec t = Predictor::table_spec();
  REQUIRE(t.keys.size() == 1);
  const faultsweep::ParamSpec& kind = t.keys.front();
  CHECK(kind.choices == std::vector<std::string>{"emulated", "none"});
  REQUIRE(kind.choice_keys.size() == 2);
  const auto& emulated = kind.choice_keys[0].keys;
  REQUIRE(emulated.size() == 2);
  CHECK(emulated[0].name == "precision");
  CHECK(emulated[0].min == 1e-9);
  CHECK(emulated[1].name == "recall");
  CHECK(emulated[1].max == 1.0);
  CHECK(kind.choice_keys[1].keys.empty());
  // A key outside the spec is refused with the spec's names.
  try {
    Predictor::from_table(make_params({{"interval", 60.0}}), 8);
    FAIL("no error");
  } catch (const faultsweep::InputError& e) {
    CHECK(e.key() == "predictor.interval");
    CHECK(e.expected() == "unknown key; expected kind, precision, recall");
  }
}
