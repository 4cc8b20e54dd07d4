// A capture's vantage survey, added to in the order connections ended.
#include "offline/survey_turns.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <deque>

namespace conform {

struct SurveyTurn::State {
  std::mutex mutex;
  std::condition_variable passed;
  std::size_t next = 0;  // the ticket whose turn it is
  // given_up[k - next]: ticket k will never be taken. Made room for when
  // the ticket is given, so giving it up allocates nothing.
  std::deque<bool> given_up;
  VantageSurvey survey;

  // After ticket `next`'s turn, under the lock.
  void pass() {
    do {
      given_up.pop_front();
      ++next;
    } while (!given_up.empty() && given_up.front());
  }
};

struct SurveyTurn::Ticket {
  std::shared_ptr<State> s;
  std::size_t number = 0;
  bool taken = false;
  // Never blocks: it may run under a task pool's lock.
  ~Ticket() {
    if (taken || !s) return;
    {
      std::lock_guard lock(s->mutex);
      if (s->next == number) s->pass();
      else s->given_up[number - s->next] = true;
    }
    s->passed.notify_all();
  }
};

Vantage SurveyTurn::take(const dissect::Connection& c) const {
  State& s = *ticket_->s;
  ticket_->taken = true;
  // Read outside the lock, beside the other threads' connections.
  VantageSurvey signs;
  std::exception_ptr error;
  try {
    signs.add(c);
  } catch (...) {
    error = std::current_exception();
  }
  std::unique_lock lock(s.mutex);
  s.passed.wait(lock, [&] { return s.next == ticket_->number; });
  // The turn passes however this ends (inferring allocates).
  struct Pass {
    State& s;
    ~Pass() {
      s.pass();
      s.passed.notify_all();
    }
  } pass{s};
  if (!error) s.survey.merge(signs);
  if (error) std::rethrow_exception(error);
  return s.survey.infer().vantage;
}

SurveyTurns::SurveyTurns() : s_(std::make_shared<SurveyTurn::State>()) {}

SurveyTurn SurveyTurns::next() {
  auto ticket = std::make_shared<SurveyTurn::Ticket>();
  {
    std::lock_guard lock(s_->mutex);
    s_->given_up.push_back(false);
  }
  ticket->s = s_;
  ticket->number = given_++;
  return SurveyTurn(std::move(ticket));
}

VantageSurvey SurveyTurns::finish() {
  std::unique_lock lock(s_->mutex);
  s_->passed.wait(lock, [&] { return s_->next == given_; });
  return s_->survey;
}

}  // namespace conform
