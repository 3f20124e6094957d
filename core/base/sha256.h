// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: what `sha256sum` prints, so a script
// can check on the router that a file arrived whole.
#pragma once

#include <string>
#include <string_view>

namespace coresteer {

std::string sha256Hex(std::string_view data);

} // namespace coresteer
