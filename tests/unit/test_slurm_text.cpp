// Slurm's text forms (core/slurm_text.hpp): times, durations, UTC offsets, host lists and the
// order of node names, each rule and each refusal.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "faultsweep/core/slurm_text.hpp"

using namespace faultsweep::slurm;

TEST_CASE("Slurm times: ISO local time at a UTC offset, Unknown and None are no time",
          "[slurm_text]") {
  // 2026-11-02T08:00:00 UTC = 1793606400 (days_from_civil(2026, 11, 2) = 20759).
  CHECK(parse_time("2026-11-02T08:00:00", 0) == Approx(20759.0 * 86400 + 8 * 3600).epsilon(0));
  CHECK(*parse_time("2026-11-02 08:00:00", 0) == *parse_time("2026-11-02T08:00:00", 0));
  // The same wall-clock time two hours east of UTC is two hours earlier.
  CHECK(*parse_time("2026-11-02T08:00:00", 0) - *parse_time("2026-11-02T08:00:00", 7200) == 7200);
  CHECK(*parse_time("2024-02-29T23:59:59", 0) - *parse_time("2024-02-28T00:00:00", 0) ==
        2 * 86400 - 1);
  for (const char* bad :
       {"2026-02-30T00:00:00", "2026-11-02T24:00:00", "2026-11-02", "Unknown", "2026-11-02T08:00",
        "2026-11-02T08:00:00 +0100", "26-11-02T08:00:00", "2026-11-02T08:00:00+01:0",
        "2026-11-02T08:00:00CET", "2026-11-02T08:00:00UTC"})
    CHECK_FALSE(parse_time(bad, 0).has_value());
  for (const char* none : {"Unknown", "None", "", "unknown"}) CHECK(is_no_time(none));
  // A zone printed with the time is that time's own and wins over the reader's offset: the two
  // sides of Europe's autumn change (CEST +0200, then CET +0100) read one hour apart, not two.
  CHECK(*parse_time("2026-11-02T08:00:00Z", 7200) == *parse_time("2026-11-02T08:00:00", 0));
  CHECK(*parse_time("2026-11-02T09:00:00+0100", 0) == *parse_time("2026-11-02T08:00:00", 0));
  CHECK(*parse_time("2026-11-02T03:00:00-05:00", 0) == *parse_time("2026-11-02T08:00:00", 0));
  CHECK(*parse_time("2026-10-25T02:30:00+0100", 0) - *parse_time("2026-10-25T02:30:00+0200", 0) ==
        3600);
  CHECK_FALSE(is_no_time("2026-11-02T08:00:00"));
}

TEST_CASE("Slurm UTC offsets", "[slurm_text]") {
  CHECK(parse_utc_offset("UTC") == 0);
  CHECK(parse_utc_offset("Z") == 0);
  CHECK(parse_utc_offset("+02:00") == 7200);
  CHECK(parse_utc_offset("-05:30") == -(5 * 3600 + 1800));
  CHECK(parse_utc_offset("UTC+01") == 3600);
  CHECK(parse_utc_offset("+0130") == 5400);
  for (const char* bad : {"CET", "+2", "+25:00", "02:00", "+02:60", "+013", "+01:"})
    CHECK_FALSE(parse_utc_offset(bad).has_value());
}

TEST_CASE("Slurm durations: Elapsed and Timelimit forms", "[slurm_text]") {
  const auto s = [](const char* t) {
    const auto d = parse_duration(t);
    REQUIRE(d.has_value());
    REQUIRE(d->kind == Duration::Kind::seconds);
    return d->seconds;
  };
  CHECK(s("05:07") == 5 * 60 + 7);                              // MM:SS
  CHECK(s("01:02:03") == 3723);                                 // HH:MM:SS
  CHECK(s("2-03:04:05") == 2 * 86400 + 3 * 3600 + 4 * 60 + 5);  // D-HH:MM:SS
  CHECK(s("30") == 1800);                                       // minutes (input form)
  CHECK(s("1-12") == 86400 + 12 * 3600);                        // D-HH
  CHECK(s("1-00:30") == 86400 + 1800);                          // D-HH:MM
  CHECK(s("100:00:00") == 360000);                              // hours beyond a day
  CHECK(parse_duration("UNLIMITED")->kind == Duration::Kind::unlimited);
  CHECK(parse_duration("Partition_Limit")->kind == Duration::Kind::partition_limit);
  CHECK(parse_duration("INVALID")->kind == Duration::Kind::invalid);
  for (const char* bad : {"", "1:2:3:4", "00:61", "1-25:00:00", "01:60:00", "-5", "1h", "1-"})
    CHECK_FALSE(parse_duration(bad).has_value());
}

TEST_CASE("Slurm host lists expand as Slurm does", "[slurm_text]") {
  std::string why;
  using V = std::vector<std::string>;
  CHECK(*expand_hostlist("cn[001-004,007]", why) == V{"cn001", "cn002", "cn003", "cn004", "cn007"});
  CHECK(*expand_hostlist("a[1-2],b3", why) == V{"a1", "a2", "b3"});
  CHECK(*expand_hostlist("r[1-2]n[1-2]", why) == V{"r1n1", "r1n2", "r2n1", "r2n2"});
  CHECK(*expand_hostlist("node7", why) == V{"node7"});
  CHECK(*expand_hostlist("n[9-10]", why) == V{"n9", "n10"});
  const struct {
    const char* text;
    const char* why;
  } bad[] = {{"cn[1-3", "without its ']'"},
             {"cn1-3]", "without its '['"},
             {"cn[3-1]", "ends below"},
             {"cn[a-b]", "not a number"},
             {"a,,b", "empty host name"},
             {"a,", "after the last comma"},
             {"", "no host name"},
             {"n[0-99999999]", "more than"},
             {"n[0-600,0-600]", "the ranges of [0-600,0-600] name more than 1000"}};
  for (const auto& b : bad) {
    INFO(b.text);
    CHECK_FALSE(expand_hostlist(b.text, why, 1000).has_value());
    CHECK(why.find(b.why) != std::string::npos);
  }
}

TEST_CASE("Node names sort with digit runs as numbers", "[slurm_text]") {
  CHECK(node_name_less("cn2", "cn10"));
  CHECK_FALSE(node_name_less("cn10", "cn2"));
  CHECK(node_name_less("cn02", "cn2"));
  CHECK(node_name_less("a9", "b1"));
  CHECK(node_name_less("cn", "cn1"));
  CHECK_FALSE(node_name_less("cn1", "cn1"));
  CHECK(node_name_less("r1n10", "r2n1"));
}

TEST_CASE("TRES counts and partition lists", "[slurm_text]") {
  CHECK(tres_count("billing=8,cpu=8,mem=16G,node=2", "node") == 2);
  CHECK(tres_count("billing=8,cpu=8,mem=16G,node=2", "cpu") == 8);
  CHECK(tres_count("cpu=4,mem=8G", "node") == 0);
  CHECK(tres_count("", "node") == 0);
  CHECK_FALSE(tres_count("node=x", "node").has_value());
  CHECK(in_list("batch", {"batch"}));
  CHECK(in_list("debug,batch", {"batch"}));
  CHECK_FALSE(in_list("debug", {"batch", "gpu"}));
}
