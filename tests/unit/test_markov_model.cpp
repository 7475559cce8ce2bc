// Plank & Thomason's markov_availability model (JPDC 2001): Table 4's optimal a and I for BT,
// LU and EP on HIGH, MEDIUM and LOW; the model's modes, validation messages and explicit
// parameters; and Table 2's inputs with their units and bad files.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/avail/plank_inputs.hpp"
#include "faultsweep/avail/plank_system.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/models/markov_availability.hpp"
#include "markov_support.hpp"

using namespace faultsweep;
using namespace faultsweep::avail;
using faultsweep::testing::Case;
using faultsweep::testing::kInputs;
using faultsweep::testing::kSource;
using faultsweep::testing::plank_case;
using faultsweep::testing::run_model;
using faultsweep::testing::table4_row;

TEST_CASE("Table 4: optimal a and I for BT, LU, EP on HIGH, MEDIUM, LOW", "[markov]") {
  auto printed = [](double ours, double paper, double unit) {
    return std::fabs(ours - paper) <= 0.5 * unit + 1e-12;
  };
  SECTION("BT HIGH") {
    // Paper: 28, 1.82, 0.928, 1.04, 1.12, 7.7%. a and RT reproduce. I, A, RT/A do not: with
    // Table 3's C = CS_28 / 24.8 MB/s = 92.6 s the optimum is 1.21 h (Young's sqrt(2 C MTTF/a)
    // = 1.20 h agrees); the paper's 1.82 h and 0.928 need C about 2.4x larger (~220 s).
    const auto m = table4_row("BT", "HIGH");
    CHECK(m[0] == 28);
    CHECK(printed(m[3], 1.04, 0.01));
    CHECK(m[1] == Approx(1.2086).epsilon(1e-4));  // paper 1.82
    CHECK(m[2] == Approx(0.9502).epsilon(1e-4));  // paper 0.928
    CHECK(m[4] == Approx(1.0989).epsilon(1e-4));  // paper 1.12
  }
  SECTION("BT MEDIUM") {
    // Paper: 17, 5.13, 0.473, 1.45, 3.07, 111%. All reproduce except I (and A is 0.4725, a
    // hair beyond the printed 0.473 +- 0.0005): the optimum is the
    // bound I = L_17 = 5.146 h; the paper's 5.13 h is 0.31% lower, as is LU MEDIUM's (an L rate
    // of ~0.1204 MB/s printed as 0.120 would explain both).
    const auto m = table4_row("BT", "MEDIUM");
    CHECK(m[0] == 17);
    CHECK(m[1] == Approx(5.1463).epsilon(1e-4));   // paper 5.13
    CHECK(m[2] == Approx(0.47248).epsilon(1e-4));  // paper 0.473: 0.0005 apart
    CHECK(printed(m[3], 1.45, 0.01));
    CHECK(printed(m[4], 3.07, 0.01));
    CHECK(std::fabs(100 * (1 / m[2] - 1) - 111) < 1);  // 111.6%; paper 111% (truncated?)
  }
  SECTION("BT LOW") {
    // Table: 1, 2.94, 0.0019, 18.1, 9671 h, 53476%. The §8 text instead says 12791 h (533 days).
    // We reproduce the text: 12786 h, A = 0.001412 (= 18.05 / 12791 to 0.04%); the table's
    // A = 0.0019 and 9671 h (18.05 / 9671 = 0.00187) do not follow from the model, and its
    // 53476% matches its own 9671 h. We take the text as the paper's computed value.
    const auto m = table4_row("BT", "LOW");
    CHECK(m[0] == 1);
    CHECK(printed(m[1], 2.94, 0.01));
    CHECK(printed(m[3], 18.1, 0.1));
    CHECK(m[2] == Approx(0.0014117).epsilon(1e-3));  // table 0.0019
    CHECK(std::fabs(m[4] - 12791) / 12791 < 1e-3);   // text 12791; table 9671
  }
  SECTION("LU HIGH") {
    // Paper: 28, 0.82, 0.964, 0.73, 0.75, 3.7%. All reproduce except RT/A: ours 0.757, which
    // is also the paper's own 0.73 / 0.964; its 0.75 looks truncated.
    const auto m = table4_row("LU", "HIGH");
    CHECK(m[0] == 28);
    CHECK(printed(m[1], 0.82, 0.01));
    CHECK(printed(m[2], 0.964, 0.001));
    CHECK(printed(m[3], 0.73, 0.01));
    CHECK(m[4] == Approx(0.75692).epsilon(1e-4));  // paper 0.75
    CHECK(printed(100 * (1 / m[2] - 1), 3.7, 0.1));
  }
  SECTION("LU MEDIUM") {
    // Paper: 23, 2.23, 0.624, 0.84, 1.34, 60%. All reproduce except I at the bound
    // L_23 = 2.237 h (paper 0.31% lower, see BT MEDIUM).
    const auto m = table4_row("LU", "MEDIUM");
    CHECK(m[0] == 23);
    CHECK(m[1] == Approx(2.2371).epsilon(1e-4));  // paper 2.23
    CHECK(printed(m[2], 0.624, 0.001));
    CHECK(printed(m[3], 0.84, 0.01));
    CHECK(printed(m[4], 1.34, 0.01));
    CHECK(printed(100 * (1 / m[2] - 1), 60, 1));
  }
  SECTION("LU LOW") {
    // Table: 1, 0.80, 0.170, 14.2, 83.4 h, 487%. The §8 text says 89 hours (3.7 days). We get
    // 89.4 h with A = 0.159: the text reproduces, the table's A and RT/A do not (its 487% is
    // consistent with its own 83.4 h).
    const auto m = table4_row("LU", "LOW");
    CHECK(m[0] == 1);
    CHECK(printed(m[1], 0.80, 0.01));
    CHECK(printed(m[3], 14.2, 0.1));
    CHECK(m[2] == Approx(0.15889).epsilon(1e-3));  // table 0.170
    CHECK(printed(m[4], 89, 1));                   // text 89; table 83.4
  }
  // EP: Table 2's b coefficients give RT_a = 54419/a + 2911 s (r = 512), e.g. 1.33 h at a = 29,
  // where Table 4 prints 0.70 h; its three EP RT entries fit 71775/a + 45 s instead. With
  // Table 2 as printed the optimal a moves down by one in every environment. A and I_opt at
  // the paper's a do not depend on RT: HIGH reproduces; MEDIUM and LOW do not (see below).
  SECTION("EP HIGH") {
    // Paper: 29, 0.17, 0.961, 0.70, 0.71, 4.1%. Ours: a = 28.
    const auto m = table4_row("EP", "HIGH");
    CHECK(m[0] == 28);                             // paper 29
    CHECK(m[3] == Approx(1.3491).epsilon(1e-3));   // paper 0.70 (Eq. 6 with Table 2)
    CHECK(m[4] == Approx(1.3665).epsilon(1e-3));   // paper 0.71
    CHECK(m[2] == Approx(0.98693).epsilon(1e-4));  // ours at a = 28
    Params p;
    p.set("app", std::string("EP"));
    p.set("env", std::string("HIGH"));
    p.set("mode", std::string("optimize_interval"));
    p.set("a", std::int64_t{29});
    const auto at29 = run_model(p);  // at the paper's a: I and A reproduce
    CHECK(printed(at29[1], 0.17, 0.01));
    CHECK(printed(at29[2], 0.961, 0.001));
  }
  SECTION("EP MEDIUM") {
    // Paper: 25, 0.55, 0.903, 0.81, 0.89, 11%. Ours: a = 24. At a = 25 we get I = 0.382 h and
    // A = 0.9006 (Young's formula gives 0.38 h too); the paper's 0.55 h and 0.903 are not on
    // our A(I) curve (its maximum is 0.9006), cause unknown.
    const auto m = table4_row("EP", "MEDIUM");
    CHECK(m[0] == 24);                            // paper 25
    CHECK(m[1] == Approx(0.3818).epsilon(1e-3));  // paper 0.55 (at a = 25)
    CHECK(m[2] == Approx(0.9364).epsilon(1e-3));  // paper 0.903 (at a = 25)
    CHECK(m[4] == Approx(1.5363).epsilon(1e-3));  // paper 0.89
  }
  SECTION("EP LOW") {
    // Paper: 9, 0.036, 0.577, 2.2, 3.8, 73.18% (the text: 3.85 h with a = 10). Ours: a = 8.
    // At a = 9 we get I = 0.0337 h, A = 0.566 (paper 0.036 h, 0.577).
    const auto m = table4_row("EP", "LOW");
    CHECK(m[0] == 8);                              // paper 9
    CHECK(m[1] == Approx(0.03373).epsilon(1e-3));  // paper 0.036
    CHECK(m[2] == Approx(0.6238).epsilon(1e-3));   // paper 0.577
    CHECK(m[4] == Approx(4.3257).epsilon(1e-3));   // paper 3.8
  }
}

