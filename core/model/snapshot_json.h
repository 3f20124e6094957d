// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshot as one stable JSON document (keys sorted, schema-versioned).
#pragma once

#include "core/model/snapshot.h"

#include <nlohmann/json.hpp>

namespace coresteer {

inline constexpr const char* kSnapshotSchema = "coresteer.snapshot/1";

nlohmann::json toJson(const Snapshot& snap);

// The document as text. Bytes from the router that are not UTF-8 (interface, IRQ or chip
// names) become U+FFFD instead of making the serializer throw.
std::string toJsonText(const Snapshot& snap, int indent = 2);

} // namespace coresteer
