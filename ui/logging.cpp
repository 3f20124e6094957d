// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/logging.h"

#include "core/base/log.h"

#include <cstring>

namespace coresteer::ui {

Q_LOGGING_CATEGORY(lcUi, "coresteer.ui", QtInfoMsg)

namespace {

Q_LOGGING_CATEGORY(lcSsh, "coresteer.ssh", QtInfoMsg)
Q_LOGGING_CATEGORY(lcCollect, "coresteer.collect", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApply, "coresteer.apply", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPersist, "coresteer.persist", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLive, "coresteer.live", QtInfoMsg)
Q_LOGGING_CATEGORY(lcFleet, "coresteer.fleet", QtInfoMsg)

using CategoryFn = const QLoggingCategory& (*)();
const std::pair<log::Category*, CategoryFn> kMap[] = {
    {&log::ssh, &lcSsh},         {&log::collect, &lcCollect}, {&log::apply, &lcApply},
    {&log::persist, &lcPersist}, {&log::live, &lcLive},       {&log::fleet, &lcFleet},
};

} // namespace

void installLogging(bool verbose) {
    if (verbose)
        QLoggingCategory::setFilterRules(QStringLiteral("coresteer.*.debug=true"));
    for (const auto& [core, qt] : kMap)
        core->enabled = qt().isDebugEnabled();
    log::setSink([](const log::Category& c, std::string_view message) {
        for (const auto& [core, qt] : kMap)
            if (core == &c) {
                qCDebug(qt).noquote()
                    << QString::fromUtf8(message.data(), static_cast<qsizetype>(message.size()));
                return;
            }
    });
}

} // namespace coresteer::ui