TEST_CASE("model: modes, validation messages and explicit parameters", "[markov]") {
  SECTION("evaluate uses the full chain and reports the given a and I") {
    Params p;
    p.set("app", std::string("LU"));
    p.set("env", std::string("HIGH"));
    p.set("mode", std::string("evaluate"));
    p.set("a", std::int64_t{28});
    p.set("I", 0.8 * 3600);
    const auto m = run_model(p);
    CHECK(m[0] == 28);
    CHECK(m[1] == Approx(0.8));
    CHECK(m[2] == Approx(0.964).margin(0.001));
  }
  SECTION("I below L is refused, naming L with its unit") {
    Params p;
    p.set("app", std::string("BT"));
    p.set("env", std::string("MEDIUM"));
    p.set("mode", std::string("evaluate"));
    p.set("a", std::int64_t{17});
    p.set("I", 3600.0);
    try {
      run_model(p);
      FAIL("expected InputError");
    } catch (const InputError& e) {
      CHECK(e.key() == "I");
      CHECK(std::string(e.what()).find("I must be >= L = 5.14631h") != std::string::npos);
    }
  }
  SECTION("a above N, missing a, missing I") {
    Params p;
    p.set("env", std::string("HIGH"));
    p.set("app", std::string("BT"));
    p.set("mode", std::string("optimize_interval"));
    p.set("a", std::int64_t{33});
    CHECK_THROWS_AS(run_model(p), InputError);
    p.set("mode", std::string("evaluate"));
    p.set("a", std::int64_t{3});
    try {
      run_model(p);
      FAIL("expected InputError");
    } catch (const InputError& e) {
      CHECK(e.key() == "I");
    }
  }
  SECTION("explicit system without tables; optimize maximises A without an app") {
    Params p;
    p.set("N", std::int64_t{8});
    p.set("C", 60.0);
    p.set("L", 120.0);
    p.set("R", 120.0);
    p.set("mttf", 5 * 86400.0);
    p.set("mttr", 86400.0);
    p.set("mode", std::string("optimize"));
    const auto m = run_model(p);
    CHECK(m[0] >= 1);
    CHECK(m[0] <= 8);
    CHECK(std::isnan(m[3]));
    CHECK(std::isnan(m[4]));
    // no a does better
    for (int a = 1; a <= 8; ++a) {
      const ChainCore core(8, a, 1 / (5 * 86400.0), 1 / 86400.0);
      CHECK(core.optimize_interval(60, 120, 120, 120).availability <= m[2] * (1 + 1e-12));
    }
  }
  SECTION("missing mttf names the key; unknown app lists the known ones") {
    Params p;
    p.set("C", 60.0);
    p.set("L", 60.0);
    p.set("R", 60.0);
    p.set("mttr", 3600.0);
    p.set("mode", std::string("optimize"));
    try {
      run_model(p);
      FAIL("expected InputError");
    } catch (const InputError& e) {
      CHECK(e.key() == "mttf");
    }
    Params q;
    q.set("app", std::string("XY"));
    q.set("env", std::string("HIGH"));
    try {
      run_model(q);
      FAIL("expected InputError");
    } catch (const InputError& e) {
      CHECK(e.key() == "app");
      CHECK(std::string(e.what()).find("BT, LU, EP") != std::string::npos);
    }
  }
  SECTION("explicit values override the tables") {
    Params p;
    p.set("plank_inputs", kInputs.string());
    p.set("app", std::string("BT"));
    p.set("env", std::string("HIGH"));
    p.set("C", 10.0);
    p.set("N", std::int64_t{16});
    const PlankSystem s = resolve_plank_system(p, kSource, 4);
    CHECK(s.N == 16);
    CHECK(s.C_s == 10.0);
    const Case c = plank_case("BT", "HIGH");
    CHECK(s.L_s == Approx(c.app.checkpoint_MB(4) / 24.8));
    CHECK(s.mttf_s == Approx(32.7 * 86400));
    CHECK(s.runtime_s == Approx(c.app.runtime_s(4)));
  }
}

