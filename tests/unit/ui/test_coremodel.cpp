// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// CoreModel (ui/models/coremodel.h): the cores and their classes.
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

TEST(CoreModel, ClassesPerCpu) {
    CoreModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(load("nanopi-r6s-openwrt"));
    ASSERT_EQ(model.rowCount(), 8);
    EXPECT_EQ(model.index(0, CoreModel::Class).data().toString(), QStringLiteral("LITTLE"));
    EXPECT_EQ(model.index(7, CoreModel::Class).data().toString(), QStringLiteral("big"));
    EXPECT_EQ(model.index(7, CoreModel::Cpu).data(CoreModel::RawValueRole).toInt(), 7);
}
