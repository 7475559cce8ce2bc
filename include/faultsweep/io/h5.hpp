#pragma once
// A thin RAII layer over the HDF5 C API. Every failure throws H5Error carrying the file, the
// failing call and the reason on one line (the system's message, e.g. "No space left on
// device", or HDF5's innermost one); HDF5's automatic error printing is switched off. HDF5's
// whole error stack is added only when verbose_errors().
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "faultsweep/core/error.hpp"

namespace faultsweep::io {

class H5Error : public IoError {
 public:
  using IoError::IoError;
};

// Whether H5Error messages carry HDF5's error stack: set by `--verbose`, or by the environment
// variable FAULTSWEEP_VERBOSE (not empty, not "0"), which reaches every MPI rank.
void set_verbose_errors(bool on);
bool verbose_errors();

// Owns one hid_t and closes it with the matching H5*close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t id() const { return id_; }
  void release() { id_ = -1; }  // the id was closed by other means

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

class File {
 public:
  // Creates a new file, failing if it exists.
  static File create(const std::filesystem::path& path);
  static File open_read(const std::filesystem::path& path);
  hid_t id() const { return h_.id(); }
  const std::string& path() const { return path_; }
  void flush();
  // Closes the file now; throws H5Error if HDF5 cannot (e.g. the disk is full: the last metadata
  // is written at close). Either way the id is given up (HDF5 1.10 cannot retry a close).
  void close();
  // For error paths: frees the disk space the file holds (truncates it to 0 bytes) so that a
  // close that failed on a full disk can succeed, closes it, and removes it. Never throws.
  void discard() noexcept;

 private:
  File(Handle h, std::string path) : h_(std::move(h)), path_(std::move(path)) {}
  Handle h_;
  std::string path_;
};

// Threads that compress the chunks of a large array (default 1: an MPI run's ranks use the
// cores). The file holds the same bytes for any number.
void set_compression_threads(unsigned threads);

// Throws H5Error for a failed call (r < 0): the call, `what`, the file and the reason from
// HDF5's error stack on one line (the whole stack with verbose errors).
void check_call(herr_t r, const char* call, const std::string& what, const std::string& file);

// Where errors say they happened: the file name is attached by the caller's context.
Handle create_group(hid_t parent, const std::string& name, const std::string& file);
Handle open_group(hid_t parent, const std::string& name, const std::string& file);
bool exists(hid_t parent, const std::string& name);

void write_attr(hid_t obj, const std::string& name, const std::string& value,
                const std::string& file);
void write_attr(hid_t obj, const std::string& name, std::int64_t value, const std::string& file);
void write_attr(hid_t obj, const std::string& name, std::uint64_t value, const std::string& file);
void write_attr(hid_t obj, const std::string& name, double value, const std::string& file);
bool has_attr(hid_t obj, const std::string& name);
std::string read_attr_string(hid_t obj, const std::string& name, const std::string& file);
std::int64_t read_attr_int(hid_t obj, const std::string& name, const std::string& file);
std::uint64_t read_attr_uint(hid_t obj, const std::string& name, const std::string& file);
double read_attr_double(hid_t obj, const std::string& name, const std::string& file);

// Datasets of 1 or 2 dimensions, chunked and deflate-compressed when larger than `chunk_min`.
void write_doubles(hid_t parent, const std::string& name, const std::vector<double>& data,
                   const std::vector<hsize_t>& dims, const std::string& file);
void write_u8(hid_t parent, const std::string& name, const std::vector<std::uint8_t>& data,
              const std::vector<hsize_t>& dims, const std::string& file);
void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& data,
                   const std::string& file);
// Sets `units` and `description` on an existing dataset or group.
void describe(hid_t parent, const std::string& name, const std::string& units,
              const std::string& description, const std::string& file);

std::vector<double> read_doubles(hid_t parent, const std::string& name, std::vector<hsize_t>& dims,
                                 const std::string& file);
std::vector<std::uint8_t> read_u8(hid_t parent, const std::string& name, std::vector<hsize_t>& dims,
                                  const std::string& file);
std::vector<std::string> read_strings(hid_t parent, const std::string& name,
                                      const std::string& file);
// True if the dataset holds strings (of any kind), false for numbers.
bool is_string_dataset(hid_t parent, const std::string& name, const std::string& file);

}  // namespace faultsweep::io
