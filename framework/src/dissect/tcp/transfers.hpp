// Cutting a connection's data into request/response transfers: a transfer
// starts at the first new byte the initiator sends after a response, and
// ends at the responder's last payload segment before the next request.
// This is how HTTP/1.1-style exchanges look on the wire; the framing of the
// application is not needed, only the alternation of directions.
#pragma once

#include "dissect/tcp/flow.hpp"

#include <optional>
#include <vector>

namespace conform::tcp {

class TransferBuilder {
 public:
  /// A segment of direction `dir` (0 initiator, 1 responder) carried
  /// `new_bytes` > 0 bytes not seen before.
  void progress(int dir, FrameRef at, std::uint64_t new_bytes);
  /// A responder segment carried payload (new or retransmitted): the
  /// transfer's answer ends no earlier than this.
  void response_segment(FrameRef at);
  /// The transfers, the last one closed at `flow_last` (the flow's last
  /// segment) when its answer never came.
  std::vector<Transfer> finish(FrameRef flow_last);

 private:
  void note_progress(FrameRef at);
  std::vector<Transfer> done_;
  std::optional<Transfer> open_;
  FrameRef last_progress_;
};

}  // namespace conform::tcp
