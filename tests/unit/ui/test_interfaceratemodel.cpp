// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// InterfaceRateModel (ui/models/interfaceratemodel.h): the Live tab's throughput, a row an
// interface of the tick; a reset only when the interfaces change, else one dataChanged a tick.
#include "tests/unit/ui/ui_helpers.h"
#include "ui/models/interfaceratemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace coresteer;
using namespace coresteer::live;
using namespace coresteer::ui;
using namespace coresteer::test;

namespace {

// A tick with these interfaces, each at `mbps` in and a tenth of it out, 1500-byte packets.
Rates ifaceTick(const std::vector<std::string>& names, double mbps) {
    Rates r;
    for (const auto& n : names) {
        IfaceRate i;
        i.name = n;
        i.rxBitsPerSec = mbps * 1e6;
        i.txBitsPerSec = mbps * 1e5;
        i.rxPacketsPerSec = i.rxBitsPerSec / 12000;
        i.txPacketsPerSec = i.txBitsPerSec / 12000;
        r.interfaces.push_back(i);
    }
    return r;
}

} // namespace

TEST(InterfaceRateModel, RowsAreTheTicksInterfacesInTheirUnits) {
    InterfaceRateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setRates(ifaceTick({"eth0", "eth1"}, 940.14));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), InterfaceRateModel::ColumnCount);
    EXPECT_EQ(cell(model, 1, InterfaceRateModel::Interface).toString(), QStringLiteral("eth1"));
    // Text in the columns' units, raw values as the sampler gives them.
    EXPECT_EQ(cell(model, 0, InterfaceRateModel::InMbps).toString(), QStringLiteral("940.1"));
    EXPECT_EQ(cell(model, 0, InterfaceRateModel::OutMbps).toString(), QStringLiteral("94.0"));
    EXPECT_EQ(cell(model, 0, InterfaceRateModel::InKpps).toString(), QStringLiteral("78.3"));
    EXPECT_DOUBLE_EQ(
        cell(model, 0, InterfaceRateModel::InMbps, InterfaceRateModel::RawValueRole).toDouble(),
        940.14e6);
    EXPECT_DOUBLE_EQ(
        cell(model, 0, InterfaceRateModel::OutKpps, InterfaceRateModel::RawValueRole).toDouble(),
        94.014e6 / 12000);
    EXPECT_EQ(cell(model, 0, InterfaceRateModel::InMbps, Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignRight | Qt::AlignVCenter));
    EXPECT_FALSE(cell(model, 0, InterfaceRateModel::Interface, Qt::TextAlignmentRole).isValid());
    EXPECT_EQ(
        model.headerData(InterfaceRateModel::OutKpps, Qt::Horizontal, Qt::DisplayRole).toString(),
        QStringLiteral("Out kpps"));
}

// Reset only on a change of structure: the same interfaces again are one dataChanged over the
// four numbers of every row, naming its roles; an interface that comes or goes makes the rows
// again; clear() empties them.
TEST(InterfaceRateModel, OneDataChangedATickAResetOnlyWhenTheInterfacesChange) {
    InterfaceRateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setRates(ifaceTick({"eth0", "eth1"}, 100));
    EXPECT_EQ(reset.size(), 1);
    EXPECT_EQ(changed.size(), 0);
    model.setRates(ifaceTick({"eth0", "eth1"}, 200));
    model.setRates(ifaceTick({"eth0", "eth1"}, 300));
    EXPECT_EQ(reset.size(), 1);
    ASSERT_EQ(changed.size(), 2);
    EXPECT_EQ(changed[1][0].value<QModelIndex>(), model.index(0, InterfaceRateModel::InMbps));
    EXPECT_EQ(changed[1][1].value<QModelIndex>(), model.index(1, InterfaceRateModel::OutKpps));
    EXPECT_EQ(changed[1][2].value<QList<int>>(),
              (QList<int>{Qt::DisplayRole, InterfaceRateModel::RawValueRole}));
    EXPECT_EQ(cell(model, 1, InterfaceRateModel::InMbps).toString(), QStringLiteral("300.0"));

    model.setRates(ifaceTick({"eth0", "eth1", "wg0"}, 300)); // a tunnel came up
    EXPECT_EQ(reset.size(), 2);
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(cell(model, 2, InterfaceRateModel::Interface).toString(), QStringLiteral("wg0"));
    model.setRates(ifaceTick({"eth1", "eth0", "wg0"}, 300)); // another order is other rows
    EXPECT_EQ(reset.size(), 3);
    EXPECT_EQ(cell(model, 0, InterfaceRateModel::Interface).toString(), QStringLiteral("eth1"));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(reset.size(), 4);
    model.clear(); // nothing to clear: nothing said
    model.setRates(Rates{});
    EXPECT_EQ(reset.size(), 4);
    EXPECT_EQ(changed.size(), 2);
}
