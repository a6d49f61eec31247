// The text of data/catalog.yaml, compiled into the binary at build time (the
// definition is generated from catalog_data.cc.in). Immutable; read it through
// Catalog::BuiltIn().
#pragma once

namespace aifabric {

extern const char* const kBuiltInCatalogYaml;

}  // namespace aifabric
