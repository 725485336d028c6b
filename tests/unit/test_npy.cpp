// ctnn/host/npy.hpp: float32 and integer .npy files as numpy writes them (format 1.0 and 2.0),
// and the refusals, each naming the file and the fault.
#include "ctnn/host/npy.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "doctest/doctest.h"

namespace {

/// A .npy file of the given descr, shape text and raw data bytes (format `major`.0).
std::string npy_bytes(const std::string& descr, const std::string& shape, const std::string& data, int major = 1) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const std::size_t len = h.size();
  out += static_cast<char>(len & 0xFF);
  out += static_cast<char>((len >> 8) & 0xFF);
  if (major != 1) out += std::string(2, '\0');
  return out + h + data;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = "ctnn_test_npy_" + name + ".npy";
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

/// Little-endian bytes of n-byte integers.
std::string le(const std::vector<long long>& v, int n) {
  std::string s;
  for (const long long x : v) {
    const auto u = static_cast<unsigned long long>(x);
    for (int k = 0; k < n; ++k) s += static_cast<char>((u >> (8 * k)) & 0xFF);
  }
  return s;
}

std::string error_of(const std::string& path, bool integer) {
  try {
    if (integer) ctnn::host::read_npy_int(path);
    else ctnn::host::read_npy(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("read_npy_int: every integer dtype numpy writes for labels, sign-extended") {
  const std::vector<long long> v{0, 1, -1, 9, -128, 127};
  struct kind {
    const char* descr;
    int bytes;
  } kinds[] = {{"<i8", 8}, {"<i4", 4}, {"<i2", 2}, {"|i1", 1}};
  for (const kind& k : kinds) {
    CAPTURE(k.descr);
    const std::string path = write_temp(std::string("int") + std::to_string(k.bytes),
                                        npy_bytes(k.descr, "(2, 3)", le(v, k.bytes)));
    const ctnn::host::npy_int_array a = ctnn::host::read_npy_int(path);
    CHECK(a.shape == std::vector<std::int64_t>{2, 3});
    CHECK(a.data == std::vector<std::int64_t>(v.begin(), v.end()));
    std::remove(path.c_str());
  }
  // uint8: no sign extension
  const std::string path = write_temp("u8", npy_bytes("|u1", "(3,)", std::string("\x00\x80\xff", 3)));
  CHECK(ctnn::host::read_npy_int(path).data == std::vector<std::int64_t>{0, 128, 255});
  std::remove(path.c_str());
  // int64 extremes, format 2.0
  const std::string big = write_temp("big", npy_bytes("<i8", "(2,)", le({-9223372036854775807LL - 1, 9223372036854775807LL}, 8), 2));
  CHECK(ctnn::host::read_npy_int(big).data == std::vector<std::int64_t>{INT64_MIN, INT64_MAX});
  std::remove(big.c_str());
}

TEST_CASE("read_npy_int and read_npy refuse the other's dtypes and short files, naming the file") {
  const std::string f32 = write_temp("f32", npy_bytes("<f4", "(2,)", std::string(8, '\0')));
  CHECK(ctnn::host::read_npy(f32).data == std::vector<float>{0.0f, 0.0f});
  CHECK(error_of(f32, true) == f32 + ": dtype '<f4' (expected an integer type: '|i1', '|u1', '<i2', '<i4' or '<i8')");
  const std::string i8 = write_temp("i64", npy_bytes("<i8", "(2,)", le({1, 2}, 8)));
  CHECK(error_of(i8, false) == i8 + ": dtype '<i8' (expected float32, '<f4')");
  const std::string big_endian = write_temp("be", npy_bytes(">i4", "(1,)", le({1}, 4)));
  CHECK(error_of(big_endian, true).find(": dtype '>i4' (expected an integer type") != std::string::npos);
  const std::string short_file = write_temp("short", npy_bytes("<i4", "(3,)", le({1, 2}, 4)));
  CHECK(error_of(short_file, true) == short_file + ": holds 8 data bytes, its shape needs 12");
  const std::string not_npy = write_temp("not", "hello, world");
  CHECK(error_of(not_npy, true) == not_npy + ": not a .npy file");
  CHECK(error_of("ctnn_test_npy_missing.npy", true) == "ctnn_test_npy_missing.npy: cannot open the file");
  for (const std::string& p : {f32, i8, big_endian, short_file, not_npy}) std::remove(p.c_str());
}
