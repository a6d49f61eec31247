#include "plan/shared_work.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "plan/exchange_bytes.h"

namespace aifabric {
namespace {

using Answers = std::vector<std::optional<Result<std::string>>>;

// The answers present, each with its item's index.
std::string EncodeAnswers(const Answers& answers) {
  ByteWriter w;
  for (size_t i = 0; i < answers.size(); ++i) {
    if (!answers[i]) continue;
    w.U64(i);
    w.Bool(answers[i]->ok());
    w.Str(answers[i]->ok() ? **answers[i] : answers[i]->error().message);
  }
  return w.Take();
}

Status DecodeAnswers(std::string_view bytes, Answers& into) {
  ByteReader r(bytes);
  while (!r.at_end()) {
    const uint64_t index = r.U64();
    const bool ok = r.Bool();
    std::string body = r.Str();
    if (r.failed()) return Error{"a process's answers are cut short"};
    if (index >= into.size()) {
      return Error{"a process answered item " + std::to_string(index) + " of " + std::to_string(into.size())};
    }
    if (into[index]) return Error{"item " + std::to_string(index) + " was answered by two processes"};
    into[index] = ok ? Result<std::string>(std::move(body)) : Result<std::string>(Error{std::move(body)});
  }
  return Status{};
}

}  // namespace

Result<std::vector<std::string>> ShareWork(size_t n, int threads, const PlanProcesses* processes,
                                           const std::function<Result<std::string>(size_t)>& work) {
  const size_t rank = processes ? static_cast<size_t>(processes->rank()) : 0;
  const size_t ranks = processes ? static_cast<size_t>(processes->size()) : 1;
  // This process's items: rank, rank + ranks, ...
  const size_t mine = n > rank ? (n - rank + ranks - 1) / ranks : 0;
  Answers answers(n);
  // Every item runs even after an error, so the error reported (the first
  // in item order) is the same for any threads and processes.
  // An internal error (an exception: a model invariant broken) on a worker
  // thread stops the others and is rethrown on this one after the join,
  // for the CLI to report; under mpirun it ends every process instead, as
  // the others would wait for this one's answers for ever.
  std::atomic<size_t> next{0};
  std::atomic<bool> broken{false};
  std::mutex internal_mutex;
  std::exception_ptr internal;
  auto run = [&] {
    for (size_t k = next++; k < mine && !broken; k = next++) {
      try {
        answers[rank + k * ranks] = work(rank + k * ranks);
      } catch (...) {
        std::lock_guard<std::mutex> lock(internal_mutex);
        if (!internal) internal = std::current_exception();
        broken = true;
      }
    }
  };
  const int count = std::max(1, std::min<int>(threads, static_cast<int>(mine)));
  std::vector<std::thread> pool;
  for (int t = 1; t < count; ++t) pool.emplace_back(run);
  run();
  for (std::thread& t : pool) t.join();
  if (internal) {
    if (ranks > 1) processes->AbortOnInternalError(internal);
    std::rethrow_exception(internal);
  }
  if (ranks > 1) {
    Result<std::vector<std::string>> shares = processes->AllGather(EncodeAnswers(answers));
    if (!shares) return shares.error();
    Answers all(n);
    for (const std::string& share : *shares) {
      if (Status s = DecodeAnswers(share, all); !s) return s.error();
    }
    answers = std::move(all);
  }
  // The first error in item order, so the message does not depend on
  // threads or processes.
  for (const std::optional<Result<std::string>>& a : answers) {
    if (a && !a->ok()) return a->error();
  }
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!answers[i]) return Error{"item " + std::to_string(i) + " was answered by no process"};
    out.push_back(std::move(*answers[i]).value());
  }
  return out;
}

}  // namespace aifabric
