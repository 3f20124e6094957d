// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// IrqRateModel (ui/models/irqratemodel.h): the Live tab's NIC interrupts, rows from the
// snapshot, rates from each tick in one dataChanged that names its roles.
#include "tests/unit/ui/ui_helpers.h"
#include "ui/base/qtext.h"
#include "ui/models/irqratemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace coresteer;
using namespace coresteer::live;
using namespace coresteer::ui;
using namespace coresteer::test;

namespace {

// Four CPUs; eth0 has IRQs 100 and 101, eth1 has 101 (shared) and 102; 102 has no action name.
SnapshotPtr twoNics() {
    auto s = std::make_shared<Snapshot>();
    s->topology.maskWidth = 4;
    s->interrupts.cpus = {0, 1, 2, 3};
    for (std::uint32_t irq : {100u, 101u, 102u}) {
        IrqRow row;
        row.label = std::to_string(irq);
        row.irq = irq;
        row.counts.assign(4, 0);
        if (irq != 102)
            row.actions = {"eth0-rx-" + std::to_string(irq - 100)};
        s->interrupts.rows.push_back(row);
        IrqInfo info;
        info.irq = irq;
        info.interfaces = {irq == 102 ? "eth1" : "eth0"};
        s->irqs.push_back(info);
    }
    s->interrupts.reindex();
    NetInterface eth0, eth1;
    eth0.name = "eth0";
    eth0.irqs = {100, 101};
    eth1.name = "eth1";
    eth1.irqs = {101, 102};
    s->interfaces = {eth0, eth1};
    return s;
}

// A tick: IRQ 100 fires 12 345 times a second on CPU1 and 0.2 on CPU2; 102 does not fire.
Rates irqTick(double scale = 1) {
    Rates r;
    r.start = 10;
    r.end = 10.1;
    IrqRate a;
    a.irq = 100;
    a.perCpu = {0, 12345 * scale, 0.2, 0};
    a.total = 12345.2 * scale;
    IrqRate b;
    b.irq = 101;
    b.perCpu = {300, 0, 0, 600};
    b.total = 900;
    r.irqs = {a, b};
    return r;
}

} // namespace

TEST(IrqRateModel, RowsAreTheSnapshotsNicIrqsEachOnce) {
    IrqRateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setSnapshot(twoNics());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.columnCount(), IrqRateModel::ColumnCount);
    EXPECT_EQ(model.irqs(), (std::vector<std::uint32_t>{100, 101, 102}));
    EXPECT_EQ(cell(model, 0, IrqRateModel::Irq).toString(), QStringLiteral("100"));
    EXPECT_EQ(cell(model, 0, IrqRateModel::Irq, IrqRateModel::RawValueRole).toUInt(), 100u);
    EXPECT_EQ(cell(model, 1, IrqRateModel::Name).toString(), QStringLiteral("eth0-rx-1"));
    EXPECT_EQ(cell(model, 2, IrqRateModel::Name).toString(), QString());
    EXPECT_EQ(cell(model, 2, IrqRateModel::Interface).toString(), QStringLiteral("eth1"));
    // No tick yet: no rate, no CPU.
    EXPECT_EQ(cell(model, 0, IrqRateModel::Rate).toString(), QString());
    EXPECT_FALSE(cell(model, 0, IrqRateModel::Rate, IrqRateModel::RawValueRole).isValid());
    EXPECT_EQ(cell(model, 0, IrqRateModel::FiresOn).toString(), QString());
    // Numbers to the right, names to the left.
    EXPECT_EQ(cell(model, 0, IrqRateModel::Rate, Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_FALSE(cell(model, 0, IrqRateModel::Name, Qt::TextAlignmentRole).isValid());
    EXPECT_EQ(model.headerData(IrqRateModel::Rate, Qt::Horizontal, Qt::DisplayRole).toString(),
              QStringLiteral("Rate /s"));
    model.setSnapshot(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(model.irqs().empty());
}

// One sample makes one frame: each tick is one dataChanged over the two live columns of every
// row, naming the display and raw roles; the rows stay (no reset, no layout change).
TEST(IrqRateModel, ATickIsOneDataChangedWithItsRoles) {
    IrqRateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(twoNics());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    model.setRates(irqTick());
    ASSERT_EQ(changed.size(), 1);
    const auto topLeft = changed[0][0].value<QModelIndex>();
    const auto bottomRight = changed[0][1].value<QModelIndex>();
    EXPECT_EQ(topLeft, model.index(0, IrqRateModel::Rate));
    EXPECT_EQ(bottomRight, model.index(2, IrqRateModel::FiresOn));
    EXPECT_EQ(changed[0][2].value<QList<int>>(),
              (QList<int>{Qt::DisplayRole, IrqRateModel::RawValueRole}));
    // Raw values and text kept apart: interrupts a second and the CPUs' numbers, and their text.
    EXPECT_DOUBLE_EQ(cell(model, 0, IrqRateModel::Rate, IrqRateModel::RawValueRole).toDouble(),
                     12345.2);
    EXPECT_EQ(cell(model, 0, IrqRateModel::Rate).toString(), QStringLiteral("12.3k"));
    EXPECT_EQ(cell(model, 0, IrqRateModel::Rate).toString(), eventRate(12345.2, false));
    EXPECT_EQ(cell(model, 0, IrqRateModel::FiresOn).toString(), QStringLiteral("CPU1"));
    EXPECT_EQ(cell(model, 0, IrqRateModel::FiresOn, IrqRateModel::RawValueRole).toList(),
              QVariantList{1});
    EXPECT_EQ(cell(model, 1, IrqRateModel::Rate).toString(), QStringLiteral("900"));
    EXPECT_EQ(cell(model, 1, IrqRateModel::FiresOn).toString(), QStringLiteral("CPU0, CPU3"));
    // An IRQ the tick has no rate for shows none.
    EXPECT_EQ(cell(model, 2, IrqRateModel::Rate).toString(), QString());
    EXPECT_FALSE(cell(model, 2, IrqRateModel::Rate, IrqRateModel::RawValueRole).isValid());

    model.setRates(irqTick(0.001)); // 12 a second on CPU1: still over the line
    model.setRates(Rates{});        // nothing fired
    EXPECT_EQ(changed.size(), 3);
    EXPECT_EQ(reset.size(), 0);
    EXPECT_EQ(layout.size(), 0);
    EXPECT_EQ(cell(model, 0, IrqRateModel::Rate).toString(), QString());
    EXPECT_EQ(cell(model, 0, IrqRateModel::FiresOn).toString(), QString());
    // Without rows a tick says nothing.
    model.setSnapshot(nullptr);
    changed.clear();
    model.setRates(irqTick());
    EXPECT_TRUE(changed.isEmpty());
}
