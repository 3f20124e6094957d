// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the bufferbloat test takes from a person, checked before anything is kept or contacted:
// the hosts beyond the router it probes and the load targets it offers. The settings keep only
// what passes, Preferences says what does not, and the Live tab probes only what passes.
#pragma once

#include <QStringList>

namespace coresteer::ui {

constexpr int kMaxBeyondHosts = 8;
constexpr int kMaxLoadTargets = 10;

// Of `hosts`, those that are a plain host name or address (letters, digits, ". - : _", not
// starting with '-') or "irtt://" and one (core/live/irtt.h), without repeats, at most 8.
QStringList plainHosts(const QStringList& hosts);
// Of `targets`, those that are a load target (live::parseLoadTarget: "host[:port]" for iperf3,
// "URL... [POST URL]" for HTTP(S)), trimmed, without repeats, at most 10.
QStringList usableLoadTargets(const QStringList& targets);

} // namespace coresteer::ui
