// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridView: clicks, drags and keys edit the grid, each one undoable step.
#include "core/collect/collect_local.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"
#include "tests/unit/ui/grid_helpers.h"
#include "ui/models/maskgridmodel.h"
#include "ui/views/maskgridheader.h"
#include "ui/views/maskgridview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <map>

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::ui;
using namespace coresteer::test;

TEST(MaskGridView, ClickTogglesAndUndoRedoes) {
    GridUi ui("nanopi-r6s-openwrt");
    const int row = findRow(ui.model, QStringLiteral("IRQ 96  eth1"));
    ASSERT_GE(row, 0);
    QTest::mouseClick(ui.view.viewport(), Qt::LeftButton, {}, ui.cell(row, 2));
    EXPECT_EQ(ui.model.pending(row)->toList(), "2,6");
    QTest::mouseClick(ui.view.viewport(), Qt::LeftButton, {}, ui.cell(row, 6));
    EXPECT_EQ(ui.model.pending(row)->toList(), "2");
    // The last CPU of an IRQ cannot go.
    QTest::mouseClick(ui.view.viewport(), Qt::LeftButton, {}, ui.cell(row, 2));
    EXPECT_EQ(ui.model.pending(row)->toList(), "2");
    EXPECT_EQ(ui.undo.count(), 2);
    ui.undo.undo();
    EXPECT_EQ(ui.model.pending(row)->toList(), "2,6");
    ui.undo.undo();
    EXPECT_EQ(ui.model.pending(row)->toList(), "6");
    EXPECT_EQ(ui.model.changedCount(), 0);
    ui.undo.redo();
    EXPECT_EQ(ui.model.pending(row)->toList(), "2,6");
}

TEST(MaskGridView, DraggingPaintsARowAsOneStep) {
    GridUi ui("nanopi-r6s-openwrt");
    const int row = findRow(ui.model, QStringLiteral("rx-0  RPS"));
    ASSERT_GE(row, 0);
    ui.model.setPending(row, CpuMask::fromCpus({0})); // a start without CPUs 4-7
    ui.undo.clear();
    ui.send(QEvent::MouseButtonPress, ui.cell(row, 4), Qt::LeftButton, Qt::LeftButton);
    for (int cpu : {5, 6, 7})
        ui.send(QEvent::MouseMove, ui.cell(row, cpu), Qt::NoButton, Qt::LeftButton);
    // Another row under the pointer is not painted.
    ui.send(QEvent::MouseMove, ui.cell(row + 1, 7), Qt::NoButton, Qt::LeftButton);
    ui.send(QEvent::MouseButtonRelease, ui.cell(row, 7), Qt::LeftButton, Qt::NoButton);
    const auto painted = *ui.model.pending(row);
    for (int cpu : {4, 5, 6, 7})
        EXPECT_TRUE(painted.test(cpu)) << cpu;
    EXPECT_EQ(ui.undo.count(), 1);
    ui.undo.undo();
    EXPECT_EQ(ui.model.pending(row)->toList(), "0");
}

TEST(MaskGridView, KeyboardAndTypedMasksAreUndoable) {
    GridUi ui("nanopi-r4s");
    int row = -1;
    for (int r = 0; r < ui.model.rowCount() && row < 0; ++r)
        if (ui.model.kind(r) == MaskGridModel::RowKind::Irq)
            row = r;
    ASSERT_GE(row, 0);
    const auto before = *ui.model.pending(row);
    const int cpu = before.test(5) ? 4 : 5;
    ui.view.setCurrentIndex(ui.model.index(row, MaskGridModel::FirstCpu + cpu));
    QTest::keyClick(&ui.view, Qt::Key_Space);
    EXPECT_TRUE(ui.model.pending(row)->test(cpu));
    ASSERT_TRUE(ui.model.setData(ui.model.index(row, MaskGridModel::CpuList), QStringLiteral("0-1"),
                                 Qt::EditRole));
    EXPECT_EQ(ui.model.pending(row)->toList(), "0-1");
    EXPECT_EQ(ui.undo.count(), 2);
    ui.undo.undo();
    ui.undo.undo();
    EXPECT_EQ(*ui.model.pending(row), before);
    // "Recommend": the planner's whole layout as one step.
    std::map<int, CpuMask> masks;
    MaskGridModel scratch;
    scratch.setSnapshot(ui.model.snapshot());
    scratch.setPendingLayout(coresteer::layout::plan(*ui.model.snapshot()));
    for (int r = 0; r < scratch.rowCount(); ++r)
        if (const auto m = scratch.pending(r))
            masks.emplace(r, *m);
    ui.view.applyMasks(masks, QStringLiteral("Recommend"));
    EXPECT_GT(ui.model.changedCount(), 0);
    EXPECT_EQ(ui.undo.count(), 1);
    ui.undo.undo();
    EXPECT_EQ(ui.model.changedCount(), 0);
}

