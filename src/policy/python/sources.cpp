// The bytes of the Python policy files as this process runs them: each file is read once, and
// every later use (the import, the text and SHA-256 kept with the job, /inputs) takes those
// bytes, so a file edited while a run goes on changes nothing. The other ranks are given rank
// 0's bytes (from the job text it broadcasts) before anything of theirs reads the file.
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/core/text_guard.hpp"
#include "faultsweep/policy/python.hpp"

namespace faultsweep::policy {

namespace {

struct Kept {
  std::mutex mu;
  std::map<std::string, std::string> bytes;  // by absolute, normalised path
};

Kept& kept() {
  static Kept k;
  return k;
}

std::string key_of(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::path a = std::filesystem::absolute(file, ec);
  return (ec ? file : a).lexically_normal().string();
}

}  // namespace

const std::string& policy_source(const std::filesystem::path& file) {
  Kept& k = kept();
  const std::string key = key_of(file);
  {
    const std::lock_guard lock(k.mu);
    if (const auto it = k.bytes.find(key); it != k.bytes.end()) return it->second;
  }
  std::string text = read_text_file(file, "Python policy");  // (outside the lock: a slow disk)
  const std::lock_guard lock(k.mu);
  return k.bytes.emplace(key, std::move(text)).first->second;  // the first read wins
}

const std::string* kept_policy_source(const std::filesystem::path& file) {
  Kept& k = kept();
  const std::lock_guard lock(k.mu);
  const auto it = k.bytes.find(key_of(file));
  return it == k.bytes.end() ? nullptr : &it->second;
}

void keep_policy_source(const std::filesystem::path& file, std::string bytes) {
  Kept& k = kept();
  const std::lock_guard lock(k.mu);
  const std::string key = key_of(file);
  const auto it = k.bytes.find(key);
  if (it == k.bytes.end()) {
    k.bytes.emplace(key, std::move(bytes));
    return;
  }
  if (it->second != bytes)
    throw InputError(fmt::format(
        "{}: the Python policy changed while the run started (sha256 {} read here, {} read by "
        "rank 0); start the run again",
        file.string(), sha256_hex(it->second), sha256_hex(bytes)));
}

}  // namespace faultsweep::policy
