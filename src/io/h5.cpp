#include "faultsweep/io/h5.hpp"

#include "deflate_chunks.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace faultsweep::io {
namespace {

// HDF5's error stack: the whole text (for --verbose) and the reason to show on one line, the
// system's message if a call into the OS failed ("No space left on device"), else the innermost
// description.
struct Stack {
  std::string text, innermost, system;
};

herr_t walk_cb(unsigned n, const H5E_error2_t* e, void* data) {
  auto* out = static_cast<Stack*>(data);
  const std::string desc = e->desc ? e->desc : "";
  out->text += fmt::format("\n  #{:03} {}(): {}", n, e->func_name ? e->func_name : "?", desc);
  if (!desc.empty()) out->innermost = desc;
  const std::string tag = "error message = '";
  const auto at = desc.find(tag);
  if (at != std::string::npos && out->system.empty()) {
    const auto from = at + tag.size();
    out->system = desc.substr(from, desc.find('\'', from) - from);
  }
  return 0;
}

std::atomic<bool> verbose{false};

void quiet_hdf5() {
  static std::once_flag once;
  std::call_once(once, [] {
    // No exit handler: should a file ever be left open by an error, H5_term_library would
    // crash closing it at exit (HDF5 1.10); every file we write is closed explicitly.
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  });
}

[[noreturn]] void fail(const std::string& call, const std::string& what, const std::string& file) {
  Stack stack;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &stack);
  H5Eclear2(H5E_DEFAULT);
  const std::string& reason = stack.system.empty() ? stack.innermost : stack.system;
  std::string msg =
      fmt::format("HDF5 error in {}{} on file {}{}", call, what.empty() ? "" : " (" + what + ")",
                  file, reason.empty() ? "" : ": " + reason);
  if (stack.text.empty()) throw H5Error(msg);
  throw H5Error(verbose_errors() ? msg + "; HDF5 error stack:" + stack.text
                                 : msg + " (--verbose shows HDF5's error stack)");
}

hid_t check(hid_t id, const char* call, const std::string& what, const std::string& file) {
  if (id < 0) fail(call, what, file);
  return id;
}

void check_err(herr_t r, const char* call, const std::string& what, const std::string& file) {
  if (r < 0) fail(call, what, file);
}

Handle string_type() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return Handle(t, H5Tclose);
}

Handle scalar_space() {
  return Handle(H5Screate(H5S_SCALAR), H5Sclose);
}

Handle make_attr(hid_t obj, const std::string& name, hid_t type, const std::string& file) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle space = scalar_space();
  return Handle(check(H5Acreate2(obj, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT),
                      "H5Acreate2", name, file),
                H5Aclose);
}

template <class T>
void write_num_attr(hid_t obj, const std::string& name, hid_t type, T v, const std::string& file) {
  Handle a = make_attr(obj, name, type, file);
  check_err(H5Awrite(a.id(), type, &v), "H5Awrite", name, file);
}

template <class T>
T read_num_attr(hid_t obj, const std::string& name, hid_t mem_type, const std::string& file) {
  Handle a(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "H5Aopen", name, file), H5Aclose);
  T v{};
  check_err(H5Aread(a.id(), mem_type, &v), "H5Aread", name, file);
  return v;
}

Handle make_dataset(hid_t parent, const std::string& name, hid_t type,
                    const std::vector<hsize_t>& dims, const std::string& file) {
  Handle space(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                     "H5Screate_simple", name, file),
               H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  hsize_t total = 1;
  for (hsize_t d : dims) total *= d;
  // Larger tables (/results, /runs, fit's columns) chunked and deflated at level 1
  // (write_deflated): on fit's per-node doubles 2.4% larger than level 4 for three quarters of the
  // time.
  if (total >= 4096) {
    std::vector<hsize_t> chunk = dims;
    if (chunk.size() == 2)
      chunk[0] =
          std::max<hsize_t>(1, std::min<hsize_t>(dims[0], 65536 / std::max<hsize_t>(1, dims[1])));
    else
      chunk[0] = std::min<hsize_t>(dims[0], 65536);
    H5Pset_chunk(dcpl.id(), static_cast<int>(chunk.size()), chunk.data());
    H5Pset_deflate(dcpl.id(), 1);
  }
  return Handle(
      check(H5Dcreate2(parent, name.c_str(), type, space.id(), H5P_DEFAULT, dcpl.id(), H5P_DEFAULT),
            "H5Dcreate2", name, file),
      H5Dclose);
}

