// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The one snapshot every model and view shares: immutable once built, handed from a
// connection's worker to the UI by a queued signal (hence the metatype), and held by whoever
// shows it. A header of its own, so that what shows a snapshot needs no connection.
#pragma once

#include "core/model/snapshot.h"

#include <QMetaType>

#include <memory>

namespace coresteer::ui {

using SnapshotPtr = std::shared_ptr<const Snapshot>;

} // namespace coresteer::ui

Q_DECLARE_METATYPE(coresteer::ui::SnapshotPtr)