TEST_CASE("plank inputs: Table 2 units and bad files", "[markov]") {
  const Case bt = plank_case("BT", "HIGH");
  CHECK(bt.app.runtime_s(1) == Approx(64983).epsilon(1e-4));       // 18.05 h; Table 4: 18.1 h
  CHECK(bt.app.checkpoint_MB(1) == Approx(2115.2).epsilon(1e-4));  // "over 2 GB"
  const Case ep = plank_case("EP", "LOW");
  CHECK(ep.app.r == 512);
  CHECK(ep.app.z == 1);
  CHECK(ep.app.checkpoint_MB(1) == Approx(1.7));  // "1.7 MB per processor"
  CHECK(ep.env.mttf_s == 70 * 60);

  const auto dir = std::filesystem::temp_directory_path() / "faultsweep_test_markov";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  auto message = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const auto bad_key = write("apps.toml",
                             "[BT]\nb = [1, 2, 3, 4]\nc = [1, 2, 3, 4]\nproblem = \"matrix\"\n"
                             "matrix_size = 160\ncoef = 3\n");
  CHECK(message([&] { load_plank_apps(bad_key); }).find("apps.toml:6: BT.coef = 3: unknown key") !=
        std::string::npos);
  const auto bad_rate = write("environments.toml",
                              "[X]\nN = 4\nmttf = \"1d\"\nmttr = \"1h\"\nC_rate_MBps = 1\n"
                              "L_rate_MBps = -0.5\nR_rate_MBps = 1\n");
  CHECK(message([&] {
          load_plank_envs(bad_rate);
        }).find("environments.toml:6: X.L_rate_MBps = -0.5: must be > 0") != std::string::npos);
  const auto bad_unit = write("environments.toml",
                              "[X]\nN = 4\nmttf = \"1 fortnight\"\nmttr = \"1h\"\n"
                              "C_rate_MBps = 1\nL_rate_MBps = 1\nR_rate_MBps = 1\n");
  CHECK(message([&] { load_plank_envs(bad_unit); }).find("environments.toml:3: X.mttf") !=
        std::string::npos);
  const auto missing = write("apps.toml", "[BT]\nb = [1, 2, 3, 4]\nproblem = \"matrix\"\n");
  CHECK(message([&] { load_plank_apps(missing); }).find("BT.c: required key missing") !=
        std::string::npos);
  const auto syntax = write("apps.toml", "[BT\nb = 1\n");
  CHECK(message([&] { load_plank_apps(syntax); }).find("apps.toml:1:") != std::string::npos);
  std::filesystem::remove_all(dir);
}
