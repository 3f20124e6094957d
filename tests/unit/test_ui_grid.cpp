// The mask grid model: rows per interface, current and pending masks, edits, the planner's
// layout shown as pending and turned back into a layout, updates that keep pending edits.
#include "board_expect.h"
#include "core/collect/collect_local.h"
#include "core/layout/planner.h"
#include "core/layout/resolve.h"
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
using namespace coresteer::ui;

namespace {

SnapshotPtr board(const std::string& name) {
    return std::make_shared<const Snapshot>(buildSnapshot(collectLocal(test::boardsDir() / name)));
}

int findRow(const MaskGridModel& m, const QString& label) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, MaskGridModel::Target).data().toString() == label)
            return r;
    return -1;
}

// Path -> value of the writes that change something.
std::map<std::string, std::string> changes(const Layout& l, const Snapshot& s) {
    std::map<std::string, std::string> m;
    for (const auto& w : resolve(l, s).writes)
        if (w.changes() && (w.kind == Write::Kind::IrqAffinity || w.kind == Write::Kind::RpsCpus ||
                            w.kind == Write::Kind::XpsCpus || w.kind == Write::Kind::NapiAffinity))
            m[w.path] = w.value;
    return m;
}

} // namespace

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
        const auto plan = coresteer::plan(*snap);
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
    EXPECT_TRUE(model.headerData(MaskGridModel::FirstCpu + 4, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .endsWith(QStringLiteral("\nB")));
    EXPECT_TRUE(model.headerData(MaskGridModel::FirstCpu + 4, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("big core")));
}

namespace {

struct GridUi {
    MaskGridModel model;
    QUndoStack undo;
    MaskGridView view{&model, &undo};
    explicit GridUi(const std::string& b) {
        model.setSnapshot(board(b));
        view.resize(1400, 900);
        view.show();
    }
    QPoint cell(int row, int cpu) {
        const auto i = model.index(row, MaskGridModel::FirstCpu + cpu);
        view.scrollTo(i);
        return view.visualRect(i).center();
    }
    void send(QEvent::Type t, QPoint pos, Qt::MouseButton b, Qt::MouseButtons held) {
        QMouseEvent e(t, pos, view.viewport()->mapToGlobal(pos), b, held, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &e);
    }
};

} // namespace

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
    scratch.setPendingLayout(coresteer::plan(*ui.model.snapshot()));
    for (int r = 0; r < scratch.rowCount(); ++r)
        if (const auto m = scratch.pending(r))
            masks.emplace(r, *m);
    ui.view.applyMasks(masks, QStringLiteral("Recommend"));
    EXPECT_GT(ui.model.changedCount(), 0);
    EXPECT_EQ(ui.undo.count(), 1);
    ui.undo.undo();
    EXPECT_EQ(ui.model.changedCount(), 0);
}
