// Decryption Secrets Blocks of pcapng (draft-ietf-opsawg-pcapng §4.7).
#include "capture/pcapng_secrets.hpp"

#include "common/input_error.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace conform {
namespace {

constexpr std::uint32_t kSectionHeader = 0x0A0D0D0A;
constexpr std::uint32_t kByteOrderMagic = 0x1A2B3C4D;
constexpr std::uint32_t kDecryptionSecrets = 0x0000000A;
constexpr std::uint32_t kTlsKeyLog = 0x544c534b;  // "TLSK"
// Block type, block length, secrets type, secrets length, trailing length.
constexpr std::uint32_t kSecretsFraming = 20;

std::uint32_t swap32(std::uint32_t v) { return __builtin_bswap32(v); }

}  // namespace

std::vector<SecretsBlock> read_pcapng_secrets(const std::string& path) {
  // The blocks are skipped with ignore(), through a large buffer: a seek
  // per block costs a system call and a refill each, and a capture has
  // millions of blocks.
  std::vector<char> buffer(1 << 20);
  std::ifstream in;
  in.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  in.open(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError({path}, std::string("cannot read capture: ") + std::strerror(errno));
  const std::uint64_t file_size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  std::vector<SecretsBlock> out;
  bool swapped = false;
  std::uint64_t offset = 0;
  std::uint64_t block = 1;  // counted from 1, the Section Header Block first
  auto read32 = [&](std::uint32_t& v) {
    if (!in.read(reinterpret_cast<char*>(&v), 4)) return false;
    if (swapped) v = swap32(v);
    return true;
  };
  // A damaged secrets block would leave packets undecrypted for no visible
  // reason (or decrypt them with half a key log): bad input, named.
  auto damaged = [&](const std::string& why) {
    return InputError({path}, fmt::format("block {} at byte {}: Decryption Secrets Block {}", block, offset, why));
  };
  for (;; ++block) {
    std::uint32_t type = 0, length = 0;
    if (!read32(type)) break;
    if (type == kSectionHeader || type == swap32(kSectionHeader)) {
      // Each section states its own byte order after its length.
      std::uint32_t raw_length = 0, magic = 0;
      if (!in.read(reinterpret_cast<char*>(&raw_length), 4) || !in.read(reinterpret_cast<char*>(&magic), 4))
        break;
      if (magic == kByteOrderMagic) swapped = false;
      else if (magic == swap32(kByteOrderMagic)) swapped = true;
      else break;
      length = swapped ? swap32(raw_length) : raw_length;
      if (length < 28 || length % 4) break;
      in.ignore(static_cast<std::streamsize>(length - 12));
    } else if (offset == 0) {
      return out;  // not pcapng
    } else if (type == kDecryptionSecrets) {
      if (!read32(length)) throw damaged("is cut: the file ends inside its header");
      if (length < kSecretsFraming)
        throw damaged(fmt::format("length {} is less than its {} bytes of framing", length, kSecretsFraming));
      if (length % 4) throw damaged(fmt::format("length {} is not a multiple of 4", length));
      if (length > file_size - offset)
        throw damaged(fmt::format("length {} runs past the end of the file ({} bytes left)", length,
                                  file_size - offset));
      std::uint32_t secrets_type = 0, secrets_length = 0;
      read32(secrets_type);
      read32(secrets_length);
      if (secrets_length > length - kSecretsFraming)
        throw damaged(fmt::format("secrets length {} exceeds the {} bytes the block holds", secrets_length,
                                  length - kSecretsFraming));
      std::string data(secrets_length, '\0');
      in.read(data.data(), secrets_length);
      if (secrets_type == kTlsKeyLog) out.push_back({offset, std::move(data)});
      in.ignore(static_cast<std::streamsize>(length - 16 - secrets_length));
    } else {
      if (!read32(length) || length < 12 || length % 4) break;
      in.ignore(static_cast<std::streamsize>(length - 8));
    }
    if (!in) break;
    offset += length;
  }
  return out;
}

}  // namespace conform
