#pragma once
// Job-file builders shared by the job parser's tests.
#include <catch2/catch.hpp>

#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"

namespace faultsweep::testing {

// A job file with the given [sweep] extras, [params] and [axes] bodies.
inline std::string job_text(const std::string& sweep_extra, const std::string& params,
                            const std::string& axes) {
  return "[sweep]\nmodel = \"synthetic\"\nseed = 7\n" + sweep_extra + "\n[params]\n" + params +
         "\n[axes]\n" + axes + "\n";
}

inline sweep::JobSpec parse(const std::string& text) {
  return sweep::parse_job(text, "jobs/test.toml");
}

// The InputError that parsing `text` throws (fails the test if none is thrown).
inline InputError parse_error(const std::string& text) {
  try {
    (void)parse(text);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for:\n" << text);
  return InputError("unreachable");
}

}  // namespace faultsweep::testing