// Threaded NAPI from an interface's heading row: switched as one undoable step, shown on the
// heading ("threaded NAPI off → on"), carried by the pending layout; back as it is, no switch.
TEST(MaskGridView, ThreadedNapiIsSwitchedOnTheInterfaceRow) {
    GridUi ui("nanopi-r6s-openwrt");
    int head = -1;
    for (int r = 0; r < ui.model.rowCount() && head < 0; ++r)
        if (ui.model.kind(r) == MaskGridModel::RowKind::Interface &&
            ui.model.interfaceOf(r) == QStringLiteral("eth1"))
            head = r;
    ASSERT_GE(head, 0);
    const auto change = [&] {
        return ui.model.index(head, MaskGridModel::Change).data().toString();
    };
    EXPECT_EQ(change(), QStringLiteral("threaded NAPI off"));
    ASSERT_TRUE(ui.view.chooseThreaded(head, true));
    EXPECT_EQ(change(), QStringLiteral("threaded NAPI off → on"));
    auto l = ui.model.pendingLayout();
    ASSERT_EQ(l.interfaces.size(), 1u);
    EXPECT_EQ(l.interfaces[0].interface, "eth1");
    EXPECT_EQ(l.interfaces[0].threaded, true);
    ui.undo.undo();
    EXPECT_EQ(change(), QStringLiteral("threaded NAPI off"));
    EXPECT_TRUE(ui.model.pendingLayout().interfaces.empty());
    ui.undo.redo();
    EXPECT_EQ(ui.model.pendingLayout().interfaces.size(), 1u);
    // Back to what the router has: no switch left.
    ASSERT_TRUE(ui.view.chooseThreaded(head, false));
    EXPECT_TRUE(ui.model.pendingLayout().interfaces.empty());
    // An interface whose kernel has no switch offers none.
    GridUi old("ipq4019-acrh17"); // Linux 5.10: no threaded switch yet
    for (int r = 0; r < old.model.rowCount(); ++r)
        if (old.model.kind(r) == MaskGridModel::RowKind::Interface) {
            EXPECT_FALSE(old.view.chooseThreaded(r, true)) << r;
        }
}

// The interface heading offers queue pairs and the RSS spread where ethtool showed them, as
// undoable edits of the pending layout; the heading says what they become.
TEST(MaskGridView, QueuePairsAndRssAreChosenOnTheInterfaceHeading) {
    auto snap = buildSnapshot(collectLocal(test::boardDir("x86-server-96")));
    for (auto& nif : snap.interfaces)
        if (nif.name == "eno1") {
            nif.channels = Channels{};
            nif.channels->combined = {8u, 8u};
            nif.rss = RssTable{8, RssSpread{}.tableFor(128, 8)};
        }
    snap.reindex();
    GridUi ui(std::make_shared<const Snapshot>(std::move(snap)));
    const auto heading = [&](const QString& name) {
        for (int r = 0; r < ui.model.rowCount(); ++r)
            if (ui.model.kind(r) == MaskGridModel::RowKind::Interface &&
                ui.model.interfaceOf(r) == name)
                return r;
        return -1;
    };
    const int head = heading(QStringLiteral("eno1"));
    ASSERT_GE(head, 0);
    const auto change = [&] {
        return ui.model.index(head, MaskGridModel::Change).data().toString().toStdString();
    };
    EXPECT_EQ(change(), "threaded NAPI off  ·  8 queue pairs  ·  RSS default");
    ASSERT_TRUE(ui.view.chooseQueuePairs(head, 4));
    ASSERT_TRUE(ui.view.chooseRss(head, RssSpread{2, {}}));
    EXPECT_EQ(change(), "threaded NAPI off  ·  8 queue pairs → 4  ·  RSS default → equal 2");
    auto l = ui.model.pendingLayout();
    ASSERT_EQ(l.interfaces.size(), 1u);
    EXPECT_EQ(l.interfaces[0].channels.combined, 4u);
    EXPECT_EQ(l.interfaces[0].rss->toString(), "equal 2");
    ui.undo.undo();
    EXPECT_EQ(change(), "threaded NAPI off  ·  8 queue pairs → 4  ·  RSS default");
    // Back to what the router has: nothing left to set.
    ASSERT_TRUE(ui.view.chooseQueuePairs(head, 8));
    EXPECT_TRUE(ui.model.pendingLayout().interfaces.empty());
    // An interface without them offers neither.
    const int eno2 = heading(QStringLiteral("eno2"));
    ASSERT_GE(eno2, 0);
    EXPECT_FALSE(ui.view.chooseQueuePairs(eno2, 2));
    EXPECT_FALSE(ui.view.chooseRss(eno2, RssSpread{}));
}

