// The SWF reader on malformed and unusual input: what it drops or changes is counted
// and summarised, unknown (-1) fields are treated alike, out-of-range numbers and broken gzip
// data are errors naming the file, and nothing blocks on a FIFO.
#include <sys/stat.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/swf.hpp"
#include "input_support.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;
using namespace faultsweep::workload;

namespace {

// An SWF job line: job number, submit, run time, processors, requested time, user.
std::string job(const std::string& id, const std::string& submit, const std::string& run,
                const std::string& procs, const std::string& req = "100",
                const std::string& user = "1") {
  return id + " " + submit + " 0 " + run + " " + procs + " -1 -1 " + procs + " " + req + " -1 1 " +
         user + " 1 1 1 1 -1 -1\n";
}

std::string gzip(const std::string& text) {
  uLongf n = compressBound(static_cast<uLong>(text.size())) + 32;
  std::string out(n, '\0');
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string message_of(const std::string& bytes, const SwfOptions& o = {}) {
  const auto e = testing::thrown_error([&] { (void)parse_swf(bytes, "in.swf", o); });
  return e ? e->what() : "(no error)";
}

}  // namespace

TEST_CASE("SWF -1 submit times are dropped and counted, even with bad_lines = fail", "[swf]") {
  // LLNL-Thunder has records with unknown submit time; they cannot be replayed, but they are
  // not malformed: fail mode must still read the log.
  const std::string text = "; MaxProcs: 8\n" + job("1", "0", "10", "2") +
                           job("2", "-1", "10", "2") + job("3", "5", "-1", "2") +
                           job("4", "7", "10", "2");
  SwfOptions o;
  o.bad_lines = BadLines::fail;
  const Workload w = parse_swf(text, "thunder.swf", o);
  CHECK(w.stats.jobs == 2);
  CHECK(w.stats.unknown_submit == 1);
  CHECK(w.stats.no_runtime == 1);
  CHECK(w.stats.bad_lines == 0);
  // A negative submit time other than -1 is malformed.
  CHECK_THAT(message_of(text + job("5", "-3", "10", "2"), o),
             Catch::Contains("in.swf:6: field 2 (submit time) = -3"));
}

TEST_CASE("SWF huge job numbers are bad lines and huge user ids become unknown", "[swf]") {
  // 1.3e19 > 2^63 and 3e9 > 2^31: converting them was undefined behaviour.
  const std::string text = "; MaxProcs: 8\n" + job("13000000000000000000", "0", "10", "2") +
                           job("2", "1", "10", "2", "100", "3000000000") + job("3", "2", "10", "2");
  const Workload w = parse_swf(text, "big.swf");
  CHECK(w.stats.bad_lines == 1);
  REQUIRE(w.stats.first_errors.size() == 1);
  CHECK_THAT(w.stats.first_errors[0], Catch::Contains("big.swf:2: field 1 (job number)"));
  CHECK(w.stats.user_unknown == 1);
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].user == -1);
  CHECK(w.jobs[1].user == 1);
}

TEST_CASE("SWF header machine sizes beyond int32 are ignored, not wrapped", "[swf]") {
  // "; MaxProcs: 3000000000" was cast to int32 (negative): every job was dropped as too large
  // while machine_nodes said -1294967296. Now the header value is ignored and the widest job
  // sizes the machine, as without a header.
  const Workload w = parse_swf("; MaxProcs: 3000000000\n" + job("1", "0", "10", "6"), "h.swf");
  CHECK(w.machine_nodes == 6);
  CHECK(w.jobs.size() == 1);
}

TEST_CASE("SWF infinite or NaN submit times are malformed lines", "[swf]") {
  for (const char* v : {"inf", "-inf", "nan", "1e400"}) {
    INFO(v);
    const std::string text = job("1", "0", "10", "2") + job("2", v, "10", "2");
    const Workload w = parse_swf(text, "x.swf");
    CHECK(w.stats.bad_lines == 1);
    CHECK(w.stats.jobs == 1);
  }
}

