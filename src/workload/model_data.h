// The text of data/models.yaml and data/calibration.yaml, compiled into the
// binary at build time (the definitions are generated from model_data.cc.in).
// Immutable; read them through FindModel() and BuiltInCalibration().
#pragma once

namespace aifabric {

extern const char* const kBuiltInModelsYaml;
extern const char* const kBuiltInCalibrationYaml;

}  // namespace aifabric
