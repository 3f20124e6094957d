// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/irqratemodel.h"

#include "ui/base/qtext.h"

#include <set>

namespace coresteer::ui {

IrqRateModel::IrqRateModel(QObject* parent) : QAbstractTableModel(parent) {}

void IrqRateModel::setSnapshot(const SnapshotPtr& snap) {
    beginResetModel();
    m_irqs.clear();
    m_rows.clear();
    std::set<std::uint32_t> seen;
    if (snap)
        for (const auto& n : snap->interfaces)
            for (auto irq : n.irqs) {
                if (!seen.insert(irq).second)
                    continue;
                const auto* row = snap->interrupts.findIrq(irq);
                const auto* info = snap->irq(irq);
                m_irqs.push_back(irq);
                m_rows.push_back(
                    {row && !row->actions.empty() ? qs(row->actions.front()) : QString(),
                     info && !info->interfaces.empty() ? qs(info->interfaces.front()) : QString(),
                     std::nullopt,
                     {}});
            }
    endResetModel();
}

void IrqRateModel::setRates(const live::Rates& rates) {
    if (m_rows.empty())
        return;
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
        auto& row = m_rows[k];
        const auto* ir = rates.irq(m_irqs[k]);
        row.rate = ir ? std::optional<double>(ir->total) : std::nullopt;
        row.on.clear();
        if (ir)
            for (std::size_t c = 0; c < ir->perCpu.size(); ++c)
                if (ir->perCpu[c] >= kFiresOnPerSecond)
                    row.on.push_back(static_cast<int>(c));
    }
    // One tick, one frame: both live columns of every row, text and numbers.
    Q_EMIT dataChanged(index(0, Rate), index(rowCount() - 1, FiresOn),
                       {Qt::DisplayRole, RawValueRole});
}

int IrqRateModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int IrqRateModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IrqRateModel::raw(const Row& row, int r, int column) const {
    switch (column) {
    case Irq:
        return m_irqs[static_cast<std::size_t>(r)];
    case Name:
        return row.name;
    case Interface:
        return row.interface;
    case Rate:
        return row.rate ? QVariant(*row.rate) : QVariant();
    case FiresOn: {
        QVariantList cpus;
        for (int c : row.on)
            cpus << c;
        return cpus;
    }
    }
    return {};
}

QVariant IrqRateModel::text(const Row& row, int r, int column) const {
    switch (column) {
    case Irq:
        return QString::number(m_irqs[static_cast<std::size_t>(r)]);
    case Rate:
        return row.rate ? eventRate(*row.rate, false) : QString();
    case FiresOn: {
        QStringList cpus;
        for (int c : row.on)
            cpus << QStringLiteral("CPU%1").arg(c);
        return cpus.join(QStringLiteral(", "));
    }
    }
    return raw(row, r, column);
}

QVariant IrqRateModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return text(row, index.row(), index.column());
    case RawValueRole:
        return raw(row, index.row(), index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == Irq || index.column() == Rate)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant IrqRateModel::headerData(int section, Qt::Orientation o, int role) const {
    static const char* const kTitles[ColumnCount] = {QT_TR_NOOP("IRQ"), QT_TR_NOOP("Name"),
                                                     QT_TR_NOOP("Interface"), QT_TR_NOOP("Rate /s"),
                                                     QT_TR_NOOP("Fires on")};
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    return tr(kTitles[section]);
}

} // namespace coresteer::ui
