// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/settings.h"

#include "ui/base/testtargets.h"

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
