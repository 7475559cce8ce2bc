// Compressed inputs (.gz, .xz) are decompressed in memory (core/compressed.hpp): the same text as
// the plain file, also with several streams, with no `xz` program on PATH; truncated or corrupt
// data is an InputError naming the file. The files are made at test time by the xz and gzip
// programs, so the decoder is checked against the reference implementation.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "faultsweep/core/compressed.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"
#include "faultsweep/workload/swf.hpp"
#include "temp_dir.hpp"

using faultsweep::InputError;
using faultsweep::failures::text::read_log;
using faultsweep::testing::TempDir;

namespace {

const std::filesystem::path kData = std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests" / "data";

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

bool have(const char* program) {
  return std::system((std::string(program) + " --version > /dev/null 2>&1").c_str()) == 0;
}

// `program -c plain > out` (the names hold no quotes).
void compress(const char* program, const std::filesystem::path& plain,
              const std::filesystem::path& out) {
  const std::string cmd =
      std::string(program) + " -c '" + plain.string() + "' > '" + out.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
}

std::string message_of(const std::filesystem::path& file) {
  try {
    (void)read_log(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

// Restores PATH at the end of a scope.
struct PathGuard {
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ~PathGuard() { ::setenv("PATH", saved.c_str(), 1); }
};

}  // namespace

TEST_CASE("compressed: .xz and .gz logs read as the plain file, one or two streams, no xz on PATH",
          "[compressed]") {
  if (!have("xz") || !have("gzip")) {
    WARN("xz or gzip not installed: cannot make the test files");
    return;
  }
  TempDir dir("compressed");
  const auto plain = kData / "failures" / "lanl_small.csv";
  const std::string text = read_bytes(plain);
  for (const char* program : {"xz", "gzip"}) {
    const std::string ext = std::string(program) == "xz" ? ".xz" : ".gz";
    const auto one = dir.path() / ("one.csv" + ext), two = dir.path() / ("two.csv" + ext);
    compress(program, plain, one);
    write_bytes(two, read_bytes(one) + read_bytes(one));  // `xz -d` / `gzip -d` read both streams
    const PathGuard path;
    ::setenv("PATH", dir.path().c_str(), 1);  // decompression must not need the programs
    CHECK(read_log(one) == text);
    CHECK(read_log(two) == text + text);
    faultsweep::failures::LanlOptions o;
    CHECK(faultsweep::failures::read_lanl(one, o).events.size() == 5);
  }
}

TEST_CASE("compressed: truncated or corrupt .xz / .gz data is an InputError naming the file",
          "[compressed]") {
  if (!have("xz") || !have("gzip")) {
    WARN("xz or gzip not installed: cannot make the test files");
    return;
  }
  TempDir dir("compressed-bad");
  const auto plain = kData / "failures" / "lanl_small.csv";
  for (const char* program : {"xz", "gzip"}) {
    const std::string ext = std::string(program) == "xz" ? ".xz" : ".gz";
    const auto good = dir.path() / ("good.csv" + ext);
    compress(program, plain, good);
    const std::string bytes = read_bytes(good);
    const auto cut = dir.path() / ("cut.csv" + ext), flipped = dir.path() / ("flip.csv" + ext),
               junk = dir.path() / ("junk.csv" + ext), tail = dir.path() / ("tail.csv" + ext);
    write_bytes(cut, bytes.substr(0, bytes.size() / 2));
    std::string f = bytes;
    f[f.size() / 2] = static_cast<char>(f[f.size() / 2] ^ 0x55);
    write_bytes(flipped, f);
    write_bytes(junk, "this is not compressed at all\n");
    write_bytes(tail, bytes + "trailing junk");
    for (const auto& bad : {cut, flipped, junk, tail}) {
      const std::string m = message_of(bad);
      INFO(m);
      CHECK(m.rfind(bad.string() + ": ", 0) == 0);
      CHECK(m.find("corrupt") != std::string::npos);
    }
    CHECK_THAT(message_of(cut), Catch::Contains("truncated"));
  }
}

TEST_CASE("compressed: an .xz SWF file reads as the plain one", "[compressed][swf]") {
  if (!have("xz")) {
    WARN("xz not installed: cannot make the test file");
    return;
  }
  TempDir dir("compressed-swf");
  const auto plain = kData / "swf" / "basic.swf";
  REQUIRE(std::filesystem::exists(plain));
  const auto xz = dir.path() / "basic.swf.xz";
  compress("xz", plain, xz);
  const auto a = faultsweep::workload::read_swf(plain), b = faultsweep::workload::read_swf(xz);
  REQUIRE(a.jobs.size() == b.jobs.size());
  CHECK(a.stats.lines == b.stats.lines);
  CHECK(a.stats.bad_lines == b.stats.bad_lines);
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    CHECK(a.jobs[i].id == b.jobs[i].id);
    CHECK(a.jobs[i].runtime_s == b.jobs[i].runtime_s);
    CHECK(a.jobs[i].size == b.jobs[i].size);
  }
}
