// Moving one direction of a relayed TCP connection, piece by piece: each
// piece of up to `piece_bytes` is taken as soon as any of it has arrived and
// written on at once (TCP_NODELAY, no MSG_MORE), so the wire sees one pushed
// write per piece either way. `copy` takes each piece through a buffer in
// user space (recv + send: two copies per byte in the relay); `splice` moves
// it through a pipe with splice(2), the kernel handing page references from
// the one socket to the other without copying the bytes.
#pragma once

#include "settings.hpp"

#include <cstdint>
#include <string>

namespace tcp_relay {

/// Copies `from` to `to` until end of stream or an error on either, then
/// shuts `to` for writing (the end passed on, as a proxy does). Blocks.
/// A closed peer ends it quietly (never SIGPIPE).
void forward(int from, int to, std::int64_t piece_bytes, Forwarding how);

/// Whether this process can give a pipe room for one piece of `piece_bytes`
/// (F_SETPIPE_SZ; above fs.pipe-max-size only with CAP_SYS_RESOURCE), which
/// `splice` forwarding needs so a piece is never cut by the pipe. Empty if it
/// can, else why not (one line). `copy` forwarding always can.
std::string forwarding_problem(std::int64_t piece_bytes, Forwarding how);

}  // namespace tcp_relay
