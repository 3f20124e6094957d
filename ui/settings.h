// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the app remembers between runs (QSettings): recent hosts and presets, the revert timeout,
// the live refresh rate, the bufferbloat test's load targets and hosts, and the window's
// geometry. Only ui/ reads and writes them: the window hands PreferencesDialog (ui/dialogs) and
// the Live tab (ui/live) the values and keeps what they give back.
#pragma once

#include <QStringList>

namespace coresteer::ui {

namespace settings {
constexpr int kMaxRecentHosts = 10;
QStringList recentHosts();
void addRecentHost(const QString& host); // most recent first, no duplicates
QStringList recentPresets();
void addRecentPreset(const QString& file);
int revertSeconds(); // 5..86400, default 60
void setRevertSeconds(int seconds);
int refreshHz(); // 1..20, default 10
// Hosts beyond the router that the bufferbloat test probes (at most 8, each a host name or
// address as typed, or an irtt server as "irtt://HOST[:PORT]"; nothing else is kept: see
// ui/base/testtargets.h).
QStringList beyondHosts();
// The load targets offered ("host[:port]" for iperf3, "URL... [POST URL]" for HTTP(S), most
// recent first, at most 10; what is not one is dropped). Nothing is contacted until a test starts.
QStringList loadTargets();
void setLoadTargets(const QStringList& targets);
void addLoadTarget(const QString& target); // most recent first, no duplicates
void setBeyondHosts(const QStringList& hosts);
void setRefreshHz(int hz);
} // namespace settings

} // namespace coresteer::ui
