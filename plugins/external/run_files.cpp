// Files, ports and key logs of one external run.
#include "run_files.hpp"

#include "child_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

namespace external {

std::string make_certificate(const std::string& openssl, const std::string& dir) {
  ChildProcess p({openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                  "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-subj", "/CN=localhost", "-days", "2"},
                 {}, dir + "/openssl");
  if (!p.error().empty()) return p.error();
  const auto status = p.wait_for(std::chrono::seconds(20));
  if (status == 0) return {};
  p.stop(std::chrono::milliseconds(0));
  return "openssl req failed: " + p.stderr_tail();
}

bool write_body(const std::string& path, std::int64_t bytes) {
  std::ofstream out(path, std::ios::binary);
  std::string chunk;
  for (int i = 0; i < 4096; ++i) chunk.push_back(static_cast<char>('a' + i % 26));
  for (std::int64_t left = bytes; left > 0; left -= static_cast<std::int64_t>(chunk.size()))
    out.write(chunk.data(), static_cast<std::streamsize>(std::min<std::int64_t>(left, chunk.size())));
  return static_cast<bool>(out);
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
  for (const char* table : {"/proc/net/udp", "/proc/net/udp6"}) {
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

std::vector<std::string> key_log_lines(const std::vector<std::string>& files) {
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (const auto& f : files) {
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
