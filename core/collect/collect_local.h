// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Reads the collection spec from a directory tree: "/" on a live machine, a fixture root in tests.
#pragma once

#include "core/collect/bundle.h"

#include <filesystem>

namespace coresteer {

// Never writes. Follows symlinks as the kernel's sysfs expects (sys/class/net/X/device/driver).
FileBundle collectLocal(const std::filesystem::path& root);

} // namespace coresteer
