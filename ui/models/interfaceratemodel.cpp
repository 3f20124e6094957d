// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/interfaceratemodel.h"

#include "ui/base/qtext.h"

namespace coresteer::ui {

InterfaceRateModel::InterfaceRateModel(QObject* parent) : QAbstractTableModel(parent) {}

void InterfaceRateModel::setRates(const live::Rates& rates) {
    QStringList names;
    for (const auto& n : rates.interfaces)
        names << qs(n.name);
    if (names != m_names) {
        // Other rows: an interface came or went.
        beginResetModel();
        m_names = std::move(names);
        m_rates = rates.interfaces;
        endResetModel();
        return;
    }
    if (m_rates.empty())
        return;
    m_rates = rates.interfaces;
    // One tick, one frame: the four numbers of every row, text and numbers.
    Q_EMIT dataChanged(index(0, InMbps), index(rowCount() - 1, OutKpps),
                       {Qt::DisplayRole, RawValueRole});
}

void InterfaceRateModel::clear() {
    if (m_rates.empty())
        return;
    beginResetModel();
    m_names.clear();
    m_rates.clear();
    endResetModel();
}

int InterfaceRateModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rates.size());
}

int InterfaceRateModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double InterfaceRateModel::value(int row, int column) const {
    const auto& n = m_rates[static_cast<std::size_t>(row)];
    switch (column) {
    case InMbps:
        return n.rxBitsPerSec;
    case OutMbps:
        return n.txBitsPerSec;
    case InKpps:
        return n.rxPacketsPerSec;
    case OutKpps:
        return n.txPacketsPerSec;
    }
    return 0;
}

QVariant InterfaceRateModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int column = index.column();
    if (column == Interface)
        return role == Qt::DisplayRole || role == RawValueRole ? QVariant(m_names[index.row()])
                                                               : QVariant();
    switch (role) {
    case Qt::DisplayRole: {
        // Mb/s and kpps, one decimal.
        const double unit = column == InMbps || column == OutMbps ? 1e6 : 1e3;
        return QString::number(value(index.row(), column) / unit, 'f', 1);
    }
    case RawValueRole:
        return value(index.row(), column);
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant InterfaceRateModel::headerData(int section, Qt::Orientation o, int role) const {
    static const char* const kTitles[ColumnCount] = {QT_TR_NOOP("Interface"), QT_TR_NOOP("In Mb/s"),
                                                     QT_TR_NOOP("Out Mb/s"), QT_TR_NOOP("In kpps"),
                                                     QT_TR_NOOP("Out kpps")};
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    return tr(kTitles[section]);
}

} // namespace coresteer::ui
