#include "faultsweep/core/notice.hpp"

#include <cstdio>
#include <mutex>
#include <set>

namespace faultsweep {

namespace {

std::mutex mutex;
std::set<std::string> said;
int muted = 0;

}  // namespace

void say_once(const std::string& text) {
  const std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(text).second && muted == 0) std::fprintf(stderr, "%s\n", text.c_str());
}

MutedNotices::MutedNotices(bool mute) : mute_(mute) {
  const std::lock_guard<std::mutex> lock(mutex);
  if (mute_) ++muted;
}

MutedNotices::~MutedNotices() {
  const std::lock_guard<std::mutex> lock(mutex);
  if (mute_) --muted;
}

}  // namespace faultsweep
