#include "faultsweep/core/error.hpp"

#include <fmt/format.h>

namespace faultsweep {

InputError::InputError(std::string key, std::string value, std::string expected)
    : Error(""), key_(std::move(key)), value_(std::move(value)), expected_(std::move(expected)) {
  compose();
}

InputError::InputError(std::string message) : Error(""), expected_(std::move(message)) {
  compose();
}

InputError InputError::located(const std::string& file, int line,
                               const std::string& key_prefix) const {
  InputError e = *this;
  e.file_ = file;
  e.line_ = line;
  if (!e.key_.empty()) e.key_ = key_prefix + e.key_;
  e.compose();
  return e;
}

void InputError::compose() {
  std::string where;
  if (!file_.empty()) where = line_ > 0 ? fmt::format("{}:{}: ", file_, line_) : file_ + ": ";
  if (key_.empty())
    message_ = where + expected_;
  else if (value_.empty())
    message_ = fmt::format("{}{}: {}", where, key_, expected_);
  else
    message_ = fmt::format("{}{} = {}: {}", where, key_, value_, expected_);
}

void fail_check(const char* expr, const char* file, int line, const std::string& msg) {
  throw InternalError(
      fmt::format("internal error (a bug in faultsweep) at {}:{}: check '{}' "
                  "failed: {}",
                  file, line, expr, msg));
}

}  // namespace faultsweep
