// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridModel: rows per interface, current and pending masks, edits, the planner's layout
// shown as pending and turned back into a layout, updates that keep pending edits.
#include "core/collect/collect_local.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"
#include "tests/unit/ui/grid_helpers.h"
#include "ui/models/maskgridmodel.h"
#include "ui/views/maskgridview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <map>

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::ui;
using namespace coresteer::test;

TEST(MaskGrid, PassesTheModelTesterOnEveryBoard) {
    for (const auto& b : test::boardNames()) {
        SCOPED_TRACE(b);
        MaskGridModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        const auto snap = board(b);
        model.setSnapshot(snap);
        EXPECT_EQ(model.columnCount(), MaskGridModel::FirstCpu + snap->topology.maskWidth);
        // (A one-core kernel has no smp_affinity at all: nothing to show.)
        if (snap->topology.maskWidth > 1) {
            EXPECT_GT(model.rowCount(), 0);
        }
        // Every row under a heading belongs to that heading's interface.
        QString iface;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.kind(r) == MaskGridModel::RowKind::Interface)
                iface = model.index(r, 0).data(MaskGridModel::InterfaceRole).toString();
            else
                EXPECT_EQ(model.index(r, 0).data(MaskGridModel::InterfaceRole).toString(), iface);
        }
        // The planner's layout, shown as pending and read back, is the same set of writes.
        const auto plan = coresteer::layout::plan(*snap);
        EXPECT_TRUE(model.setPendingLayout(plan).isEmpty());
        EXPECT_EQ(changes(model.pendingLayout(), *snap), changes(plan, *snap));
        model.clearPending();
        EXPECT_EQ(model.changedCount(), 0);
        model.setSnapshot(nullptr);
        EXPECT_EQ(model.rowCount(), 0);
    }
}

