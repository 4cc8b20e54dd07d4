// Request/response transfers from the order of new data on a connection.
#include "dissect/tcp/transfers.hpp"

namespace conform::tcp {

void TransferBuilder::note_progress(FrameRef at) {
  if (at.time_ns - last_progress_.time_ns > open_->longest_gap.ns())
    open_->longest_gap = {last_progress_, at};
  last_progress_ = at;
}

void TransferBuilder::progress(int dir, FrameRef at, std::uint64_t new_bytes) {
  if (dir == 0) {
    // New request bytes after an answer begin the next transfer.
    if (!open_ || open_->answered()) {
      if (open_) done_.push_back(*open_);
      open_ = Transfer{at, at, 0, 0, {at, at}};
      last_progress_ = at;
    }
    open_->request_bytes += new_bytes;
    note_progress(at);
    return;
  }
  if (!open_) return;  // the responder spoke first: no request to time
  open_->response_bytes += new_bytes;
  note_progress(at);
}

void TransferBuilder::response_segment(FrameRef at) {
  if (open_ && open_->answered()) open_->last_response = at;
}

std::vector<Transfer> TransferBuilder::finish(FrameRef flow_last) {
  if (open_) {
    // An unanswered transfer waited from its last progress to the end of the
    // flow as captured.
    if (!open_->answered()) note_progress(flow_last);
    done_.push_back(*open_);
    open_.reset();
  }
  return std::move(done_);
}

}  // namespace conform::tcp
