// Files, ports and key logs of one external run.
#include "run_files.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace external {

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
