// The background's measured case (client-packet-buffering-and-pq-
// handshake.md), reproduced on the in-memory path: with the two faults the
// measured stack had, a large post-quantum ClientHello sent with an
// initial_mtu the path cannot carry costs the client's PTO ladder; a
// clamped client is fast again, faster still with packet buffering. With
// the faults off the same paths recover within a few PTOs of 3 ms.
#include <boost/test/unit_test.hpp>

#include "unit/quic_pq_cases.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

BOOST_AUTO_TEST_SUITE(quic_pq_handshake_test)

BOOST_AUTO_TEST_CASE(ordering_and_cause_match_the_background) {
  std::array<PqResult, 4> r;
  for (size_t i = 0; i < kPqCases.size(); ++i) {
    r[i] = run_pq_case(kPqCases[i], true);
    BOOST_REQUIRE_MESSAGE(r[i].handshake.has_value(), kPqCases[i].name);
    BOOST_TEST_MESSAGE(kPqCases[i].name << ": " << r[i].handshake->ns / 1000 << " us, client probes "
                                        << r[i].client_probes << ", server probes " << r[i].server_probes
                                        << ", buffered " << r[i].client_buffered);
  }
  const auto ms = [&](size_t i) { return r[i].handshake->ns; };
  // Background: 10, 191, 9, 5 ms.
  BOOST_TEST(ms(1) > 5 * ms(0));  // the PTO ladder is on the critical path
  BOOST_TEST(ms(1) > ms(2));
  BOOST_TEST(ms(2) > ms(3));      // buffering saves the Handshake re-send
  BOOST_TEST(r[1].client_probes > r[0].client_probes);
  BOOST_TEST(r[3].client_buffered > 0u);
}

BOOST_AUTO_TEST_CASE(without_the_faults_the_large_hello_costs_little) {
  const PqResult faulty = run_pq_case(kPqCases[1], true);
  const PqResult fixed = run_pq_case(kPqCases[1], false);
  BOOST_REQUIRE(faulty.handshake.has_value());
  BOOST_REQUIRE(fixed.handshake.has_value());
  BOOST_TEST_MESSAGE("CECPQ2 jumbo: " << faulty.handshake->ns / 1000 << " us with the faults, "
                                      << fixed.handshake->ns / 1000 << " us without");
  BOOST_TEST(fixed.handshake->ns * 3 < faulty.handshake->ns);
}

BOOST_AUTO_TEST_SUITE_END()
