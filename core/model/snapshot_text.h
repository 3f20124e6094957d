// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshot as a report for people (coresteer-cli snapshot without --json).
#pragma once

#include "core/model/snapshot.h"

#include <string>

namespace coresteer {

std::string toText(const Snapshot& snap);

} // namespace coresteer
