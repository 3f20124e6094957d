// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/snapshotmodel.h"

namespace coresteer::ui {

namespace {
constexpr quintptr kTopLevel = 0;

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

QVariant maskHex(const std::optional<CpuMask>& m) {
    return m ? QVariant(str(m->toHex())) : QVariant();
}
QVariant maskList(const std::optional<CpuMask>& m) {
    if (!m)
        return {};
    const auto l = m->toList();
    return l.empty() ? QObject::tr("none") : str(l);
}
} // namespace

SnapshotModel::SnapshotModel(QObject* parent) : QAbstractItemModel(parent) {}

void SnapshotModel::setSnapshot(SnapshotPtr snap) {
    beginResetModel();
    m_snap = std::move(snap);
    m_rows.clear();
    if (m_snap) {
        for (const auto& nif : m_snap->interfaces) {
            if (nif.isVirtual() && nif.irqs.empty())
                continue; // lo, bridges, tunnels: nothing to steer
            Row r{&nif, {}};
            for (auto irq : nif.irqs)
                r.children.push_back({Kind::Irq, irq});
            for (std::size_t i = 0; i < nif.rx.size(); ++i)
                r.children.push_back({Kind::RxQueue, i});
            for (std::size_t i = 0; i < nif.tx.size(); ++i)
                r.children.push_back({Kind::TxQueue, i});
            m_rows.push_back(std::move(r));
        }
    }
    endResetModel();
}

QModelIndex SnapshotModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_rows.size()) ? createIndex(row, column, kTopLevel)
                                                     : QModelIndex();
    if (parent.internalId() != kTopLevel || parent.row() >= static_cast<int>(m_rows.size()))
        return {};
    const auto& r = m_rows[static_cast<std::size_t>(parent.row())];
    if (row >= static_cast<int>(r.children.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex SnapshotModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTopLevel);
}

int SnapshotModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_rows.size());
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return 0;
    return static_cast<int>(m_rows[static_cast<std::size_t>(parent.row())].children.size());
}

int SnapshotModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant SnapshotModel::data(const QModelIndex& index, int role) const {
    if (!m_snap || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kTopLevel)
        return interfaceData(m_rows[static_cast<std::size_t>(index.row())], index.column(), role);
    const auto& r = m_rows[static_cast<std::size_t>(index.internalId() - 1)];
    return childData(r, r.children[static_cast<std::size_t>(index.row())], index.column(), role);
}

QVariant SnapshotModel::interfaceData(const Row& r, int column, int role) const {
    if (role == KindRole)
        return static_cast<int>(Kind::Interface);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto& n = *r.nif;
    switch (column) {
    case Name:
        return str(n.name);
    case Detail: {
        QString d = str(n.driver);
        if (!n.busDevice.empty())
            d += QStringLiteral("  ") + str(n.busDevice);
        if (!n.operstate.empty())
            d += QStringLiteral("  ") + str(n.operstate);
        return d;
    }
    default:
        return {};
    }
}

QVariant SnapshotModel::childData(const Row& r, const Child& c, int column, int role) const {
    if (role == KindRole)
        return static_cast<int>(c.kind);
    if (c.kind == Kind::Irq) {
        const auto irqNo = static_cast<std::uint32_t>(c.index);
        const auto* info = m_snap->irq(irqNo);
        const auto* row = m_snap->interrupts.findIrq(irqNo);
        if (!info || !row)
            return {};
        if (role == IrqRole)
            return irqNo;
        if (role == RawValueRole && column == Total)
            return QVariant::fromValue(row->total());
        if (role != Qt::DisplayRole)
            return {};
        switch (column) {
        case Name:
            return tr("IRQ %1").arg(irqNo);
        case Detail: {
            QStringList actions;
            for (const auto& a : row->actions)
                actions << str(a);
            QString d = actions.join(QStringLiteral(", "));
            if (info->interfaces.size() > 1)
                d += tr("  (shared by %1 interfaces)").arg(info->interfaces.size());
            return d;
        }
        case MaskHex:
            return maskHex(info->smpAffinity);
        case MaskCpus:
            return maskList(info->smpAffinity);
        case Effective:
            return maskList(info->effectiveAffinity);
        case Total:
            return QString::number(row->total());
        default:
            return {};
        }
    }
    const bool rx = c.kind == Kind::RxQueue;
    const auto& mask = rx ? r.nif->rx[c.index].rpsCpus : r.nif->tx[c.index].xpsCpus;
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Name:
        return QStringLiteral("%1-%2")
            .arg(rx ? QStringLiteral("rx") : QStringLiteral("tx"))
            .arg(rx ? r.nif->rx[c.index].index : r.nif->tx[c.index].index);
    case Detail:
        return rx ? tr("rps_cpus") : tr("xps_cpus");
    case MaskHex:
        return maskHex(mask);
    case MaskCpus:
        return maskList(mask);
    default:
        return {};
    }
}

QVariant SnapshotModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Interface / IRQ / queue");
    case Detail:
        return tr("Detail");
    case MaskHex:
        return tr("Mask");
    case MaskCpus:
        return tr("CPUs");
    case Effective:
        return tr("Effective");
    case Total:
        return tr("Interrupts");
    default:
        return {};
    }
}

} // namespace coresteer::ui
