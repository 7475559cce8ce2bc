#include "faultsweep/sim/records.hpp"

#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/strategy.hpp"

namespace faultsweep::sim {
namespace {

constexpr char kMagic[] = "FSRECORDS1";
constexpr std::size_t kMagicLen = sizeof(kMagic) - 1;

// resize + memcpy (vector::insert of a few bytes trips GCC 12's -Warray-bounds).
void put_bytes(std::vector<unsigned char>& b, const void* p, std::size_t n) {
  const std::size_t at = b.size();
  b.resize(at + n);
  if (n > 0) std::memcpy(b.data() + at, p, n);
}

template <class T>
void put(std::vector<unsigned char>& b, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  put_bytes(b, &v, sizeof(T));
}

// Rows are stored as their in-memory bytes: the blob is read back by the same build (a journal
// of another build is refused before its records are read).
template <class Row>
void put_rows(std::vector<unsigned char>& b, const std::vector<Row>& rows) {
  static_assert(std::is_trivially_copyable_v<Row>);
  put<std::uint64_t>(b, rows.size());
  put<std::uint64_t>(b, sizeof(Row));
  put_bytes(b, rows.data(), rows.size() * sizeof(Row));
}

class Reader {
 public:
  Reader(std::span<const unsigned char> d, const std::string& where) : d_(d), where_(where) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, d_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  template <class Row>
  void rows(std::vector<Row>& out) {
    const auto n = get<std::uint64_t>();
    if (get<std::uint64_t>() != sizeof(Row)) bad("a row size of another build");
    if (n > (d_.size() - pos_) / sizeof(Row)) bad("truncated");
    out.resize(n);
    if (n > 0) std::memcpy(out.data(), d_.data() + pos_, n * sizeof(Row));
    pos_ += n * sizeof(Row);
  }
  void need(std::size_t n) const {
    if (n > d_.size() - pos_) bad("truncated");
  }
  void skip(std::size_t n) {
    need(n);
    pos_ += n;
  }
  bool at_end() const { return pos_ == d_.size(); }
  [[noreturn]] void bad(const char* why) const {
    throw IoError(fmt::format("{}: damaged records of a task ({})", where_, why));
  }

 private:
  std::span<const unsigned char> d_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<unsigned char> encode_records(const RecordTables& t) {
  const auto bytes = [](const auto& rows) { return 16 + rows.size() * sizeof(rows.front()); };
  std::vector<unsigned char> b;
  b.reserve(kMagicLen + 24 + bytes(t.jobs) + bytes(t.attempts) + bytes(t.allocations) +
            bytes(t.failures) + bytes(t.node_changes) + bytes(t.decisions));
  put_bytes(b, kMagic, kMagicLen);
  put<std::uint32_t>(b, t.what);
  put<std::int32_t>(b, t.nodes);
  put<double>(b, t.start_s);
  put<double>(b, t.end_s);
  put_rows(b, t.jobs);
  put_rows(b, t.attempts);
  put_rows(b, t.allocations);
  put_rows(b, t.failures);
  put_rows(b, t.node_changes);
  put_rows(b, t.decisions);
  return b;
}

RecordTables decode_records(std::span<const unsigned char> bytes, const std::string& where) {
  Reader r(bytes, where);
  r.need(kMagicLen);
  if (std::memcmp(bytes.data(), kMagic, kMagicLen) != 0) r.bad("magic");
  r.skip(kMagicLen);
  RecordTables t;
  t.what = r.get<std::uint32_t>();
  t.nodes = r.get<std::int32_t>();
  t.start_s = r.get<double>();
  t.end_s = r.get<double>();
  r.rows(t.jobs);
  r.rows(t.attempts);
  r.rows(t.allocations);
  r.rows(t.failures);
  r.rows(t.node_changes);
  r.rows(t.decisions);
  if (!r.at_end()) r.bad("bytes after the last table");
  return t;
}

Recorder::Recorder(unsigned what, std::size_t jobs) {
  t_.what = what;
  if (wants(kRecordJobs)) {
    open_.assign(jobs, -1);
    attempts_.assign(jobs, 0);
    t_.attempts.reserve(jobs + jobs / 8);  // one per job, and a few restarts
    t_.allocations.reserve(2 * jobs);
  }
}

void Recorder::begin_attempt(std::int32_t job, double t, std::span<const std::int32_t> nodes) {
  if (!wants(kRecordJobs)) return;
  const auto j = static_cast<std::size_t>(job);
  const std::int32_t attempt = attempts_[j]++;
  open_[j] = static_cast<std::int32_t>(t_.attempts.size());
  t_.attempts.push_back(AttemptRow{job, attempt, t, kNotYet, 0});
  // Runs of consecutive node indices, in the job's node order.
  for (std::size_t k = 0; k < nodes.size();) {
    std::size_t e = k + 1;
    while (e < nodes.size() && nodes[e] == nodes[e - 1] + 1) ++e;
    t_.allocations.push_back(
        AllocationRow{job, attempt, nodes[k], static_cast<std::int32_t>(e - k)});
    k = e;
  }
}

void Recorder::end_attempt(std::int32_t job, double t, AttemptEnd why) {
  if (!wants(kRecordJobs)) return;
  std::int32_t& open = open_[static_cast<std::size_t>(job)];
  if (open < 0) return;
  AttemptRow& a = t_.attempts[static_cast<std::size_t>(open)];
  a.end_s = t;
  a.end = static_cast<std::uint8_t>(why);
  open = -1;
}

void Recorder::failure(double t, std::int32_t node, double repair_s, std::int32_t job,
                       bool predicted) {
  if (wants(kRecordFailures))
    t_.failures.push_back(FailureRow{t, repair_s, node, job, static_cast<std::uint8_t>(predicted)});
}

void Recorder::node(double t, std::int32_t node, std::uint8_t from, std::uint8_t to,
                    std::int32_t job) {
  constexpr auto idle = static_cast<std::uint8_t>(policy::NodeUse::idle);
  constexpr auto busy = static_cast<std::uint8_t>(policy::NodeUse::busy);
  const bool job_start_or_end = (from == idle && to == busy) || (from == busy && to == idle);
  if (wants(kRecordNodes) && !job_start_or_end)
    t_.node_changes.push_back(NodeRow{t, node, job, to});
}

void Recorder::decision(double t, DecisionKind kind, DecisionCause cause, std::int32_t job,
                        std::int32_t from, std::int32_t to, double overhead_s) {
  if (wants(kRecordDecisions))
    t_.decisions.push_back(DecisionRow{t, overhead_s, job, from, to,
                                       static_cast<std::uint8_t>(kind),
                                       static_cast<std::uint8_t>(cause)});
}

void Recorder::close(double end_s) {
  for (std::size_t j = 0; j < open_.size(); ++j)
    if (open_[j] >= 0) end_attempt(static_cast<std::int32_t>(j), end_s, AttemptEnd::run_end);
}

}  // namespace faultsweep::sim
