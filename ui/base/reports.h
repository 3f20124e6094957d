// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What a router answers to an apply, a keep or revert, and a persist, as the UI passes it on:
// immutable reports shared by pointer, from a connection's worker by queued signals (hence the
// metatypes) to the apply dialog and the grid, which need no connection to read them.
#pragma once

#include "core/layout/apply.h"
#include "core/layout/persist.h"

#include <QMetaType>

#include <memory>

namespace coresteer::ui {

using ApplyReportPtr = std::shared_ptr<const layout::ApplyReport>;
using PersistReportPtr = std::shared_ptr<const layout::PersistReport>;

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::ApplyReportPtr)
Q_DECLARE_METATYPE(coresteer::ui::PersistReportPtr)
Q_DECLARE_METATYPE(coresteer::layout::PendingAction)
