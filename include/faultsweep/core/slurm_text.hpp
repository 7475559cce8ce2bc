#pragma once
// Slurm's text forms, shared by the readers of `sacct --parsable2` (workload/sacct.hpp) and of
// `sacctmgr show event --parsable2` (failures/slurm_events.hpp):
//   - time stamps as sacct and sacctmgr print them by default (SLURM_TIME_FORMAT=standard):
//     "YYYY-MM-DDTHH:MM:SS" in the local time of the host that ran the command; "Unknown",
//     "None" and "" are no time (a job not started, a period still open);
//   - durations as Elapsed and Timelimit print them: "MM:SS", "HH:MM:SS", "D-HH:MM:SS" (also
//     the forms Slurm accepts on input: "MM", "D-HH", "D-HH:MM"); "UNLIMITED",
//     "Partition_Limit" and "INVALID" are no duration;
//   - host lists: "cn[001-004,007]", "a[1-2],b3", "r[1-2]n[1-3]" (every combination).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultsweep::slurm {

// "UTC", "Z", "+HH:MM", "-HH:MM", "+HHMM", "+HH" (also "UTC+02:00"): the offset from UTC of the
// times in a dump, in seconds east; nullopt if the text is none of these.
std::optional<double> parse_utc_offset(std::string_view text);

// True for the texts Slurm prints where it has no time: "Unknown", "None", "" (any case).
bool is_no_time(std::string_view text);

// Seconds since 1970-01-01 00:00 UTC of "YYYY-MM-DDTHH:MM:SS" (a blank instead of the 'T' is
// accepted) at `utc_offset_s`, or at the time's own zone when one follows it ("Z", "+01:00",
// "+0100" as SLURM_TIME_FORMAT="%FT%T%z" prints it); nullopt if the text is not such a time or
// names no real date or time (Feb 30, hour 24, years outside 1900 .. 9999).
std::optional<double> parse_time(std::string_view text, double utc_offset_s);

struct Duration {
  enum class Kind { seconds, unlimited, partition_limit, invalid };
  Kind kind = Kind::seconds;
  double seconds = 0;  // kind == seconds
};

// A Slurm duration (see above); nullopt if the text is none of its forms.
std::optional<Duration> parse_duration(std::string_view text);

// The node names of a host list, in its order; nullopt (with `why`) if the text is not one
// (unbalanced brackets, a range whose end is below its start, more than `max_names` names).
std::optional<std::vector<std::string>> expand_hostlist(std::string_view text, std::string& why,
                                                        std::size_t max_names = 1u << 24);

// The count of `key` in a TRES list "billing=4,cpu=4,mem=8G,node=1": 0 if the list has none,
// nullopt if its value is not an integer.
std::optional<std::int64_t> tres_count(std::string_view tres, std::string_view key);

// Whether a comma-separated field ("batch" or, for a job pending in several partitions,
// "batch,debug") names one of `names`.
bool in_list(std::string_view field, const std::vector<std::string>& names);

// The order in which node names are numbered: by their text, but runs of digits compared as
// numbers ("cn2" before "cn10"; "cn02" before "cn2" when the numbers are equal).
bool node_name_less(std::string_view a, std::string_view b);

}  // namespace faultsweep::slurm
