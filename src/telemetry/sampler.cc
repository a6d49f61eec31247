#include "telemetry/sampler.h"

#include <cassert>

namespace aifabric {

Sampler::Sampler(Simulator& sim, TimeSeriesStore& store, Time interval)
    : sim_(sim), store_(store), interval_(interval) {
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
  sim_.ScheduleBackground(sim_.Now() + interval_, this);
}

void Sampler::SampleNow() {
  assert(started_);
  if (sampled_ && last_sample_ == sim_.Now()) return;
  Sample();
}

void Sampler::OnEvent(uint64_t /*tag*/) {
  if (!(sampled_ && last_sample_ == sim_.Now())) Sample();
  // Run only fires a background tick while other work is queued; should
  // none be left, the run is over: do not tick on.
  if (sim_.pending_events() > 0) sim_.ScheduleBackground(sim_.Now() + interval_, this);
}

void Sampler::Sample() {
  const Time now = sim_.Now();
  for (const Source& s : sources_) s.reader->Read(now, std::span<double>(row_).subspan(s.first, s.count));
  store_.RecordSample(now, row_);
  sampled_ = true;
  last_sample_ = now;
}

}  // namespace aifabric
