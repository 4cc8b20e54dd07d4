// Where a capture was taken, surveyed connection by connection in the order
// they ended, though their signs are read on several threads: conform check
// -j N reads an ended connection's signs (vantage_inference.hpp) on the
// worker that judges it, off the reader's thread, and judges it under what
// the connections ended so far, itself included, show, as one thread would.
//
//   next    the reader gives each ended connection its turn, in order
//   take    any thread reads the connection's signs, waits until every
//           connection before it has had its turn, adds them and infers
//   finish  the reader waits for every turn: the capture's survey
#pragma once

#include "offline/vantage_inference.hpp"

#include <cstddef>
#include <memory>

namespace conform {

/// One ended connection's turn. Copies share it; once the last is gone
/// without take() (a task a failed pool dropped), the turn passes without
/// the connection's signs, so no later turn waits for it.
class SurveyTurn {
 public:
  /// Adds `c`'s signs after those of every connection that ended before it
  /// and says where the capture was taken, as they and `c` show. Once per
  /// turn. Rethrows what reading `c`'s signs threw, after passing the turn on.
  Vantage take(const dissect::Connection& c) const;

 private:
  friend class SurveyTurns;
  struct State;
  struct Ticket;
  explicit SurveyTurn(std::shared_ptr<Ticket> ticket) : ticket_(std::move(ticket)) {}
  std::shared_ptr<Ticket> ticket_;
};

class SurveyTurns {
 public:
  SurveyTurns();
  /// The next ended connection's turn (one thread, in the order they end).
  SurveyTurn next();
  /// Waits until every turn given has passed: the survey of them all.
  VantageSurvey finish();

 private:
  std::shared_ptr<SurveyTurn::State> s_;
  std::size_t given_ = 0;
};

}  // namespace conform
