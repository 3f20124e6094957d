// The snapshot as one stable JSON document (keys sorted, schema-versioned).
#pragma once

#include "core/snapshot.h"

#include <nlohmann/json.hpp>

namespace coresteer {

inline constexpr const char* kSnapshotSchema = "coresteer.snapshot/1";

nlohmann::json toJson(const Snapshot& snap);

} // namespace coresteer
