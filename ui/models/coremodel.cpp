// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/coremodel.h"

namespace coresteer::ui {

CoreModel::CoreModel(QObject* parent) : QAbstractTableModel(parent) {}

void CoreModel::setSnapshot(SnapshotPtr snap) {
    beginResetModel();
    m_snap = std::move(snap);
    m_irqTotals.clear();
    m_netRx.clear();
    if (m_snap) {
        const auto& t = m_snap->topology;
        const auto* netRx = m_snap->softirqs.find("NET_RX");
        for (const auto& c : t.cpus) {
            quint64 irqSum = 0, rx = 0;
            const int col = m_snap->interrupts.columnOf(c.id);
            if (col >= 0)
                for (const auto& row : m_snap->interrupts.rows)
                    if (row.irq)
                        irqSum += row.counts[static_cast<std::size_t>(col)];
            if (netRx)
                for (std::size_t i = 0; i < m_snap->softirqs.cpus.size(); ++i)
                    if (m_snap->softirqs.cpus[i] == c.id && i < netRx->counts.size())
                        rx = netRx->counts[i];
            m_irqTotals.push_back(irqSum);
            m_netRx.push_back(rx);
        }
    }
    endResetModel();
}

int CoreModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_snap ? 0 : static_cast<int>(m_snap->topology.cpus.size());
}

int CoreModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CoreModel::data(const QModelIndex& index, int role) const {
    if (!m_snap || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const auto& c = m_snap->topology.cpus[row];
    const auto* cls = m_snap->topology.classOf(c.id);
    if (role == Qt::DisplayRole || role == RawValueRole) {
        const bool raw = role == RawValueRole;
        switch (index.column()) {
        case Cpu:
            return raw ? QVariant(c.id) : QVariant(QStringLiteral("cpu%1").arg(c.id));
        case Class:
            return cls ? QString::fromStdString(cls->name) : QStringLiteral("offline");
        case Uarch:
            return QString::fromStdString(c.uarch);
        case MaxFreq:
            if (!c.maxFreqKHz)
                return {};
            return raw ? QVariant(*c.maxFreqKHz)
                       : QVariant(QStringLiteral("%1 MHz").arg(*c.maxFreqKHz / 1000));
        case Capacity:
            return c.capacity ? QVariant(*c.capacity) : QVariant();
        case Irqs:
            return QVariant::fromValue(m_irqTotals[row]);
        case NetRx:
            return QVariant::fromValue(m_netRx[row]);
        default:
            break;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= MaxFreq)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant CoreModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Cpu:
        return tr("CPU");
    case Class:
        return tr("Class");
    case Uarch:
        return tr("Core");
    case MaxFreq:
        return tr("Max freq");
    case Capacity:
        return tr("Capacity");
    case Irqs:
        return tr("IRQs handled");
    case NetRx:
        return tr("NET_RX softirqs");
    default:
        return {};
    }
}

} // namespace coresteer::ui