TEST(MaskGrid, ToggleAndTypeMasks) {
    MaskGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(board("nanopi-r6s-openwrt"));
    const int row = findRow(model, QStringLiteral("IRQ 96  eth1"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(model.index(row, MaskGridModel::Change).data().toString(), QStringLiteral("40"));
    EXPECT_TRUE(
        model.index(row, MaskGridModel::FirstCpu + 6).data(MaskGridModel::CurrentRole).toBool());
    // Click CPU 2.
    ASSERT_TRUE(model.setData(model.index(row, MaskGridModel::FirstCpu + 2), Qt::Checked,
                              Qt::CheckStateRole));
    EXPECT_TRUE(model.index(row, 0).data(MaskGridModel::ChangedRole).toBool());
    EXPECT_EQ(model.index(row, MaskGridModel::Change).data().toString(), QStringLiteral("40 → 44"));
    EXPECT_EQ(model.index(row, MaskGridModel::CpuList).data().toString(), QStringLiteral("2,6"));
    auto l = model.pendingLayout();
    ASSERT_EQ(l.irqs.size(), 1u);
    EXPECT_EQ(l.irqs[0].irq.action, "eth1");
    EXPECT_EQ(l.irqs[0].cpus.toList(), "2,6");
    // Type a cpulist, then a hex mask.
    ASSERT_TRUE(model.setData(model.index(row, MaskGridModel::CpuList), QStringLiteral("4-5"),
                              Qt::EditRole));
    EXPECT_EQ(model.pending(row)->toList(), "4-5");
    ASSERT_TRUE(
        model.setData(model.index(row, MaskGridModel::Change), QStringLiteral("0f"), Qt::EditRole));
    EXPECT_EQ(model.pending(row)->toList(), "0-3");
    // What the router cannot take is refused: CPU 9 of 8, an IRQ with no CPU.
    EXPECT_FALSE(
        model.setData(model.index(row, MaskGridModel::CpuList), QStringLiteral("9"), Qt::EditRole));
    EXPECT_FALSE(model.setData(model.index(row, MaskGridModel::CpuList), QString(), Qt::EditRole));
    EXPECT_FALSE(
        model.setData(model.index(row, MaskGridModel::CpuList), QStringLiteral("x"), Qt::EditRole));
    EXPECT_EQ(model.pending(row)->toList(), "0-3");
    // RPS may be switched off.
    const int rps = findRow(model, QStringLiteral("rx-0  RPS"));
    ASSERT_GE(rps, 0);
    EXPECT_TRUE(model.setData(model.index(rps, MaskGridModel::CpuList), QString(), Qt::EditRole));
    // Heading rows take nothing.
    const int head = row - 1;
    ASSERT_EQ(model.kind(head), MaskGridModel::RowKind::Interface);
    EXPECT_FALSE(
        model.setData(model.index(head, MaskGridModel::FirstCpu), Qt::Checked, Qt::CheckStateRole));
}

TEST(MaskGrid, ANewSnapshotOfTheSameRouterKeepsPendingEdits) {
    MaskGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(board("nanopi-r4s"));
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    int row = -1;
    for (int r = 0; r < model.rowCount() && row < 0; ++r)
        if (model.kind(r) == MaskGridModel::RowKind::Irq)
            row = r;
    ASSERT_GE(row, 0);
    ASSERT_TRUE(model.setPending(row, CpuMask::fromCpus({5}), QStringLiteral("a big core")));
    model.setSnapshot(board("nanopi-r4s"));
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(changed.count(), 2); // the edit, then one update of everything
    EXPECT_EQ(model.pending(row)->toList(), "5");
    EXPECT_TRUE(model.index(row, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("a big core")));
    // Another router: a new row set.
    model.setSnapshot(board("bpi-r4"));
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.changedCount(), 0);
}

TEST(MaskGrid, LoadShowsInCellsAndHeaders) {
    MaskGridModel model;
    model.setSnapshot(board("nanopi-r6s-openwrt"));
    model.setCpuLoad({0.9, 0.1, 0, 0, 0, 0, 0, 0});
    EXPECT_DOUBLE_EQ(
        model.headerData(MaskGridModel::FirstCpu, Qt::Horizontal, MaskGridModel::CpuLoadRole)
            .toDouble(),
        0.9);
    EXPECT_TRUE(model.headerData(MaskGridModel::FirstCpu, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("90% busy")));
    EXPECT_EQ(
        model.headerData(MaskGridModel::FirstCpu + 4, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("4"));
    EXPECT_EQ(
        model.headerData(MaskGridModel::FirstCpu + 4, Qt::Horizontal, MaskGridModel::CpuClassRole)
            .toStringList()
            .value(0),
        QStringLiteral("big"));
    EXPECT_TRUE(model.headerData(MaskGridModel::FirstCpu + 4, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("big core")));
}

// mt76's TX worker is one row, under the first interface of its chip, and a click on it becomes
// the interface's tx_worker_cpus; a threaded IRQ's handler is named on its IRQ's row, and a
// layout's worker target lands on the worker's row.
TEST(MaskGrid, TheWifiTxWorkerIsARowAndAThreadedIrqIsNamed) {
    Snapshot s = buildSnapshot(collectLocal(test::boardDir("bpi-r4")));
    for (const char* name : {"phy0-ap0", "phy1-ap0", "phy2-ap0"})
        for (auto& nif : s.interfaces)
            if (nif.name == name) {
                nif.txWorkers.push_back({702, "mt76-tx phy0", "phy0", CpuMask::fromList("0-3")});
                nif.irqThreads.push_back({704, "irq/130-mt7996e", "130", CpuMask::fromList("2")});
            }
    MaskGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(std::make_shared<const Snapshot>(std::move(s)));
    int workers = 0, row = -1;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.kind(r) == MaskGridModel::RowKind::TxWorker) {
            ++workers;
            row = r;
        }
    ASSERT_EQ(workers, 1);
    EXPECT_EQ(model.index(row, MaskGridModel::Target).data().toString(),
              QStringLiteral("mt76-tx phy0"));
    EXPECT_GE(findRow(model, QStringLiteral("IRQ 130  mt7996e  + irq/130-mt7996e")), 0);
    ASSERT_TRUE(
        model.setData(model.index(row, MaskGridModel::CpuList), QStringLiteral("1"), Qt::EditRole));
    const auto l = model.pendingLayout();
    ASSERT_EQ(l.interfaces.size(), 1u);
    EXPECT_EQ(l.interfaces[0].interface, "phy0-ap0");
    EXPECT_EQ(l.interfaces[0].txWorkerCpus->toList(), "1");
    EXPECT_FALSE(l.interfaces[0].napiCpus);
    // Empty is no placement for a thread.
    EXPECT_FALSE(model.setData(model.index(row, MaskGridModel::CpuList), QString(), Qt::EditRole));

    Layout worker;
    InterfaceTarget t;
    t.interface = "phy0-ap0";
    t.txWorkerCpus = CpuMask::fromList("3");
    t.why = "away from the poll";
    worker.interfaces.push_back(t);
    EXPECT_TRUE(model.setPendingLayout(worker).isEmpty());
    EXPECT_EQ(model.pending(row)->toList(), "3");
}
