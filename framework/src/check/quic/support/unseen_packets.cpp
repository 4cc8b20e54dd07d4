#include "check/quic/support/unseen_packets.hpp"

#include <fmt/format.h>

#include <variant>

namespace conform::quic_checks {

std::optional<UnseenGap> first_unseen(const dissect::Connection& c, Side sender, dissect::PacketSpace space,
                                      std::size_t from, std::size_t to) {
  std::optional<std::uint64_t> last;
  for (std::size_t i = 0; i <= to && i < c.datagrams.size(); ++i) {
    const auto& d = c.datagrams[i];
    if (sender_of(d) != sender) continue;
    for (const auto& p : d.packets) {
      if (p.space != space || !p.packet_number) continue;
      const std::uint64_t expected = last ? *last + 1 : 0;
      if (i > from && *p.packet_number != expected) {
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
