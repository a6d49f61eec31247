// What `aifabric calibrate` prints and writes for a CalibrationFit: the
// table of every log's sizes (measured, the model before and after the fit,
// the residual, and the held-out predictions), the fitted figures, the mean
// errors per size band, and the calibration file (the data/calibration.yaml
// format, only the groups the fit set, each with a `source:` naming the
// logs). Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "calibrate/collective_fit.h"
#include "calibrate/nccl_tests_log.h"

namespace aifabric {

// Mean |relative error| of fitted, held-out-size and held-out-log times
// over the points of a size band, with the band's point count.
struct CalibrationErrors {
  int points = 0;
  double start = 0;
  double fitted = 0;
  double held_out_size = 0;  // 0 without cross-validation
  double held_out_log = 0;   // 0 with one log
};
// Bands: [min_bytes, max_bytes).
CalibrationErrors MeanErrors(const CalibrationFit& fit, uint64_t min_bytes, uint64_t max_bytes);

std::string FormatCalibrationReport(const CalibrationFit& fit, const std::vector<NcclTestsLog>& logs,
                                    const std::string& cluster_name);

std::string FormatCalibrationFile(const CalibrationFit& fit, const std::vector<NcclTestsLog>& logs,
                                  const std::string& cluster_file);

}  // namespace aifabric
