// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// CoreModel: one row per CPU with its class, frequency, cpufreq governor (and the one a pending
// layout sets) and interrupt share.
#pragma once

#include "ui/base/snapshotptr.h"

#include "core/layout/layout.h"

#include <QAbstractTableModel>

#include <vector>

namespace coresteer::ui {

class CoreModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Cpu, Class, Uarch, MaxFreq, Governor, Capacity, Irqs, NetRx, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole + 1, PolicyRole };

    explicit CoreModel(QObject* parent = nullptr);
    void setSnapshot(SnapshotPtr snap);
    // The governors a pending layout sets: shown as "powersave → schedutil".
    void setPendingGovernors(std::vector<layout::GovernorTarget> governors);
    // The cpufreq policy of a row's CPU, or null.
    const CpufreqPolicy* policyOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    SnapshotPtr m_snap;
    std::vector<quint64> m_irqTotals, m_netRx; // per row
    std::vector<layout::GovernorTarget> m_governors;
    const layout::GovernorTarget* pendingGovernor(int policy) const;
};

} // namespace coresteer::ui
