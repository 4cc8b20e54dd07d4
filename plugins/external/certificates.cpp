// The server certificates of the external plugin's runs (certificates.hpp).
#include "certificates.hpp"

#include "child_process.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

namespace external {

namespace fs = std::filesystem;

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

std::string place_certificate(const RunCache& cache, const std::string& openssl, const std::string& dir,
                              std::size_t padding_bytes, std::string* pin) {
  std::string problem;
  const std::string made = cache.entry(
      "certificate-padding-" + std::to_string(padding_bytes),
      [&](const std::string& folder) {
        if (auto why = make_certificate(openssl, folder, padding_bytes); !why.empty()) return why;
        std::string why;
        std::ofstream(folder + "/spki-pin") << spki_pin(openssl, folder, why);
        return why;
      },
      problem);
  if (made.empty()) return problem;
  for (const char* name : {"ca.pem", "ca-key.pem", "cert.pem", "key.pem"}) {
    std::error_code ec;
    fs::copy_file(made + "/" + name, dir + "/" + name, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot copy " + made + "/" + name + " to " + dir + ": " + ec.message();
  }
  if (pin) std::getline(std::ifstream(made + "/spki-pin"), *pin);
  return {};
}

}  // namespace external
