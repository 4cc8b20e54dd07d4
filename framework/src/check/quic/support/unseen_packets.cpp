#include "check/quic/support/unseen_packets.hpp"

#include "dissect/range_set.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <variant>

namespace conform::quic_checks {

namespace {

bool one_counter_for_all_spaces(const dissect::Connection& c, Side sender, std::size_t to) {
  std::array<dissect::RangeSet, 4> taken;  // by space
  for (std::size_t i = 0; i <= to && i < c.datagrams.size(); ++i) {
    if (sender_of(c.datagrams[i]) != sender) continue;
    for (const auto& p : c.datagrams[i].packets) {
      if (!p.packet_number) continue;
      const auto s = std::min<std::size_t>(std::size_t(p.space), taken.size() - 1);
      for (std::size_t other = 0; other < taken.size(); ++other)
        if (other != s && taken[other].contains(*p.packet_number)) return false;
      taken[s].add(*p.packet_number, *p.packet_number + 1);
    }
  }
  return true;
}

}  // namespace

std::optional<UnseenGap> first_unseen(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                      std::size_t from, std::size_t to) {
  std::optional<std::uint64_t> last;
  // A sender may number every space from one counter (lsquic does): then
  // the numbers its other spaces took are not missing from this one. One
  // counter shows as no number taken in two spaces.
  const bool one_counter = one_counter_for_all_spaces(c, sender, to);
  dissect::RangeSet elsewhere;
  for (std::size_t i = 0; i <= to && i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    if (sender_of(d) != sender) continue;
    for (const auto& p : d.packets)
      if (one_counter && p.space != space && p.packet_number) elsewhere.add(*p.packet_number, *p.packet_number + 1);
    for (const auto& p : d.packets) {
      if (p.space != space || !p.packet_number) continue;
      std::uint64_t expected = last ? *last + 1 : 0;
      while (expected < *p.packet_number && elsewhere.contains(expected)) ++expected;
      if ((from == kFromTheStart || i > from) && *p.packet_number != expected) {
        const std::string why =
            last ? fmt::format("the {}'s {} packet {} at frame {} comes after packet {}: what it sent between went "
                               "unseen",
                               to_string(sender), dissect::to_string(space), *p.packet_number, d.frame, *last)
                 : fmt::format("the {}'s first {} packet the capture shows is {}, at frame {}: what it sent before "
                               "went unseen",
                               to_string(sender), dissect::to_string(space), *p.packet_number, d.frame);
        return UnseenGap{i, why};
      }
      last = *p.packet_number;
    }
  }
  return std::nullopt;
}

std::optional<std::string> packet_number_gap(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                             std::size_t from, std::size_t to) {
  if (auto gap = first_unseen(c, sender, space, from, to)) return gap->why;
  return std::nullopt;
}

std::optional<std::size_t> next_in_space(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                         std::size_t from) {
  for (std::size_t i = from + 1; i < c.datagrams.size(); ++i)
    if (sender_of(c.datagrams[i]) == sender)
      for (const auto& p : c.datagrams[i].packets)
        if (p.space == space && p.packet_number) return i;
  return std::nullopt;
}

bool shown_not_received(const dissect::Connection& c, Side receiver, std::size_t datagram) {
  bool passed_over = false;
  for (const auto& sent : c.datagrams.at(datagram).packets) {
    if (!sent.packet_number) continue;
    const std::uint64_t pn = *sent.packet_number;
    for (std::size_t i = datagram + 1; i < c.datagrams.size(); ++i) {
      if (sender_of(c.datagrams[i]) != receiver) continue;
      for (const auto& p : c.datagrams[i].packets) {
        if (p.space != sent.space) continue;
        for (const auto& f : p.frames) {
          const auto* ack = std::get_if<dissect::AckFrame>(&f);
          if (!ack || ack->largest < pn) continue;
          if (ack->acknowledges(pn)) return false;
          passed_over = true;
        }
      }
    }
  }
  return passed_over;
}

}  // namespace conform::quic_checks
