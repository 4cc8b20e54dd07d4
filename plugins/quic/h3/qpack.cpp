// QPACK encoding and decoding against the static table only (RFC 9204 §3.1,
// §4.5, Appendix A), with HPACK's prefixed integers (RFC 7541 §5.1).
#include "h3/qpack.hpp"

#include <array>
#include <string_view>

#include "h3/huffman.hpp"

namespace conform::quic::h3 {

namespace {

struct StaticEntry {
  std::string_view name, value;
};

// RFC 9204 Appendix A.
constexpr std::array<StaticEntry, 99> kStaticTable = {{
    {":authority", ""}, {":path", "/"}, {"age", "0"}, {"content-disposition", ""},
    {"content-length", "0"}, {"cookie", ""}, {"date", ""}, {"etag", ""},
    {"if-modified-since", ""}, {"if-none-match", ""}, {"last-modified", ""}, {"link", ""},
    {"location", ""}, {"referer", ""}, {"set-cookie", ""}, {":method", "CONNECT"},
    {":method", "DELETE"}, {":method", "GET"}, {":method", "HEAD"}, {":method", "OPTIONS"},
    {":method", "POST"}, {":method", "PUT"}, {":scheme", "http"}, {":scheme", "https"},
    {":status", "103"}, {":status", "200"}, {":status", "304"}, {":status", "404"},
    {":status", "503"}, {"accept", "*/*"}, {"accept", "application/dns-message"},
    {"accept-encoding", "gzip, deflate, br"}, {"accept-ranges", "bytes"},
    {"access-control-allow-headers", "cache-control"},
    {"access-control-allow-headers", "content-type"}, {"access-control-allow-origin", "*"},
    {"cache-control", "max-age=0"}, {"cache-control", "max-age=2592000"},
    {"cache-control", "max-age=604800"}, {"cache-control", "no-cache"},
    {"cache-control", "no-store"}, {"cache-control", "public, max-age=31536000"},
    {"content-encoding", "br"}, {"content-encoding", "gzip"},
    {"content-type", "application/dns-message"}, {"content-type", "application/javascript"},
    {"content-type", "application/json"}, {"content-type", "application/x-www-form-urlencoded"},
    {"content-type", "image/gif"}, {"content-type", "image/jpeg"}, {"content-type", "image/png"},
    {"content-type", "text/css"}, {"content-type", "text/html; charset=utf-8"},
    {"content-type", "text/plain"}, {"content-type", "text/plain;charset=utf-8"},
    {"range", "bytes=0-"}, {"strict-transport-security", "max-age=31536000"},
    {"strict-transport-security", "max-age=31536000; includesubdomains"},
    {"strict-transport-security", "max-age=31536000; includesubdomains; preload"},
    {"vary", "accept-encoding"}, {"vary", "origin"}, {"x-content-type-options", "nosniff"},
    {"x-xss-protection", "1; mode=block"}, {":status", "100"}, {":status", "204"},
    {":status", "206"}, {":status", "302"}, {":status", "400"}, {":status", "403"},
    {":status", "421"}, {":status", "425"}, {":status", "500"}, {"accept-language", ""},
    {"access-control-allow-credentials", "FALSE"}, {"access-control-allow-credentials", "TRUE"},
    {"access-control-allow-headers", "*"}, {"access-control-allow-methods", "get"},
    {"access-control-allow-methods", "get, post, options"},
    {"access-control-allow-methods", "options"},
    {"access-control-expose-headers", "content-length"},
    {"access-control-request-headers", "content-type"},
    {"access-control-request-method", "get"}, {"access-control-request-method", "post"},
    {"alt-svc", "clear"}, {"authorization", ""},
    {"content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"},
    {"early-data", "1"}, {"expect-ct", ""}, {"forwarded", ""}, {"if-range", ""},
    {"origin", ""}, {"purpose", "prefetch"}, {"server", ""}, {"timing-allow-origin", "*"},
    {"upgrade-insecure-requests", "1"}, {"user-agent", ""}, {"x-forwarded-for", ""},
    {"x-frame-options", "deny"}, {"x-frame-options", "sameorigin"},
}};

// RFC 7541 §5.1: an integer in the low `prefix` bits of the first byte,
// continued in 7-bit groups; `flags` fills the bits above the prefix.
void put_int(Bytes& out, uint8_t flags, int prefix, uint64_t v) {
  const uint64_t max = (uint64_t{1} << prefix) - 1;
  if (v < max) {
    out.push_back(static_cast<uint8_t>(flags | v));
    return;
  }
  out.push_back(static_cast<uint8_t>(flags | max));
  for (v -= max; v >= 128; v >>= 7) out.push_back(static_cast<uint8_t>(0x80 | (v & 0x7f)));
  out.push_back(static_cast<uint8_t>(v));
}

bool get_int(Reader& r, int prefix, uint64_t& v) {
  uint8_t b;
  if (!r.u8(b)) return false;
  const uint64_t max = (uint64_t{1} << prefix) - 1;
  v = b & max;
  if (v < max) return true;
  for (int shift = 0; shift <= 56; shift += 7) {
    if (!r.u8(b)) return false;
    v += uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return true;
  }
  return false;  // longer than any length or index we accept
}

void put_string(Bytes& out, int prefix, std::string_view s) {
  put_int(out, 0, prefix, s.size());  // H = 0: raw octets
  out.insert(out.end(), s.begin(), s.end());
}

// A string literal whose H flag sits just above a `prefix`-bit length.
std::optional<std::string> get_string(Reader& r, int prefix) {
  if (r.empty()) return std::nullopt;
  const bool huffman = r.rest()[0] & (1u << prefix);
  uint64_t len;
  ByteView bytes;
  if (!get_int(r, prefix, len) || !r.bytes(len, bytes)) return std::nullopt;
  if (huffman) return huffman_decode(bytes);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

Bytes qpack_encode(const std::vector<Field>& fields) {
  Bytes out = {0x00, 0x00};  // Required Insert Count 0, Delta Base 0
  for (const Field& f : fields) {
    int name_match = -1, exact = -1;
    for (size_t i = 0; i < kStaticTable.size() && exact < 0; ++i) {
      if (kStaticTable[i].name != f.name) continue;
      if (name_match < 0) name_match = static_cast<int>(i);
      if (kStaticTable[i].value == f.value) exact = static_cast<int>(i);
    }
    if (exact >= 0) {
      put_int(out, 0xc0, 6, static_cast<uint64_t>(exact));  // §4.5.2, T = 1 (static)
    } else if (name_match >= 0) {
      put_int(out, 0x50, 4, static_cast<uint64_t>(name_match));  // §4.5.4, N = 0, T = 1
      put_string(out, 7, f.value);
    } else {
      put_int(out, 0x20, 3, f.name.size());  // §4.5.6, N = 0, H = 0
      out.insert(out.end(), f.name.begin(), f.name.end());
      put_string(out, 7, f.value);
    }
  }
  return out;
}

std::optional<std::vector<Field>> qpack_decode(ByteView section) {
  Reader r(section);
  uint64_t required_insert_count, delta_base;
  if (!get_int(r, 8, required_insert_count) || required_insert_count != 0) return std::nullopt;
  if (!get_int(r, 7, delta_base)) return std::nullopt;
  std::vector<Field> fields;
  while (!r.empty()) {
    const uint8_t b = r.rest()[0];
    uint64_t index;
    if (b & 0x80) {  // indexed field line, §4.5.2
      if (!(b & 0x40) || !get_int(r, 6, index) || index >= kStaticTable.size()) return std::nullopt;
      fields.push_back({std::string(kStaticTable[index].name), std::string(kStaticTable[index].value)});
    } else if (b & 0x40) {  // literal with name reference, §4.5.4
      if (!(b & 0x10) || !get_int(r, 4, index) || index >= kStaticTable.size()) return std::nullopt;
      auto value = get_string(r, 7);
      if (!value) return std::nullopt;
      fields.push_back({std::string(kStaticTable[index].name), std::move(*value)});
    } else if (b & 0x20) {  // literal with literal name, §4.5.6
      auto name = get_string(r, 3);
      auto value = name ? get_string(r, 7) : std::nullopt;
      if (!value) return std::nullopt;
      fields.push_back({std::move(*name), std::move(*value)});
    } else {
      return std::nullopt;  // post-base forms (§4.5.3, §4.5.5) need a dynamic table
    }
  }
  return fields;
}

}  // namespace conform::quic::h3
