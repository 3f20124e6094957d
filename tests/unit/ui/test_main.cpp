// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The UI tests' main(): one QApplication, offscreen, with Qt's test paths and settings of its
// own (ctest runs each test in a process of its own, two at a time: a test that writes the
// settings must not change what another one reads), removed at the end.
#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("coresteer-tests"));
    QApplication::setApplicationName(
        QStringLiteral("ui_tests-%1").arg(QCoreApplication::applicationPid()));
    ::testing::InitGoogleTest(&argc, argv);
    const int rc = RUN_ALL_TESTS();
    const auto file = QSettings().fileName();
    QFile::remove(file);
    return rc;
}