// 96 cores in a window 1400 px wide: the CPU columns narrow to what shows their numbers, the
// grid scrolls, and the rows' names, masks and CPU lists stay in place over the CPUs; a click
// on the last CPU, scrolled to, still edits its row.
TEST(MaskGridView, NinetySixCoresScrollUnderTheRowsNames) {
    GridUi ui("x86-server-96");
    QApplication::processEvents();
    ASSERT_EQ(ui.model.cpuCount(), 96);
    auto* header = qobject_cast<MaskGridHeader*>(ui.view.horizontalHeader());
    ASSERT_TRUE(header);
    EXPECT_TRUE(header->groups().empty()); // one class of core: no band
    const int numbers = ui.view.fontMetrics().horizontalAdvance(QStringLiteral("95"));
    for (int c = 0; c < 96; ++c) {
        const int w = ui.view.columnWidth(MaskGridModel::FirstCpu + c);
        EXPECT_GE(w, numbers + 8) << "CPU " << c;
        EXPECT_LE(w, 32) << "CPU " << c;
    }
    EXPECT_GT(ui.view.horizontalScrollBar()->maximum(), 0);
    auto* frozen = ui.view.frozenColumns();
    ASSERT_TRUE(frozen);
    EXPECT_TRUE(frozen->isVisible());
    int names = 0;
    for (int c = 0; c < MaskGridModel::FirstCpu; ++c) {
        EXPECT_FALSE(frozen->isColumnHidden(c));
        EXPECT_EQ(frozen->columnWidth(c), ui.view.columnWidth(c));
        names += ui.view.columnWidth(c);
    }
    EXPECT_TRUE(frozen->isColumnHidden(MaskGridModel::FirstCpu));
    EXPECT_EQ(frozen->width(), names);

    int row = 0;
    while (row < ui.model.rowCount() && ui.model.kind(row) != MaskGridModel::RowKind::Irq)
        ++row;
    ASSERT_LT(row, ui.model.rowCount()) << "the board's first IRQ";
    const auto before = *ui.model.pending(row);
    const QPoint at = ui.cell(row, 95);
    EXPECT_GT(ui.view.horizontalScrollBar()->value(), 0);
    // The cell is right of the names kept in place, and inside the view.
    EXPECT_GE(ui.view.columnViewportPosition(MaskGridModel::FirstCpu + 95), frozen->width());
    EXPECT_LE(at.x(), ui.view.viewport()->width());
    EXPECT_EQ(frozen->columnViewportPosition(MaskGridModel::Target), 0);
    QTest::mouseClick(ui.view.viewport(), Qt::LeftButton, {}, at);
    EXPECT_NE(ui.model.pending(row)->toList(), before.toList());
    EXPECT_TRUE(ui.model.pending(row)->test(95) != before.test(95));
    // Back to CPU 0: the first CPU comes out from under the names too.
    ui.cell(row, 0);
    EXPECT_GE(ui.view.columnViewportPosition(MaskGridModel::FirstCpu), frozen->width());
}

// Eight cores in two classes fit: no scrolling, the columns at full width, and the header
// names each class once, over its run of CPUs, with its top frequency where there is room.
TEST(MaskGridView, TheHeaderNamesEachClassOfCoreOnce) {
    GridUi ui("nanopi-r6s-openwrt");
    QApplication::processEvents();
    auto* header = qobject_cast<MaskGridHeader*>(ui.view.horizontalHeader());
    ASSERT_TRUE(header);
    const auto groups = header->groups();
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].name, QStringLiteral("LITTLE"));
    EXPECT_EQ(groups[0].first, MaskGridModel::FirstCpu);
    EXPECT_EQ(groups[0].last, MaskGridModel::FirstCpu + 3);
    EXPECT_EQ(groups[1].name, QStringLiteral("big"));
    EXPECT_EQ(groups[1].first, MaskGridModel::FirstCpu + 4);
    EXPECT_EQ(groups[1].last, MaskGridModel::FirstCpu + 7);
    EXPECT_TRUE(groups[0].detail.endsWith(QStringLiteral(" GHz")))
        << groups[0].detail.toStdString();
    // Four columns of 32 px hold the name and the frequency; one column, the first letter.
    EXPECT_EQ(header->bandText(groups[1], 4 * 32), QStringLiteral("big ") + groups[1].detail);
    EXPECT_EQ(header->bandText(groups[0],
                               ui.view.fontMetrics().horizontalAdvance(QStringLiteral("L")) + 6),
              QStringLiteral("L"));
    // The CPUs' header shows each number alone; the band is above them.
    EXPECT_EQ(ui.model.headerData(MaskGridModel::FirstCpu + 5, Qt::Horizontal, Qt::DisplayRole)
                  .toString(),
              QStringLiteral("5"));
    EXPECT_GE(header->height(), 2 * ui.view.fontMetrics().height());
    EXPECT_EQ(ui.view.horizontalScrollBar()->maximum(), 0);
    EXPECT_FALSE(ui.view.frozenColumns()->isVisible());
    for (int c = 0; c < 8; ++c)
        EXPECT_EQ(ui.view.columnWidth(MaskGridModel::FirstCpu + c), 32);
}
