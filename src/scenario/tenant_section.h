// The tenant keys of a `workload` item (docs/multi_tenant.md): beside the
// item's one kind key (training, permutation, ...) it may carry `name`,
// `placement`, `start`, `steps`, `duration` and `class` (or `priority`),
// which make it a tenant of one shared simulation (tenant_spec.h).
#pragma once

#include <string>

#include "scenario/scenario.h"
#include "scenario/section_reading.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// Whether `key` is one of the tenant keys an item may carry beside its kind.
bool IsTenantKey(const std::string& key);

// Reads the tenant keys of `item` (the list item's map, at "workload.N")
// into `t`; `t.kind`, `t.kind_name`, `t.index` and `t.path` are the
// caller's. Placement, start and repetition are for jobs: on a flows item
// `placement`, `steps` and `duration` are refused.
void ReadTenantKeys(const SectionContext& c, const MapReader& item, TenantSpec& t);

// After the whole list: names unique, explicit placements inside the
// cluster and disjoint. Sets s.shared_fabric (any tenant key, jobs beside
// flows, or a collective item: it has no run of its own).
void CheckTenants(const SectionContext& c, Scenario& s);

}  // namespace aifabric
