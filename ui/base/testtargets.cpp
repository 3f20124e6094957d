// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/base/testtargets.h"

#include "core/live/irtt.h"
#include "core/live/loadgen.h"

namespace coresteer::ui {

namespace {

// A host as the probe takes it: a name or an address, nothing a shell or a terminal would read
// otherwise (the settings file is the person's, but may come from elsewhere).
bool plainHost(const QString& h) {
    live::IrttTarget irtt;
    if (h.startsWith(QLatin1String("irtt://")))
        return live::parseIrttTarget(h.mid(7).toStdString(), irtt, nullptr);
    if (h.isEmpty() || h.size() > 253 || h.startsWith(QLatin1Char('-')))
        return false;
    for (const QChar c : h)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('.') &&
            c != QLatin1Char('-') && c != QLatin1Char(':') && c != QLatin1Char('_'))
            return false;
    return true;
}

} // namespace

QStringList plainHosts(const QStringList& hosts) {
    QStringList out;
    for (const auto& h : hosts)
        if (plainHost(h) && !out.contains(h) && out.size() < kMaxBeyondHosts)
            out << h;
    return out;
}

QStringList usableLoadTargets(const QStringList& targets) {
    QStringList out;
    for (const auto& t : targets) {
        live::LoadSpec spec;
        const auto trimmed = t.trimmed();
        if (!trimmed.isEmpty() && live::parseLoadTarget(trimmed.toStdString(), spec, nullptr) &&
            !out.contains(trimmed) && out.size() < kMaxLoadTargets)
            out << trimmed;
    }
    return out;
}

} // namespace coresteer::ui
