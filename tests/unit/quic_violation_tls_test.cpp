// The violation script's TLS surgery (connection/violation.hpp): the
// quic_transport_parameters extension taken out of a ClientHello or an
// EncryptedExtensions with every length mended, exact bytes in and out.
#include <boost/test/unit_test.hpp>

#include "connection/violation.hpp"

using namespace conform::quic;

namespace {

// An EncryptedExtensions (type 8) holding ALPN "h3" (16), the transport
// parameters (57, 3 bytes) and supported_versions (43, 2 bytes).
Bytes encrypted_extensions() {
  return {0x08, 0x00, 0x00, 0x17,                                 // type, length 23
          0x00, 0x15,                                             // extensions, 21 bytes
          0x00, 0x10, 0x00, 0x05, 0x00, 0x03, 0x02, 'h', '3',     // ALPN
          0x00, 0x39, 0x00, 0x03, 0x01, 0x01, 0x05,               // quic_transport_parameters
          0x00, 0x2b, 0x00, 0x02, 0x03, 0x04};                    // supported_versions
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_violation_tls_test)

BOOST_AUTO_TEST_CASE(the_extension_leaves_encrypted_extensions_with_its_lengths) {
  Bytes m = encrypted_extensions();
  BOOST_TEST(remove_transport_parameters_extension(m));
  const Bytes expected = {0x08, 0x00, 0x00, 0x10, 0x00, 0x0e, 0x00, 0x10, 0x00, 0x05, 0x00, 0x03,
                          0x02, 'h',  '3',  0x00, 0x2b, 0x00, 0x02, 0x03, 0x04};
  BOOST_TEST(m == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_extension_leaves_a_client_hello_and_what_follows_stays) {
  Bytes m = {0x01, 0x00, 0x00, 0x00, 0x03, 0x03};  // type, length (set below), legacy_version
  m.insert(m.end(), 32, 0xaa);                       // random
  m.insert(m.end(), {0x00});                          // no session id
  m.insert(m.end(), {0x00, 0x02, 0x13, 0x01});        // one cipher suite
  m.insert(m.end(), {0x01, 0x00});                    // null compression
  m.insert(m.end(), {0x00, 0x0a, 0x00, 0x39, 0x00, 0x02, 0x42, 0x42, 0x00, 0x2b, 0x00, 0x00});
  m[3] = static_cast<uint8_t>(m.size() - 4);
  m.insert(m.end(), {0x18, 0x00, 0x00, 0x01, 0x00});  // a message after it, untouched
  const size_t before = m.size();
  BOOST_TEST(remove_transport_parameters_extension(m));
  BOOST_TEST(m.size() == before - 6);
  BOOST_TEST(m[3] == before - 5 - 4 - 6);
  const Bytes tail(m.end() - 11, m.end());
  const Bytes expected = {0x00, 0x04, 0x00, 0x2b, 0x00, 0x00, 0x18, 0x00, 0x00, 0x01, 0x00};
  BOOST_TEST(tail == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_message_without_the_extension_or_of_another_type_is_left_alone) {
  Bytes ee = encrypted_extensions();
  ee[16] = 0x3a;  // the parameters' type becomes 0x3a
  const Bytes unchanged = ee;
  BOOST_TEST(!remove_transport_parameters_extension(ee));
  BOOST_TEST(ee == unchanged, boost::test_tools::per_element());
  Bytes finished = {0x14, 0x00, 0x00, 0x01, 0x00};
  BOOST_TEST(!remove_transport_parameters_extension(finished));
  Bytes truncated = {0x08, 0x00, 0x00, 0x30, 0x00, 0x02};  // claims 48 bytes
  BOOST_TEST(!remove_transport_parameters_extension(truncated));
}

BOOST_AUTO_TEST_SUITE_END()
