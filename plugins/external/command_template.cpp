// Placeholder expansion for profile command lines.
#include "command_template.hpp"

#include <algorithm>

namespace external {

const std::vector<std::pair<std::string, std::string>>& placeholders() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {"address", "127.0.0.1: where the server listens and the client connects (the relay)"},
      {"port", "the server's own UDP port (server), the relay's port (client)"},
      {"authority", "address:port the client connects to (the relay)"},
      {"url", "https://authority/path of the response file"},
      {"path", "/response.bin, the file the server serves (response_bytes long)"},
      {"page_url", "https://authority/page.html: a page of `requests` <img> subresources, each response_bytes long"},
      {"htdocs", "folder holding the file to serve"},
      {"download_dir", "empty folder for the client's downloads"},
      {"cert", "PEM certificate of the server (ECDSA P-256 for CN=localhost, IP 127.0.0.1, signed by {ca_cert})"},
      {"ca_cert", "PEM certificate of the CA that signed {cert}, made for the run"},
      {"spki_sha256", "base64 SHA-256 of the server key's SubjectPublicKeyInfo (a Chromium certificate pin)"},
      {"key", "PEM private key of the server"},
      {"keylog", "NSS key log file this program must write (SSLKEYLOGFILE)"},
      {"profile_dir", "an empty folder of this role for the run (a browser profile), removed after it"},
      {"requests", "number of requests the client makes (scenario parameter)"},
      {"response_bytes", "size of each response body, bytes"},
      {"reserved_uni", "server: reserved-type unidirectional streams to open toward the client first (request-response)"},
      {"max_streams_bidi", "this role's initial_max_streams_bidi knob"},
      {"max_streams_uni", "this role's initial_max_streams_uni knob"},
      {"max_data", "this role's initial_max_data knob, bytes"},
      {"idle_timeout_ms", "this role's max_idle_timeout_ms knob"},
      {"idle_timeout_s", "the same in whole seconds, at least 1"},
      {"time_limit_s", "{time_limit_ms} in whole seconds, at least 1"},
      {"time_limit_ms", "the scenario's time_limit_ms (server: plus the 15 s it may take to start)"},
      {"max_stream_data", "this role's initial_max_stream_data knob, bytes (every stream kind)"},
      {"open_uni", "unidirectional streams this role opens (stream scenarios; else 0)"},
      {"open_bidi", "bidirectional streams this role opens (stream scenarios; else 0)"},
      {"expect_uni", "client: peer-opened unidirectional streams to read before closing (else 0)"},
      {"expect_bidi", "client: peer-opened bidirectional streams to read before closing (else 0)"},
      {"stream_bytes", "bytes on each stream this role opens (stream scenarios)"},
      {"workload", "what the pair plays the scenario in, http3 or raw-quic: for a program that speaks both"},
      {"peers", "the build's peers folder: npm-installed stacks and their scripts (scripts/setup.sh)"},
  };
  return list;
}

namespace {

bool known(const std::string& name) {
  const auto& list = placeholders();
  return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == name; });
}

}  // namespace

std::optional<TemplateProblem> check_template(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "{{") == 0 || text.compare(i, 2, "}}") == 0) {
      ++i;
      continue;
    }
    if (text[i] == '}') return TemplateProblem{i, "lone '}' (write '}}' for a brace)"};
    if (text[i] != '{') continue;
    const std::size_t end = text.find('}', i);
    if (end == std::string::npos) return TemplateProblem{i, "'{' without its '}'"};
    const std::string name = text.substr(i + 1, end - i - 1);
    if (!known(name)) {
      std::string list;
      for (const auto& p : placeholders()) list += (list.empty() ? "" : ", ") + p.first;
      return TemplateProblem{i, "unknown placeholder '{" + name + "}'; known: " + list};
    }
    i = end;
  }
  return std::nullopt;
}

std::string expand(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "{{") == 0 || text.compare(i, 2, "}}") == 0) {
      out += text[i++];
      continue;
    }
    const std::size_t end = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (end == std::string::npos) {
      out += text[i];
      continue;
    }
    auto it = values.find(text.substr(i + 1, end - i - 1));
    if (it != values.end()) out += it->second;
    i = end;
  }
  return out;
}

}  // namespace external
