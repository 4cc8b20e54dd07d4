// NSS key log parsing.
#include "dissect/key_log.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace conform::dissect {
namespace {

Bytes* slot(TlsSecrets& s, std::string_view label) {
  if (label == "CLIENT_EARLY_TRAFFIC_SECRET") return &s.client_early;
  if (label == "CLIENT_HANDSHAKE_TRAFFIC_SECRET") return &s.client_handshake;
  if (label == "SERVER_HANDSHAKE_TRAFFIC_SECRET") return &s.server_handshake;
  if (label == "CLIENT_TRAFFIC_SECRET_0") return &s.client_application;
  if (label == "SERVER_TRAFFIC_SECRET_0") return &s.server_application;
  return nullptr;
}

bool ignored_label(std::string_view label) {
  return label == "CLIENT_RANDOM" || label == "EXPORTER_SECRET" ||
         label == "EARLY_EXPORTER_SECRET" || label == "EARLY_EXPORTER_MASTER_SECRET" ||
         label == "RSA";
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

KeyLog parse_key_log(std::string_view text, const std::string& file) {
  KeyLog log;
  std::uint32_t line_no = 0;
  std::string_view line;
  // At the field it is about (a view into `line`), else the line's start.
  auto problem = [&](std::string message, std::string_view field = {}) {
    const auto column = field.empty() ? 1u : static_cast<std::uint32_t>(field.data() - line.data() + 1);
    log.problems.push_back({{file, line_no, column}, std::move(message)});
  };
  while (!text.empty()) {
    ++line_no;
    std::size_t eol = text.find('\n');
    line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto f = fields(line);
    if (f.empty() || f[0].front() == '#') continue;
    if (ignored_label(f[0])) {
      // Not used, but still an NSS key log line: hex, as the file copies it
      // on into each connection's folder.
      if (f.size() != 3 || !from_hex(f[1]) || !from_hex(f[2]))
        problem("expected 'LABEL <client random> <secret>' in hex after " + quote_bytes(f[0], '\'', 32),
                f.size() != 3 ? std::string_view{} : !from_hex(f[1]) ? f[1] : f[2]);
      continue;
    }
    TlsSecrets probe;
    if (!slot(probe, f[0])) {
      // A binary file given by mistake: its bytes are shown escaped, and few.
      problem("unknown key log label " + quote_bytes(f[0], '\'', 32), f[0]);
      continue;
    }
    if (f.size() != 3) {
      problem("expected 'LABEL <client random> <secret>', found " + std::to_string(f.size()) + " fields");
      continue;
    }
    auto random = from_hex(f[1]);
    if (!random || random->size() != 32) {
      problem("client random is not 32 bytes of hex", f[1]);
      continue;
    }
    auto secret = from_hex(f[2]);
    if (!secret || (secret->size() != 32 && secret->size() != 48)) {
      problem("secret is not 32 or 48 bytes of hex (TLS 1.3 SHA-256 or SHA-384)", f[2]);
      continue;
    }
    ClientRandom key{};
    std::copy(random->begin(), random->end(), key.begin());
    *slot(log.connections[key], f[0]) = std::move(*secret);
  }
  return log;
}

std::string read_key_log_text(const std::string& path) {
  // An ifstream opens a folder and reads nothing: that would be an empty log.
  if (std::filesystem::is_directory(path)) throw InputError({path}, "cannot read key log: is a folder");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  // errno says why the open failed (No such file or directory, Permission denied).
  if (!in) throw InputError({path}, std::string("cannot read key log: ") + std::strerror(errno ? errno : EIO));
  // A key log holds five lines of about 200 bytes a connection: one past
  // kMaxKeyLogBytes is not a key log (/dev/zero, a capture named by
  // mistake), and reading it whole would take all memory.
  constexpr std::size_t kMaxKeyLogBytes = std::size_t(64) << 20;
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, std::size_t(in.gcount()));
    if (text.size() > kMaxKeyLogBytes)
      throw InputError({path}, "cannot read key log: more than " + std::to_string(kMaxKeyLogBytes >> 20) +
                                   " MiB, so not a key log (five lines of about 200 bytes a connection)");
  }
  if (in.bad()) throw InputError({path}, std::string("cannot read key log: ") + std::strerror(errno ? errno : EIO));
  return text;
}

KeyLog read_key_log(const std::string& path) { return parse_key_log(read_key_log_text(path), path); }

void require_well_formed(const KeyLog& log) {
  if (log.problems.empty()) return;
  // A garbage file has a problem per line: a few say enough.
  constexpr std::size_t kShown = 5;
  std::vector<Diagnostic> shown(log.problems.begin(),
                                log.problems.begin() + std::min(kShown, log.problems.size()));
  if (log.problems.size() > kShown)
    shown.push_back({SourcePos{log.problems.front().pos.file},
                     std::to_string(log.problems.size() - kShown) + " more malformed key log lines"});
  throw InputError(std::move(shown));
}

void merge_key_log(KeyLog& into, const KeyLog& more) {
  for (const auto& [random, secrets] : more.connections) {
    TlsSecrets& s = into.connections[random];
    for (auto [to, from] : {std::pair{&s.client_early, &secrets.client_early},
                            std::pair{&s.client_handshake, &secrets.client_handshake},
                            std::pair{&s.server_handshake, &secrets.server_handshake},
                            std::pair{&s.client_application, &secrets.client_application},
                            std::pair{&s.server_application, &secrets.server_application}})
      if (!from->empty()) *to = *from;
  }
  into.problems.insert(into.problems.end(), more.problems.begin(), more.problems.end());
}

}  // namespace conform::dissect