Handle open_dataset(hid_t parent, const std::string& name, std::vector<hsize_t>& dims,
                    const std::string& file) {
  Handle d(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "H5Dopen2", name, file), H5Dclose);
  Handle space(H5Dget_space(d.id()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  dims.assign(static_cast<std::size_t>(std::max(rank, 0)), 0);
  if (rank > 0) H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  return d;
}

hsize_t count(const std::vector<hsize_t>& dims) {
  hsize_t n = 1;
  for (hsize_t d : dims) n *= d;
  return n;
}

}  // namespace

void check_call(herr_t r, const char* call, const std::string& what, const std::string& file) {
  check_err(r, call, what, file);
}

void set_verbose_errors(bool on) {
  verbose = on;
}

bool verbose_errors() {
  if (verbose) return true;
  const char* env = std::getenv("FAULTSWEEP_VERBOSE");
  return env != nullptr && *env != '\0' && std::string(env) != "0";
}

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && closer_) closer_(id_);
    id_ = o.id_;
    closer_ = o.closer_;
    o.id_ = -1;
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0 && closer_) closer_(id_);
}

File File::create(const std::filesystem::path& path) {
  quiet_hdf5();
  const std::string p = path.string();
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  const hid_t id = H5Fcreate(p.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) {
    // A file there now that was not there before is what this call began (a full disk).
    if (!existed) std::filesystem::remove(path, ec);
    fail("H5Fcreate", "create", p);
  }
  return File(Handle(id, H5Fclose), p);
}

File File::open_read(const std::filesystem::path& path) {
  quiet_hdf5();
  const std::string p = path.string();
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) throw H5Error(fmt::format("{}: no such file", p));
  if (!std::filesystem::is_regular_file(st))
    throw H5Error(fmt::format("{}: is not a regular file (a folder, device or FIFO)", p));
  const hid_t id = H5Fopen(p.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) {
    // The innermost message of HDF5's stack says why ("file signature not found", "truncated
    // file: eof = ...").
    std::string why;
    H5Ewalk2(
        H5E_DEFAULT, H5E_WALK_DOWNWARD,
        [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
          if (e->desc) *static_cast<std::string*>(data) = e->desc;
          return 0;
        },
        &why);
    H5Eclear2(H5E_DEFAULT);
    throw H5Error(
        fmt::format("{}: not an HDF5 file ({})", p, why.empty() ? "cannot open it" : why));
  }
  return File(Handle(id, H5Fclose), p);
}

void File::close() {
  if (h_.id() < 0) return;
  const herr_t r = H5Fclose(h_.id());
  // A failed H5Fclose leaves the file half closed in HDF5 1.10: a second H5Fclose, or the exit
  // handler's, would crash. Never touch the id again (H5dont_atexit covers the exit).
  h_.release();
  check_err(r, "H5Fclose", "close", path_);
}

void File::discard() noexcept {
  if (h_.id() >= 0) {
    // Free the space the partial file holds, so that the close, which writes the remaining
    // metadata, succeeds on a full disk; its content does not matter any more.
    (void)::truncate(path_.c_str(), 0);
    (void)H5Fclose(h_.id());
    h_.release();
    H5Eclear2(H5E_DEFAULT);
  }
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void File::flush() {
  check_err(H5Fflush(h_.id(), H5F_SCOPE_GLOBAL), "H5Fflush", "", path_);
}

Handle create_group(hid_t parent, const std::string& name, const std::string& file) {
  return Handle(check(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "H5Gcreate2", name, file),
                H5Gclose);
}

Handle open_group(hid_t parent, const std::string& name, const std::string& file) {
  return Handle(check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "H5Gopen2", name, file),
                H5Gclose);
}

bool exists(hid_t parent, const std::string& name) {
  return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

void write_attr(hid_t obj, const std::string& name, const std::string& value,
                const std::string& file) {
  Handle t = string_type();
  Handle a = make_attr(obj, name, t.id(), file);
  const char* p = value.c_str();
  check_err(H5Awrite(a.id(), t.id(), &p), "H5Awrite", name, file);
}
void write_attr(hid_t obj, const std::string& name, std::int64_t value, const std::string& file) {
  write_num_attr(obj, name, H5T_NATIVE_INT64, value, file);
}
void write_attr(hid_t obj, const std::string& name, std::uint64_t value, const std::string& file) {
  write_num_attr(obj, name, H5T_NATIVE_UINT64, value, file);
}
void write_attr(hid_t obj, const std::string& name, double value, const std::string& file) {
  write_num_attr(obj, name, H5T_NATIVE_DOUBLE, value, file);
}

bool has_attr(hid_t obj, const std::string& name) {
  return H5Aexists(obj, name.c_str()) > 0;
}

std::string read_attr_string(hid_t obj, const std::string& name, const std::string& file) {
  Handle a(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "H5Aopen", name, file), H5Aclose);
  Handle ft(H5Aget_type(a.id()), H5Tclose);
  if (H5Tget_class(ft.id()) != H5T_STRING)
    throw H5Error(fmt::format("{}: attribute {} is not a string", file, name));
  if (H5Tis_variable_str(ft.id()) > 0) {
    Handle t = string_type();
    char* p = nullptr;
    check_err(H5Aread(a.id(), t.id(), &p), "H5Aread", name, file);
    std::string s = p ? p : "";
    H5free_memory(p);
    return s;
  }
  const std::size_t n = H5Tget_size(ft.id());
  std::string s(n, '\0');
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.id(), n);
  check_err(H5Aread(a.id(), t.id(), s.data()), "H5Aread", name, file);
  return s.substr(0, s.find('\0'));
}

