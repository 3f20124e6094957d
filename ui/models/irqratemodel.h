// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// IrqRateModel: the Live tab's table of NIC interrupts, one row per IRQ of the snapshot's
// interfaces (in the order of the interfaces, each IRQ once): its number, action name and
// interface from the snapshot, and from each tick how often it fires and on which CPUs.
//
//   IRQ  Name       Interface  Rate /s  Fires on
//   173  eth2-rx-0  eth2       12.3k    CPU3
//
// A snapshot makes the rows (a reset); a tick changes the two live columns with one dataChanged
// that names its roles. RawValueRole holds the numbers (interrupts a second, the CPUs' numbers),
// DisplayRole the text made from them.
#pragma once

#include "core/live/sample.h"
#include "ui/base/snapshotptr.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <optional>
#include <vector>

namespace coresteer::ui {

class IrqRateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Irq, Name, Interface, Rate, FiresOn, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole + 1 };
    // An IRQ fires on a CPU when it does so at least this often (a second).
    static constexpr double kFiresOnPerSecond = 0.5;

    explicit IrqRateModel(QObject* parent = nullptr);
    // One row per NIC IRQ of `snap`, with no rates yet (nullptr: no rows).
    void setSnapshot(const SnapshotPtr& snap);
    // The live columns from one tick: an IRQ the tick has no rate for shows none.
    void setRates(const live::Rates& rates);
    // The rows' IRQs, in order (the ones the Live tab keeps a history of).
    const std::vector<std::uint32_t>& irqs() const { return m_irqs; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    struct Row {
        QString name, interface;
        std::optional<double> rate; // a second, all CPUs
        std::vector<int> on;        // CPUs it fires on
    };
    QVariant raw(const Row& row, int r, int column) const;
    QVariant text(const Row& row, int r, int column) const;

    std::vector<std::uint32_t> m_irqs;
    std::vector<Row> m_rows;
};

} // namespace coresteer::ui
