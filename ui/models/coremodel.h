// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// CoreModel: one row per CPU with its class, frequency and interrupt share.
#pragma once

#include "ui/connection.h"

#include <QAbstractTableModel>

namespace coresteer::ui {

class CoreModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Cpu, Class, Uarch, MaxFreq, Capacity, Irqs, NetRx, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole + 1 };

    explicit CoreModel(QObject* parent = nullptr);
    void setSnapshot(SnapshotPtr snap);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    SnapshotPtr m_snap;
    std::vector<quint64> m_irqTotals, m_netRx; // per row
};

} // namespace coresteer::ui
