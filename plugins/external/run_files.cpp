// Files, ports and key logs of one external run.
#include "run_files.hpp"

#include "child_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace external {

namespace {

// Runs openssl with `args` in `dir`; empty, or why it failed.
std::string run_openssl(const std::string& openssl, std::vector<std::string> args, const std::string& dir) {
  args.insert(args.begin(), openssl);
  ChildProcess p(args, {}, dir + "/openssl", dir);
  if (!p.error().empty()) return p.error();
  const auto status = p.wait_for(std::chrono::seconds(20));
  if (status == 0) return {};
  p.stop(std::chrono::milliseconds(0));
  return "openssl " + args[1] + " failed: " + p.stderr_tail();
}

std::string base64(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 2]);
    out.push_back(alphabet[(n >> 18) & 63]);
    out.push_back(alphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? alphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? alphabet[n & 63] : '=');
  }
  return out;
}

}  // namespace

std::string make_certificate(const std::string& openssl, const std::string& dir, std::size_t padding_bytes) {
  const std::vector<std::string> p256 = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                         "-days", "2"};
  std::vector<std::string> ca = {"req", "-x509", "-keyout", "ca-key.pem", "-out", "ca.pem", "-subj",
                                 "/CN=conform test CA"};
  ca.insert(ca.end(), p256.begin(), p256.end());
  if (auto why = run_openssl(openssl, ca, dir); !why.empty()) return why;
  std::vector<std::string> leaf = {"req", "-x509", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-keyout", "key.pem",
                                   "-out", "cert.pem", "-subj", "/CN=localhost",
                                   "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                                   "-addext", "basicConstraints=critical,CA:FALSE",
                                   "-addext", "extendedKeyUsage=serverAuth"};
  // The OID the in-house certificate pads with, under IANA's enterprise
  // number for documentation (RFC 5612); receivers ignore an unknown
  // non-critical extension (RFC 5280 §4.2).
  if (padding_bytes > 0)
    leaf.insert(leaf.end(), {"-addext", "1.3.6.1.4.1.32473.1=ASN1:UTF8String:" + std::string(padding_bytes, 'p')});
  leaf.insert(leaf.end(), p256.begin(), p256.end());
  return run_openssl(openssl, leaf, dir);
}

std::string spki_pin(const std::string& openssl, const std::string& dir, std::string& problem) {
  problem = run_openssl(openssl, {"x509", "-in", "cert.pem", "-pubkey", "-noout", "-out", "spki.pem"}, dir);
  if (problem.empty())
    problem = run_openssl(openssl, {"pkey", "-pubin", "-in", "spki.pem", "-outform", "der", "-out", "spki.der"}, dir);
  if (problem.empty())
    problem = run_openssl(openssl, {"dgst", "-sha256", "-binary", "-out", "spki.sha256", "spki.der"}, dir);
  if (!problem.empty()) return {};
  std::ifstream in(dir + "/spki.sha256", std::ios::binary);
  const std::string digest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (digest.size() != 32) {
    problem = "openssl dgst wrote " + std::to_string(digest.size()) + " bytes to spki.sha256, not 32";
    return {};
  }
  return base64(digest);
}

bool write_body(const std::string& path, std::int64_t bytes) {
  std::ofstream out(path, std::ios::binary);
  std::string chunk;
  for (int i = 0; i < 4096; ++i) chunk.push_back(static_cast<char>('a' + i % 26));
  for (std::int64_t left = bytes; left > 0; left -= static_cast<std::int64_t>(chunk.size()))
    out.write(chunk.data(), static_cast<std::streamsize>(std::min<std::int64_t>(left, chunk.size())));
  return static_cast<bool>(out);
}

bool write_page(const std::string& htdocs, std::int64_t count) {
  std::ofstream page(htdocs + "/page.html");
  page << "<!DOCTYPE html>\n<html><head><title>conform</title><link rel=\"icon\" href=\"data:,\"></head><body>\n";
  for (std::int64_t i = 1; i <= count; ++i) {
    const std::string name = "r" + std::to_string(i) + ".bin";
    std::error_code ec;
    std::filesystem::remove(htdocs + "/" + name, ec);
    std::filesystem::create_hard_link(htdocs + "/response.bin", htdocs + "/" + name, ec);
    if (ec) return false;
    page << "<img src=\"/" << name << "\">\n";
  }
  page << "</body></html>\n";
  return static_cast<bool>(page);
}

std::uint16_t free_udp_port() {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  std::uint16_t port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

bool udp_port_bound(std::uint16_t port) {
  // Lines read "  N: 0100007F:1151 00000000:0000 07 ...": local address:port in hex.
  // /proc/net is the main thread's namespace; the plugin's may be private.
  for (const char* table : {"/proc/thread-self/net/udp", "/proc/thread-self/net/udp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local;
      fields >> slot >> local;
      const auto colon = local.rfind(':');
      if (colon != std::string::npos && std::stoul(local.substr(colon + 1), nullptr, 16) == port) return true;
    }
  }
  return false;
}

void ThrowawayDirs::remove() {
  for (const auto& d : paths) {
    std::error_code ec;
    std::filesystem::remove_all(d, ec);
  }
}

std::vector<std::string> key_log_lines(const std::vector<std::string>& files) {
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (const auto& f : files) {
    // A FIFO or a device (a program's {keylog} made one) would block the
    // reading or never end it: only a regular file is a key log.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(f, ec)) continue;
    std::ifstream in(f);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#' || !seen.insert(line).second) continue;
      lines.push_back(line);
    }
  }
  return lines;
}

}  // namespace external