std::int64_t read_attr_int(hid_t obj, const std::string& name, const std::string& file) {
  return read_num_attr<std::int64_t>(obj, name, H5T_NATIVE_INT64, file);
}
std::uint64_t read_attr_uint(hid_t obj, const std::string& name, const std::string& file) {
  return read_num_attr<std::uint64_t>(obj, name, H5T_NATIVE_UINT64, file);
}
double read_attr_double(hid_t obj, const std::string& name, const std::string& file) {
  return read_num_attr<double>(obj, name, H5T_NATIVE_DOUBLE, file);
}

void write_doubles(hid_t parent, const std::string& name, const std::vector<double>& data,
                   const std::vector<hsize_t>& dims, const std::string& file) {
  FS_CHECK(count(dims) == data.size(), "dataset size mismatch for " + name);
  Handle d = make_dataset(parent, name, H5T_IEEE_F64LE, dims, file);
  if (!data.empty() && !(H5Tequal(H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE) > 0 &&
                         write_deflated(d.id(), data.data(), dims, sizeof(double), name, file)))
    check_err(H5Dwrite(d.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
              "H5Dwrite", name, file);
}

void write_u8(hid_t parent, const std::string& name, const std::vector<std::uint8_t>& data,
              const std::vector<hsize_t>& dims, const std::string& file) {
  FS_CHECK(count(dims) == data.size(), "dataset size mismatch for " + name);
  Handle d = make_dataset(parent, name, H5T_STD_U8LE, dims, file);
  if (!data.empty() && !write_deflated(d.id(), data.data(), dims, 1, name, file))
    check_err(H5Dwrite(d.id(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
              "H5Dwrite", name, file);
}

void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& data,
                   const std::string& file) {
  Handle t = string_type();
  Handle d = make_dataset(parent, name, t.id(), {data.size()}, file);
  std::vector<const char*> ptrs;
  ptrs.reserve(data.size());
  for (const auto& s : data) ptrs.push_back(s.c_str());
  if (!data.empty())
    check_err(H5Dwrite(d.id(), t.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "H5Dwrite",
              name, file);
}

void describe(hid_t parent, const std::string& name, const std::string& units,
              const std::string& description, const std::string& file) {
  Handle o(check(H5Oopen(parent, name.c_str(), H5P_DEFAULT), "H5Oopen", name, file), H5Oclose);
  write_attr(o.id(), "units", units, file);
  write_attr(o.id(), "description", description, file);
}

std::vector<double> read_doubles(hid_t parent, const std::string& name, std::vector<hsize_t>& dims,
                                 const std::string& file) {
  Handle d = open_dataset(parent, name, dims, file);
  std::vector<double> out(count(dims));
  if (!out.empty())
    check_err(H5Dread(d.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              "H5Dread", name, file);
  return out;
}

std::vector<std::uint8_t> read_u8(hid_t parent, const std::string& name, std::vector<hsize_t>& dims,
                                  const std::string& file) {
  Handle d = open_dataset(parent, name, dims, file);
  std::vector<std::uint8_t> out(count(dims));
  if (!out.empty())
    check_err(H5Dread(d.id(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              "H5Dread", name, file);
  return out;
}

std::vector<std::string> read_strings(hid_t parent, const std::string& name,
                                      const std::string& file) {
  std::vector<hsize_t> dims;
  Handle d = open_dataset(parent, name, dims, file);
  Handle t = string_type();
  std::vector<char*> ptrs(count(dims), nullptr);
  if (!ptrs.empty())
    check_err(H5Dread(d.id(), t.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "H5Dread", name,
              file);
  std::vector<std::string> out;
  out.reserve(ptrs.size());
  for (char* p : ptrs) {
    out.emplace_back(p ? p : "");
    H5free_memory(p);
  }
  return out;
}

bool is_string_dataset(hid_t parent, const std::string& name, const std::string& file) {
  Handle d(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "H5Dopen2", name, file), H5Dclose);
  Handle t(H5Dget_type(d.id()), H5Tclose);
  return H5Tget_class(t.id()) == H5T_STRING;
}

}  // namespace faultsweep::io
