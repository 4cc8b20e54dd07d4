// File serving and fetching over HTTP/3 for conform-quic.
#include "tool/h3_apps.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include "codec/buffer.hpp"

namespace conform::quic::tool {

namespace fs = std::filesystem;

namespace {

h3::Response text_response(int status, const std::string& text) {
  h3::Response r;
  r.status = status;
  r.body.assign(text.begin(), text.end());
  r.fields.push_back({"content-type", "text/plain"});
  return r;
}

std::string field(const std::vector<h3::Field>& fields, const std::string& name) {
  for (const h3::Field& f : fields)
    if (f.name == name) return f.value;
  return {};
}

std::string file_name_of(const std::string& path) {
  std::string p = path.substr(0, path.find('?'));
  const std::string name = p.substr(p.rfind('/') + 1);
  return name.empty() ? "index.html" : name;
}

// Events of a client-initiated bidirectional stream: an HTTP/3 request
// (RFC 9114 §6.1).
bool of_a_request_stream(const Event& event) {
  return std::visit(
      [](const auto& e) {
        if constexpr (requires { e.id; }) return !is_server_initiated(e.id) && dir_of(e.id) == Dir::bidi;
        return false;
      },
      event);
}

}  // namespace

h3::Response serve_file(const std::string& htdocs, const std::vector<h3::Field>& request) {
  const std::string method = field(request, ":method");
  if (method != "GET" && method != "HEAD") return text_response(405, "only GET and HEAD\n");
  std::string path = field(request, ":path");
  path = path.substr(0, path.find('?'));
  if (path.empty() || path[0] != '/' || path.find("..") != std::string::npos)
    return text_response(404, "not found\n");
  if (path.back() == '/') path += "index.html";
  const fs::path file = fs::path(htdocs) / path.substr(1);
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  if (!in || !fs::is_regular_file(file, ec)) return text_response(404, "not found\n");
  h3::Response r;
  r.status = 200;
  if (method == "GET") r.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

ServerApp::ServerApp(Connection& conn, std::string htdocs, uint64_t reserved_uni)
    : conn_(conn),
      htdocs_(std::move(htdocs)),
      h3_(conn, true, [this](const std::vector<h3::Field>& req) { return serve_file(htdocs_, req); }),
      reserved_total_(reserved_uni) {}

void ServerApp::on_event(Instant now, const Event& event) {
  const bool reserving = reserved_opened_ < reserved_total_;
  if (reserving && of_a_request_stream(event)) {
    held_.push_back(event);
    return;
  }
  h3_.on_event(now, event);
  if (!reserving) return;
  const auto* more = std::get_if<StreamsAvailable>(&event);
  if (std::holds_alternative<HandshakeCompleted>(event) || (more && more->dir == Dir::uni)) open_reserved();
  if (reserved_opened_ < reserved_total_) return;
  for (const Event& e : std::exchange(held_, {})) h3_.on_event(now, e);
}

void ServerApp::open_reserved() {
  while (reserved_opened_ < reserved_total_) {
    const auto id = conn_.open_stream(Dir::uni);
    if (!id) {
      // Blocked: StreamsAvailable brings us back. Anything else (closing)
      // ends the script; the held requests are served as they stand.
      if (id.error() != StreamError::blocked) reserved_total_ = reserved_opened_;
      return;
    }
    Bytes type;
    Writer(type).varint(0x1f * reserved_opened_ + 0x21);
    (void)conn_.write(id.value(), type);
    (void)conn_.finish(id.value());
    ++reserved_opened_;
  }
}

ClientApp::ClientApp(Connection& conn, std::string authority, std::vector<std::string> paths,
                     std::string output_dir)
    : conn_(conn), h3_(conn, false), output_dir_(std::move(output_dir)), requested_(paths.size()) {
  for (std::string& p : paths) h3_.get(authority, std::move(p));
}

void ClientApp::on_event(Instant now, const Event& event) {
  h3_.on_event(now, event);
  for (h3::Exchange& x : h3_.take_finished()) {
    fetched_.push_back({x.path, x.response.status, x.response.body.size(), x.error});
    if (x.error.empty() && !output_dir_.empty()) save(x);
  }
  if (!closing_ && fetched_.size() == requested_) {
    closing_ = true;
    conn_.close(now, h3::error::no_error, "");  // RFC 9114 §5.2: H3_NO_ERROR
  }
}

void ClientApp::save(const h3::Exchange& x) {
  std::ofstream out(fs::path(output_dir_) / file_name_of(x.path), std::ios::binary);
  out.write(reinterpret_cast<const char*>(x.response.body.data()),
            static_cast<std::streamsize>(x.response.body.size()));
}

}  // namespace conform::quic::tool