TEST_CASE("SWF files without a usable job name the file and say so", "[swf]") {
  // Empty, header-only, junk and all-dropped files: before, the message was "skip_jobs = 0:
  // fewer than the trace's 0 usable jobs", naming neither the file nor the cause.
  CHECK_THAT(message_of(""), Catch::Contains("file = \"in.swf\": no usable jobs"));
  CHECK_THAT(message_of("; MaxNodes: 8\n; MaxProcs: 8\n"),
             Catch::Contains("file = \"in.swf\": no usable"));
  const std::string junk = message_of("hello world\n\x01\x02\x03\n");
  CHECK_THAT(junk, Catch::Contains("file = \"in.swf\": no usable jobs") &&
                       Catch::Contains("2 malformed lines") &&
                       Catch::Contains("in.swf:1: field 1 (job number) = 'hello': not a number"));
  CHECK_THAT(message_of(job("1", "0", "0", "2")), Catch::Contains("1 with run time <= 0"));
}

TEST_CASE("SWF report: named counts and a one-line summary", "[swf]") {
  // basic.swf (see test_swf.cpp): 9 lines, 5 kept; 2 without run time, 1 without size, 1 wider
  // than the 64-processor machine; 2 estimates replaced.
  const Workload w =
      read_swf(std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/swf/basic.swf");
  const auto counts = w.stats.counts();
  const auto count = [&](const std::string& name) {
    for (const auto& [n, v] : counts)
      if (n == name) return v;
    FAIL("no count " << name);
    return std::int64_t{-1};
  };
  CHECK(count("lines") == 9);
  CHECK(count("jobs") == 5);
  CHECK(count("too_large") == 1);
  CHECK(count("no_runtime") == 2);
  CHECK(count("no_size") == 1);
  CHECK(count("estimate_fixed") == 2);
  CHECK(count("unknown_submit") == 0);
  CHECK(w.stats.summary() ==
        "9 lines, 5 jobs kept; dropped: 2 with run time <= 0 or unknown, 1 with unknown size, "
        "1 wider than the machine; changed: 2 estimates missing or below the run time set to "
        "the run time");
}

TEST_CASE("SWF gzip: trailing garbage is an error, concatenated members are read", "[swf]") {
  const std::string text = "; MaxProcs: 8\n" + job("1", "0", "10", "2") + job("2", "5", "10", "2");
  const std::string gz = gzip(text);
  CHECK(parse_swf(gz, "a.swf.gz").jobs.size() == 2);
  CHECK_THAT(message_of(gz + "garbage"), Catch::Contains("in.swf: trailing data after the gzip"));
  CHECK_THAT(message_of(gz.substr(0, gz.size() - 5)), Catch::Contains("truncated or corrupt"));
  // `cat a.gz b.gz` is a valid gzip file (gzip -d reads both members).
  const std::string two =
      gzip("; MaxProcs: 8\n" + job("1", "0", "10", "2")) + gzip(job("2", "5", "10", "2"));
  CHECK(parse_swf(two, "two.swf.gz").jobs.size() == 2);
  std::string flipped = gz;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x55);
  CHECK_THAT(message_of(flipped), Catch::Contains("in.swf"));
}

TEST_CASE("SWF reader refuses FIFOs and folders instead of blocking", "[swf]") {
  faultsweep::testing::TempDir dir("swf-fifo");
  const auto fifo = dir.path() / "trace.swf";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_swf(fifo), Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(read_swf(dir.path()), Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(read_swf(dir.path() / "none.swf"), Catch::Contains("no such file"));
}

TEST_CASE("SWF times beyond 2^32 s are bad lines", "[swf]") {
  // At 1e16 s a double cannot tell a 5 s job's end from its start: such a log used to end in an
  // internal check of the simulator instead of an error naming the line.
  const std::string good = job("1", "0", "10", "2");
  for (const auto& [line, field] :
       {std::pair{job("2", "1e300", "10", "2"), "field 2 (submit time) = 1e+300"},
        std::pair{job("2", "5", "5e9", "2"), "field 4 (run time) = 5e+09"},
        std::pair{job("2", "5", "10", "2", "1e10"), "field 9 (requested time) = 1e+10"}}) {
    INFO(line);
    const std::string text = "; MaxProcs: 8\n" + good + line;
    const Workload w = parse_swf(text, "in.swf");
    CHECK(w.stats.bad_lines == 1);
    CHECK(w.jobs.size() == 1);
    SwfOptions o;
    o.bad_lines = BadLines::fail;
    CHECK(message_of(text, o).find(std::string("in.swf:3: ") + field +
                                   ": beyond 2^32 s (~136 years)") != std::string::npos);
  }
}
