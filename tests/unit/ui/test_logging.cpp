// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Core's log categories as Qt logging categories (ui/logging.h).
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/live/recording.h"
#include "tests/support/board_expect.h"
#include "tests/support/hostile_names.h"
#include "tests/support/live_ticks.h"
#include "tests/unit/ui/ui_helpers.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/livepanel.h"
#include "ui/live/loadcharts.h"
#include "ui/logging.h"
#include "ui/mainwindow.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/settings.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <filesystem>

#include <arpa/inet.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::ui;
using namespace coresteer::test;

namespace {
QStringList g_logged;
void keepMessage(QtMsgType, const QMessageLogContext& c, const QString& m) {
    g_logged << QString::fromUtf8(c.category) + QStringLiteral(": ") + m;
}
} // namespace

TEST(Logging, CoreCategoriesAreQtCategories) {
    const auto previous = qInstallMessageHandler(keepMessage);
    const auto load = [] {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        w.loadRoot(QString::fromStdString((test::boardDir("bpi-r4")).string()));
        return shown.wait(10000);
    };
    g_logged.clear();
    installLogging(false);
    ASSERT_TRUE(load());
    EXPECT_TRUE(g_logged.filter(QStringLiteral("coresteer.")).isEmpty())
        << g_logged.join(u'\n').toStdString();
    installLogging(true);
    ASSERT_TRUE(load());
    qInstallMessageHandler(previous);
    QLoggingCategory::setFilterRules(QStringLiteral("coresteer.*.debug=false"));
    installLogging(false);
    EXPECT_FALSE(g_logged.filter(QStringLiteral("coresteer.collect: ")).isEmpty())
        << g_logged.join(u'\n').toStdString();
    EXPECT_FALSE(g_logged.filter(QStringLiteral("coresteer.ui: opening")).isEmpty());
}
