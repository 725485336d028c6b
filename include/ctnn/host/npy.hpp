// Host-only: NumPy .npy files of float32 (format 1.0, 2.0 and 3.0 read; 1.0 written), C order,
// little-endian '<f4', as numpy.save writes them, and int8 ('|i1') written; integer arrays (class
// labels) read by read_npy_int. Reading refuses any other type with a message.
#pragma once
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ctnn::host {

struct npy_array {
  std::vector<std::int64_t> shape;
  std::vector<float> data;
};

namespace detail {
/// A .npy file's header facts and its data bytes, before the element type is interpreted.
struct npy_raw {
  std::string descr;  // as written, quotes included: '<f4'
  std::vector<std::int64_t> shape;
  std::int64_t count = 1;
  std::string bytes;  // the whole file
  std::size_t data_at = 0;
};

/// Reads the header of a .npy file (format 1.0, 2.0 or 3.0, C order); throws std::runtime_error
/// naming the file and the fault.
inline npy_raw read_npy_raw(const std::string& path) {
  auto fail = [&](const std::string& what) -> npy_raw { throw std::runtime_error(path + ": " + what); };
  std::ifstream f(path, std::ios::binary);
  if (!f) return fail("cannot open the file");
  std::stringstream ss;
  ss << f.rdbuf();
  npy_raw r;
  r.bytes = ss.str();
  const std::string& b = r.bytes;
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0) return fail("not a .npy file");
  const int major = static_cast<unsigned char>(b[6]);
  std::size_t header_len = 0, at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(b[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(b[9])) << 8);
    at = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) return fail("truncated header");
    for (std::size_t k = 0; k < 4; ++k) header_len |= static_cast<std::size_t>(static_cast<unsigned char>(b[8 + k])) << (8 * k);
    at = 12;
  } else {
    return fail("unknown .npy format version " + std::to_string(major));
  }
  if (b.size() < at + header_len) return fail("truncated header");
  const std::string h = b.substr(at, header_len);
  auto value_of = [&](const std::string& key) -> std::string {
    const std::size_t k = h.find("'" + key + "'");
    if (k == std::string::npos) return {};
    std::size_t v = h.find(':', k);
    if (v == std::string::npos) return {};
    ++v;
    while (v < h.size() && h[v] == ' ') ++v;
    if (v < h.size() && h[v] == '(') return h.substr(v, h.find(')', v) - v + 1);
    std::size_t e = v;
    while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
    return h.substr(v, e - v);
  };
  r.descr = value_of("descr");
  if (value_of("fortran_order").rfind("False", 0) != 0) return fail("Fortran order (expected C order)");
  const std::string shp = value_of("shape");
  if (shp.empty() || shp[0] != '(') return fail("no shape in the header");
  std::string num;
  for (std::size_t i = 1; i < shp.size(); ++i) {
    const char c = shp[i];
    if (c >= '0' && c <= '9') {
      num += c;
    } else if (c == ',' || c == ')') {
      if (!num.empty()) {
        if (num.size() > 12) return fail("a dimension is too large");
        r.shape.push_back(std::stoll(num));
        r.count *= r.shape.back();
        num.clear();
      }
    } else if (c != ' ' && c != 'L') {
      return fail("malformed shape " + shp);
    }
  }
  r.data_at = at + header_len;
  return r;
}

/// Throws unless the file holds exactly count * element_bytes data bytes.
inline void check_npy_size(const std::string& path, const npy_raw& r, std::int64_t element_bytes) {
  if (r.bytes.size() - r.data_at != static_cast<std::size_t>(r.count * element_bytes))
    throw std::runtime_error(path + ": holds " + std::to_string(r.bytes.size() - r.data_at) +
                             " data bytes, its shape needs " + std::to_string(r.count * element_bytes));
}
}  // namespace detail

/// @brief Reads a float32 .npy file; throws std::runtime_error naming the file and the fault.
inline npy_array read_npy(const std::string& path) {
  const detail::npy_raw r = detail::read_npy_raw(path);
  if (r.descr != "'<f4'" && r.descr != "'float32'")
    throw std::runtime_error(path + ": dtype " + r.descr + " (expected float32, '<f4')");
  detail::check_npy_size(path, r, 4);
  npy_array a;
  a.shape = r.shape;
  a.data.resize(static_cast<std::size_t>(r.count));
  if (r.count > 0) std::memcpy(a.data.data(), r.bytes.data() + r.data_at, static_cast<std::size_t>(r.count) * 4);
  return a;
}

/// An integer .npy array (class labels), widened to int64.
struct npy_int_array {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> data;
};

/// @brief Reads a little-endian integer .npy file (int8, uint8, int16, int32 or int64, as numpy
/// writes class labels); throws std::runtime_error naming the file and the fault.
inline npy_int_array read_npy_int(const std::string& path) {
  const detail::npy_raw r = detail::read_npy_raw(path);
  struct kind {
    const char* descr;
    std::int64_t bytes;
    bool is_signed;
  };
  static constexpr kind kinds[] = {{"'|i1'", 1, true}, {"'|u1'", 1, false}, {"'<i2'", 2, true},
                                   {"'<i4'", 4, true}, {"'<i8'", 8, true}};
  const kind* k = nullptr;
  for (const kind& c : kinds)
    if (r.descr == c.descr) k = &c;
  if (k == nullptr)
    throw std::runtime_error(path + ": dtype " + r.descr + " (expected an integer type: '|i1', '|u1', '<i2', '<i4' or '<i8')");
  detail::check_npy_size(path, r, k->bytes);
  npy_int_array a;
  a.shape = r.shape;
  a.data.resize(static_cast<std::size_t>(r.count));
  const auto* p = reinterpret_cast<const unsigned char*>(r.bytes.data() + r.data_at);
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    std::uint64_t v = 0;
    const auto n = static_cast<std::size_t>(k->bytes);
    for (std::size_t j = 0; j < n; ++j) v |= static_cast<std::uint64_t>(p[i * n + j]) << (8 * j);
    if (k->is_signed && n < 8 && (v >> (8 * n - 1)) != 0) v |= ~std::uint64_t{0} << (8 * n);  // sign-extend
    std::int64_t s = 0;
    std::memcpy(&s, &v, sizeof s);
    a.data[i] = s;
  }
  return a;
}

/// @brief Writes a .npy file (format 1.0) of float32 ('<f4') or int8 ('|i1') elements; false when
/// the file cannot be written.
template <class T>
inline bool write_npy(const std::string& path, const std::vector<std::int64_t>& shape, const T* data) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int8_t>, "ctnn::host::write_npy: float or int8_t");
  const char* descr = std::is_same_v<T, float> ? "<f4" : "|i1";
  std::string dims;
  std::int64_t count = 1;
  for (std::int64_t d : shape) {
    dims += std::to_string(d) + ",";
    count *= d;
  }
  if (shape.size() > 1) dims.pop_back();
  std::string h = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(h.size() & 0xFF);
  out += static_cast<char>(h.size() >> 8);
  out += h;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * static_cast<std::int64_t>(sizeof(T))));
  f.close();
  return static_cast<bool>(f);
}

}  // namespace ctnn::host
