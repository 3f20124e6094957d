// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// SSH passwords in the desktop keyring (the Secret Service, KWallet), through QtKeychain; never
// on disk in clear. Without a keyring nothing is offered: QtKeychain's plain-text fallback stays
// off.
//
// All calls run on the UI thread and wait for the keyring in a local event loop, as a modal
// dialog does.
#pragma once

#include <QString>

#include <optional>

namespace coresteer::ui::keyring {

// Whether a keyring answers (asked once, then remembered for the process).
bool available();

// The entry of an SSH target ("root@192.0.2.1:22").
QString keyFor(const QString& target);

std::optional<QString> read(const QString& key);
// false with *error when the keyring refused.
bool write(const QString& key, const QString& secret, QString* error = nullptr);
bool remove(const QString& key);

} // namespace coresteer::ui::keyring
