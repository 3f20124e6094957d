// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/settings.h"

#include "core/live/irtt.h"
#include "core/live/loadgen.h"

#include <QSettings>

#include <algorithm>

namespace coresteer::ui {

namespace settings {

namespace {

QStringList recent(const QString& key) {
    return QSettings().value(key).toStringList();
}

void addRecent(const QString& key, const QString& value) {
    auto list = recent(key);
    list.removeAll(value);
    list.prepend(value);
    while (list.size() > kMaxRecentHosts)
        list.removeLast();
    QSettings().setValue(key, list);
}

} // namespace

QStringList recentHosts() {
    return recent(QStringLiteral("recentHosts"));
}
void addRecentHost(const QString& host) {
    addRecent(QStringLiteral("recentHosts"), host);
}
QStringList recentPresets() {
    return recent(QStringLiteral("recentPresets"));
}
void addRecentPreset(const QString& file) {
    addRecent(QStringLiteral("recentPresets"), file);
}
int revertSeconds() {
    return std::clamp(QSettings().value(QStringLiteral("revertSeconds"), 60).toInt(), 5, 86400);
}
void setRevertSeconds(int seconds) {
    QSettings().setValue(QStringLiteral("revertSeconds"), std::clamp(seconds, 5, 86400));
}
int refreshHz() {
    return std::clamp(QSettings().value(QStringLiteral("refreshHz"), 10).toInt(), 1, 20);
}
void setRefreshHz(int hz) {
    QSettings().setValue(QStringLiteral("refreshHz"), std::clamp(hz, 1, 20));
}

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
        if (plainHost(h) && !out.contains(h) && out.size() < 8)
            out << h;
    return out;
}

QStringList usableLoadTargets(const QStringList& targets) {
    QStringList out;
    for (const auto& t : targets) {
        live::LoadSpec spec;
        const auto trimmed = t.trimmed();
        if (!trimmed.isEmpty() && live::parseLoadTarget(trimmed.toStdString(), spec, nullptr) &&
            !out.contains(trimmed) && out.size() < kMaxRecentHosts)
            out << trimmed;
    }
    return out;
}

QStringList loadTargets() {
    return usableLoadTargets(QSettings().value(QStringLiteral("loadTargets")).toStringList());
}
void setLoadTargets(const QStringList& targets) {
    QSettings().setValue(QStringLiteral("loadTargets"), usableLoadTargets(targets));
}
void addLoadTarget(const QString& target) {
    auto list = loadTargets();
    list.removeAll(target.trimmed());
    list.prepend(target.trimmed());
    setLoadTargets(list);
}

QStringList beyondHosts() {
    return plainHosts(QSettings().value(QStringLiteral("beyondHosts")).toStringList());
}
void setBeyondHosts(const QStringList& hosts) {
    QSettings().setValue(QStringLiteral("beyondHosts"), plainHosts(hosts));
}

} // namespace settings

} // namespace coresteer::ui
