// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/keyring.h"

#include <QEventLoop>

#include <qt6keychain/keychain.h>

namespace coresteer::ui::keyring {

namespace {

const QString kService = QStringLiteral("coresteer");

// Starts `job` and waits for it.
void run(QKeychain::Job& job) {
    job.setAutoDelete(false);
    job.setInsecureFallback(false);
    QEventLoop loop;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job.start();
    loop.exec(QEventLoop::ExcludeUserInputEvents);
}

} // namespace

bool available() {
    static const bool yes = [] {
        // A keyring that answers says the probe's entry is not there; none says no backend.
        QKeychain::ReadPasswordJob job(kService);
        job.setKey(QStringLiteral("coresteer-probe"));
        run(job);
        return job.error() == QKeychain::NoError || job.error() == QKeychain::EntryNotFound;
    }();
    return yes;
}

QString keyFor(const QString& target) {
    return QStringLiteral("ssh:") + target;
}

std::optional<QString> read(const QString& key) {
    if (!available())
        return std::nullopt;
    QKeychain::ReadPasswordJob job(kService);
    job.setKey(key);
    run(job);
    if (job.error() != QKeychain::NoError)
        return std::nullopt;
    return job.textData();
}

bool write(const QString& key, const QString& secret, QString* error) {
    if (!available()) {
        if (error)
            *error = QStringLiteral("no keyring");
        return false;
    }
    QKeychain::WritePasswordJob job(kService);
    job.setKey(key);
    job.setTextData(secret);
    run(job);
    if (job.error() != QKeychain::NoError && error)
        *error = job.errorString();
    return job.error() == QKeychain::NoError;
}

bool remove(const QString& key) {
    if (!available())
        return false;
    QKeychain::DeletePasswordJob job(kService);
    job.setKey(key);
    run(job);
    return job.error() == QKeychain::NoError;
}

} // namespace coresteer::ui::keyring
