#include "faultsweep/core/notice.hpp"

#include <cstdio>
#include <mutex>
#include <set>
#include <vector>

namespace faultsweep {

namespace {

std::mutex mutex;
std::set<std::string> said;
std::vector<std::string> said_in_order;
int muted = 0;

}  // namespace

void say_once(const std::string& text) {
  const std::lock_guard<std::mutex> lock(mutex);
  if (!said.insert(text).second) return;
  said_in_order.push_back(text);
  if (muted == 0) std::fprintf(stderr, "%s\n", text.c_str());
}

std::vector<std::string> said_notices() {
  const std::lock_guard<std::mutex> lock(mutex);
  return said_in_order;
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
