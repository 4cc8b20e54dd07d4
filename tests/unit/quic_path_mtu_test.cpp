// DPLPMTUD-lite (RFC 8899, RFC 9000 §14.3): the search's sequence of probe
// sizes worked by hand, and the connection finding the path's size on the
// in-memory path (tests/unit/quic_sim_path.hpp) without reading lost
// probes as congestion.
#include <boost/test/unit_test.hpp>

#include <limits>
#include <vector>

#include "connection/path_mtu.hpp"
#include "recovery/congestion.hpp"
#include "unit/quic_pair.hpp"
#include "unit/quic_sim_path.hpp"

using namespace conform::quic;
using namespace conform::quic::test;

namespace {

/// Plays the search against a path that carries `path_mtu`: the sizes probed, in order.
std::vector<size_t> probes(PathMtuSearch& s, size_t path_mtu) {
  std::vector<size_t> sizes;
  while (auto size = s.next_probe()) {
    sizes.push_back(*size);
    s.on_probe_sent(*size);
    if (*size <= path_mtu) s.on_probe_acked(*size);
    else s.on_probe_lost(*size);
  }
  return sizes;
}

LinkSpec link(size_t mtu) {
  LinkSpec l;
  l.one_way_delay = Duration::millis(5);
  l.mtu = mtu;
  return l;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quic_path_mtu_test)

BOOST_AUTO_TEST_CASE(search_tries_the_ceiling_then_halves) {
  PathMtuSearch open(1200, 1472);
  BOOST_TEST((probes(open, 1500) == std::vector<size_t>{1472}));
  BOOST_TEST(open.confirmed() == 1472u);
  BOOST_TEST(open.done());
  // A path of 1400: 1472 fails three times (MAX_PROBES), the ceiling
  // becomes 1471; then 1200 + 272/2 = 1336 passes, 1336 + 136/2 = 1404
  // fails three times (ceiling 1403), 1336 + 68/2 = 1370, 1370 + 34/2 =
  // 1387 and 1387 + 17/2 = 1395 pass; 1403 - 1395 = 8 < 16 ends it.
  PathMtuSearch narrow(1200, 1472);
  BOOST_TEST((probes(narrow, 1400) ==
              std::vector<size_t>{1472, 1472, 1472, 1336, 1404, 1404, 1404, 1370, 1387, 1395}));
  BOOST_TEST(narrow.confirmed() == 1395u);
}

BOOST_AUTO_TEST_CASE(connection_finds_the_path_mtu) {
  for (const size_t mtu : {1500u, 1400u}) {
    Config c = Pair::client_config(), s = Pair::server_config();
    c.pmtud = s.pmtud = true;
    SimPath p(c, s, link(mtu), link(mtu));
    BOOST_REQUIRE(p.handshake_time().has_value());
    BOOST_TEST(p.client().max_datagram_size() == 1200u);  // base_mtu until a probe is acknowledged
    p.run(p.now + Duration::seconds(5), nullptr);
    const size_t expected = mtu == 1500 ? 1472 : 1395;  // search_tries_the_ceiling_then_halves
    BOOST_TEST(p.client().max_datagram_size() == expected);
    BOOST_TEST(p.server().max_datagram_size() == expected);
    // Lost probes are no congestion (RFC 9000 §14.4): no recovery period began.
    for (Connection* e : {&p.client(), &p.server()})
      BOOST_TEST(dynamic_cast<const NewReno&>(e->recovery().congestion()).ssthresh() ==
                 std::numeric_limits<uint64_t>::max());
  }
}

BOOST_AUTO_TEST_CASE(without_the_knob_the_size_stays_at_base_mtu) {
  SimPath p(Pair::client_config(), Pair::server_config(), link(1500), link(1500));
  BOOST_REQUIRE(p.handshake_time().has_value());
  p.run(p.now + Duration::seconds(5), nullptr);
  BOOST_TEST(p.client().max_datagram_size() == 1200u);
  for (const PathRecord& r : p.log) BOOST_TEST(r.size <= 1200u);
}

BOOST_AUTO_TEST_SUITE_END()
