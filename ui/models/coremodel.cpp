// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/coremodel.h"

#include <QFont>

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

void CoreModel::setPendingGovernors(std::vector<layout::GovernorTarget> governors) {
    m_governors = std::move(governors);
    if (rowCount() > 0)
        emit dataChanged(index(0, Governor), index(rowCount() - 1, Governor));
}

const CpufreqPolicy* CoreModel::policyOf(int row) const {
    if (!m_snap || row < 0 || row >= rowCount())
        return nullptr;
    const int cpu = m_snap->topology.cpus[static_cast<std::size_t>(row)].id;
    for (const auto& p : m_snap->topology.policies)
        if (p.cpus.test(cpu))
            return &p;
    return nullptr;
}

const layout::GovernorTarget* CoreModel::pendingGovernor(int policy) const {
    for (const auto& g : m_governors)
        if (g.policy == policy)
            return &g;
    return nullptr;
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
    if (index.column() == Governor) {
        const auto* p = policyOf(index.row());
        if (!p)
            return {};
        const auto* g = pendingGovernor(p->id);
        const bool changes = g && g->governor != p->governor;
        switch (role) {
        case Qt::DisplayRole:
            return QString(QString::fromStdString(p->governor) +
                           (changes ? QStringLiteral(" → ") + QString::fromStdString(g->governor)
                                    : QString()));
        case RawValueRole:
            return QString::fromStdString(changes ? g->governor : p->governor);
        case PolicyRole:
            return p->id;
        case Qt::FontRole:
            if (changes) {
                QFont f;
                f.setBold(true);
                return f;
            }
            return {};
        case Qt::ToolTipRole: {
            QString tip = tr("cpufreq policy%1 (CPU %2)")
                              .arg(p->id)
                              .arg(QString::fromStdString(p->cpus.toList()));
            if (p->minKHz && p->maxKHz)
                tip += tr(": %1 to %2 MHz").arg(*p->minKHz / 1000).arg(*p->maxKHz / 1000);
            if (const auto slow = p->slowBecause(); !slow.empty())
                tip += QStringLiteral("\n") + tr("Slow: %1.").arg(QString::fromStdString(slow));
            if (changes && !g->why.empty())
                tip += QStringLiteral("\n") + QString::fromStdString(g->why);
            tip += QStringLiteral("\n") + tr("Right-click to choose the governor.");
            return tip;
        }
        default:
            return {};
        }
    }
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
    if (role == Qt::TextAlignmentRole && index.column() >= MaxFreq && index.column() != Governor)
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
    case Governor:
        return tr("Governor");
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
