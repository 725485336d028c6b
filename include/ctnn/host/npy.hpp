// Host-only: NumPy .npy files of float32 (format 1.0, 2.0 and 3.0 read; 1.0 written), C order,
// little-endian '<f4', as numpy.save writes them, and int8 ('|i1') written. Reading refuses
// anything but float32 with a message.
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

/// @brief Reads a float32 .npy file; throws std::runtime_error naming the file and the fault.
inline npy_array read_npy(const std::string& path) {
  auto fail = [&](const std::string& what) -> npy_array { throw std::runtime_error(path + ": " + what); };
  std::ifstream f(path, std::ios::binary);
  if (!f) return fail("cannot open the file");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string b = ss.str();
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
  const std::string descr = value_of("descr");
  if (descr != "'<f4'" && descr != "'float32'") return fail("dtype " + descr + " (expected float32, '<f4')");
  if (value_of("fortran_order").rfind("False", 0) != 0) return fail("Fortran order (expected C order)");
  const std::string shp = value_of("shape");
  if (shp.empty() || shp[0] != '(') return fail("no shape in the header");
  npy_array a;
  std::int64_t count = 1;
  std::string num;
  for (std::size_t i = 1; i < shp.size(); ++i) {
    const char c = shp[i];
    if (c >= '0' && c <= '9') {
      num += c;
    } else if (c == ',' || c == ')') {
      if (!num.empty()) {
        if (num.size() > 12) return fail("a dimension is too large");
        a.shape.push_back(std::stoll(num));
        count *= a.shape.back();
        num.clear();
      }
    } else if (c != ' ' && c != 'L') {
      return fail("malformed shape " + shp);
    }
  }
  const std::size_t data_at = at + header_len;
  if (b.size() - data_at != static_cast<std::size_t>(count) * 4)
    return fail("holds " + std::to_string(b.size() - data_at) + " data bytes, its shape needs " +
                std::to_string(count * 4));
  a.data.resize(static_cast<std::size_t>(count));
  if (count > 0) std::memcpy(a.data.data(), b.data() + data_at, static_cast<std::size_t>(count) * 4);
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
