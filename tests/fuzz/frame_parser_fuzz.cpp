// Fuzzes the frame parser with arbitrary decrypted payloads, and renders
// what it finds as text and JSON (both walk every field).
#include "dissect/frame_format.hpp"

#include "dissect/frame_parser.hpp"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace conform::dissect;
  const auto frames = parse_frames({data, size});
  std::size_t total = 0;
  for (const auto& f : frames) {
    total += describe_frame(f).size();
    total += frame_to_json(f).dump().size();
    // Data-carrying frames must point inside the payload.
    if (const auto* s = std::get_if<StreamFrame>(&f)) {
      if (s->data_at + s->length > size) __builtin_trap();
    } else if (const auto* c = std::get_if<CryptoFrame>(&f)) {
      if (c->data_at + c->length > size) __builtin_trap();
    } else if (const auto* d = std::get_if<DatagramFrame>(&f)) {
      if (d->data_at + d->length > size) __builtin_trap();
    }
  }
  return total == 0 && !frames.empty() ? 1 : 0;
}
