#include "telemetry/sampler.h"

#include <cassert>

namespace aifabric {

Sampler::Sampler(Simulator& sim, TimeSeriesStore& store, Time interval, bool read_kept_only)
    : sim_(sim), store_(store), interval_(interval), read_kept_only_(read_kept_only) {
  assert(interval_ > Time::Zero());
  assert(store_.series() == 0);
}

void Sampler::AddReader(CounterReader* reader, std::span<const SeriesKey> keys) {
  assert(!started_ && reader != nullptr);
  const size_t first = store_.series();
  for (const SeriesKey& key : keys) {
    [[maybe_unused]] const int id = store_.AddSeries(key);
    assert(static_cast<size_t>(id) == store_.series() - 1);
  }
  sources_.push_back(Source{reader, first, keys.size()});
}

void Sampler::Start() {
  assert(!started_);
  started_ = true;
  row_.assign(store_.series(), 0.0);
  Sample();
  ScheduleNext();
}

void Sampler::ScheduleNext() {
  next_instants_ = read_kept_only_ ? store_.InstantsToNextPoint() : 1;
  sim_.ScheduleBackground(sim_.Now() + interval_ * static_cast<int64_t>(next_instants_), this);
}

void Sampler::SampleNow() {
  assert(started_);
  if (sampled_ && last_sample_ == sim_.Now()) return;
  Sample();
}

void Sampler::OnEvent(uint64_t /*tag*/) {
  if (!(sampled_ && last_sample_ == sim_.Now())) Sample(next_instants_);
  // Run only fires a background tick while other work is queued; should
  // none be left, the run is over: do not tick on.
  if (sim_.pending_events() > 0) ScheduleNext();
}

void Sampler::Sample(size_t instants) {
  const Time now = sim_.Now();
  for (const Source& s : sources_) s.reader->Read(now, std::span<double>(row_).subspan(s.first, s.count));
  store_.RecordSample(now, row_, instants);
  sampled_ = true;
  last_sample_ = now;
}

}  // namespace aifabric
