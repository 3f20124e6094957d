// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Core's text as Qt shows it: one conversion of std::string, one rate formatter.
#pragma once

#include "core/base/text.h"

#include <QString>

#include <string>
#include <string_view>

namespace coresteer::ui {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// text::eventRate ("45.6k/s"); without the unit for a column whose header says it.
inline QString eventRate(double perSecond, bool unit = true) {
    return qs(text::eventRate(perSecond, unit));
}

} // namespace coresteer::ui
