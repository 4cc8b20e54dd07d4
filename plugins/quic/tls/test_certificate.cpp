// Ed25519 self-signed certificates from a seed, on BoringSSL's X509 API.
#include "tls/test_certificate.hpp"

#include <openssl/curve25519.h>
#include <openssl/evp.h>
#include <openssl/mem.h>
#include <openssl/pem.h>
#include <openssl/obj.h>
#include <openssl/x509.h>

#include <vector>

namespace conform::quic {

namespace {

constexpr int64_t kNotBefore = 1577836800;  // 2020-01-01T00:00:00Z
constexpr int64_t kNotAfter = 4102444800;   // 2100-01-01T00:00:00Z
// Under IANA's enterprise number for documentation (RFC 5612); receivers
// ignore an unknown non-critical extension (RFC 5280 §4.2).
constexpr const char* kPaddingOid = "1.3.6.1.4.1.32473.1";

bool add_padding(X509* x, size_t bytes) {
  if (bytes == 0) return true;
  ASN1_OBJECT* oid = OBJ_txt2obj(kPaddingOid, 1);
  ASN1_OCTET_STRING* value = ASN1_OCTET_STRING_new();
  const std::vector<uint8_t> zeros(bytes, 0);
  X509_EXTENSION* ext = nullptr;
  const bool ok = oid && value && ASN1_OCTET_STRING_set(value, zeros.data(), static_cast<int>(bytes)) &&
                  (ext = X509_EXTENSION_create_by_OBJ(nullptr, oid, 0, value)) != nullptr &&
                  X509_add_ext(x, ext, -1);
  X509_EXTENSION_free(ext);
  ASN1_OCTET_STRING_free(value);
  ASN1_OBJECT_free(oid);
  return ok;
}

}  // namespace

std::shared_ptr<const TestCertificate> TestCertificate::generate(const std::string& common_name,
                                                                 uint64_t seed, size_t padding_bytes) {
  uint8_t priv_seed[32] = {};
  for (size_t i = 0; i < 8; ++i) priv_seed[i] = static_cast<uint8_t>(seed >> (8 * i));
  priv_seed[31] = 0x5a;  // never the all-zero seed
  std::shared_ptr<TestCertificate> cert(new TestCertificate);
  cert->key_ = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, priv_seed, sizeof priv_seed);
  cert->x509_ = X509_new();
  if (cert->key_ == nullptr || cert->x509_ == nullptr) return nullptr;
  X509* x = cert->x509_;
  X509_NAME* name = X509_NAME_new();
  const bool ok =
      X509_set_version(x, X509_VERSION_3) &&
      ASN1_INTEGER_set(X509_get_serialNumber(x), static_cast<long>(seed & 0x7fffffff) + 1) &&
      ASN1_TIME_set(X509_getm_notBefore(x), kNotBefore) != nullptr &&
      ASN1_TIME_set(X509_getm_notAfter(x), kNotAfter) != nullptr && name != nullptr &&
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const uint8_t*>(common_name.c_str()), -1, -1, 0) &&
      X509_set_subject_name(x, name) && X509_set_issuer_name(x, name) &&
      X509_set_pubkey(x, cert->key_) && add_padding(x, padding_bytes) &&
      X509_sign(x, cert->key_, nullptr) > 0;  // Ed25519 signs without a digest
  X509_NAME_free(name);
  if (!ok) return nullptr;
  return cert;
}

std::shared_ptr<const TestCertificate> TestCertificate::from_pem(const std::string& cert_pem,
                                                                 const std::string& key_pem,
                                                                 std::string& error) {
  std::shared_ptr<TestCertificate> cert(new TestCertificate);
  BIO* cert_bio = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
  BIO* key_bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  if (cert_bio) cert->x509_ = PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr);
  if (key_bio) cert->key_ = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(cert_bio);
  BIO_free(key_bio);
  if (!cert->x509_) error = "no PEM certificate found";
  else if (!cert->key_) error = "no PEM private key found";
  else if (!X509_check_private_key(cert->x509_, cert->key_)) error = "the key does not match the certificate";
  else return cert;
  return nullptr;
}

TestCertificate::~TestCertificate() {
  if (x509_) X509_free(x509_);
  if (key_) EVP_PKEY_free(key_);
}

Bytes TestCertificate::der() const {
  uint8_t* buf = nullptr;
  const int len = i2d_X509(x509_, &buf);
  if (len <= 0) return {};
  Bytes out(buf, buf + len);
  OPENSSL_free(buf);
  return out;
}

}  // namespace conform::quic
