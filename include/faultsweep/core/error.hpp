#pragma once
// The error hierarchy (DESIGN §8): bad input is thrown and testable; broken invariants are bugs
// whose checks stay on in release builds; simulated failures are domain events, not errors.
#include <stdexcept>
#include <string>

namespace faultsweep {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user input: names file, line, key and value and says what was expected, e.g.
// "jobs/x.toml:12: params.failures.shape = -0.5: must be > 0". Code deep inside a model throws it
// with only key/value/expected; the job loader fills in file and line from the key.
class InputError : public Error {
 public:
  InputError(std::string key, std::string value, std::string expected);
  // A message that is not about one key (e.g. "cannot open file").
  explicit InputError(std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }
  const std::string& expected() const { return expected_; }

  // Returns a copy located at file:line, with the key prefixed (e.g. "params.").
  InputError located(const std::string& file, int line, const std::string& key_prefix = "") const;
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  void compose();
  std::string file_, key_, value_, expected_, message_;
  int line_ = 0;
};

// Failure of the operating system or a library while reading or writing files.
class IoError : public Error {
 public:
  using Error::Error;
};

// A model run stopped early because a stop was requested (SIGTERM, Slurm's walltime signal):
// not a failure; the runner leaves the task undone, to be run again on resume.
class Interrupted : public Error {
 public:
  using Error::Error;
};

// A broken internal invariant: a bug in faultsweep, never the user's fault.
class InternalError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void fail_check(const char* expr, const char* file, int line, const std::string& msg);

}  // namespace faultsweep

// An invariant check that stays on in release builds.
#define FS_CHECK(cond, msg)                                       \
  do {                                                            \
    if (!(cond)) [[unlikely]]                                     \
      ::faultsweep::fail_check(#cond, __FILE__, __LINE__, (msg)); \
  } while (0)
