// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// SnapshotModel (ui/models/snapshotmodel.h) over every board fixture.
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

TEST(SnapshotModel, PassesTheModelTesterOnEveryBoard) {
    for (const auto& b : coresteer::test::boardNames()) {
        SnapshotModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setSnapshot(load(b));
        EXPECT_GT(model.rowCount(), 0) << b;
        model.setSnapshot(nullptr);
        EXPECT_EQ(model.rowCount(), 0);
    }
}

TEST(SnapshotModel, ShowsIrqMasksUnderTheirInterface) {
    SnapshotModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(load("nanopi-r6s-openwrt"));
    QModelIndex eth2;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, 0).data().toString() == QStringLiteral("eth2"))
            eth2 = model.index(r, 0);
    ASSERT_TRUE(eth2.isValid());
    ASSERT_GE(model.rowCount(eth2), 1);
    const auto irq = model.index(0, SnapshotModel::MaskHex, eth2);
    EXPECT_EQ(model.index(0, 0, eth2).data().toString(), QStringLiteral("IRQ 97"));
    EXPECT_EQ(irq.data().toString(), QStringLiteral("80"));
    EXPECT_EQ(model.index(0, SnapshotModel::MaskCpus, eth2).data().toString(), QStringLiteral("7"));
    EXPECT_EQ(model.index(0, 0, eth2).data(SnapshotModel::IrqRole).toUInt(), 97u);
}
