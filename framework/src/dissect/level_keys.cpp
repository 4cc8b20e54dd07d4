// Keys of one encryption level, their candidates and generations.
#include "dissect/level_keys.hpp"

namespace conform::dissect {

void LevelKeys::set_secret(const Bytes& secret, std::optional<CipherSuite> suite) {
  candidates_.clear();
  generations_.clear();
  current_ = 0;
  if (suite) {
    if (secret.size() == hash_length(hash_of(*suite)))
      generations_.push_back(PacketKeys::from_secret(*suite, secret));
    return;
  }
  for (CipherSuite s : {CipherSuite::aes_128_gcm_sha256, CipherSuite::chacha20_poly1305_sha256,
                        CipherSuite::aes_256_gcm_sha384})
    if (secret.size() == hash_length(hash_of(s))) candidates_.push_back(PacketKeys::from_secret(s, secret));
}

void LevelKeys::set_keys(PacketKeys keys) {
  candidates_.clear();
  generations_.assign(1, std::move(keys));
  current_ = 0;
}

std::span<const PacketKeys> LevelKeys::candidates() const {
  if (!generations_.empty()) return std::span(generations_).first(1);
  return candidates_;
}

void LevelKeys::confirm(CipherSuite suite) {
  if (confirmed()) return;
  for (auto& k : candidates_)
    if (k.suite() == suite) {
      generations_.push_back(k);
      break;
    }
  candidates_.clear();
}

const PacketKeys& LevelKeys::generation(unsigned g) {
  while (generations_.size() <= g) generations_.push_back(generations_.back().next_generation());
  return generations_[g];
}

}  // namespace conform::dissect
