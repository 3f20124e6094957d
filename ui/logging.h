// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Qt logging categories for coresteer: the core's categories (core/log.h) under the same names,
// plus coresteer.ui. Debug output is off unless QT_LOGGING_RULES or `coresteer --verbose` turns
// it on ("coresteer.*.debug=true").
#pragma once

#include <QLoggingCategory>

namespace coresteer::ui {

Q_DECLARE_LOGGING_CATEGORY(lcUi)

// Forwards the core's log to the Qt categories, each switched as Qt's rules say; `verbose`
// turns every coresteer category on first. Call once, early in main().
void installLogging(bool verbose);

} // namespace coresteer::ui
