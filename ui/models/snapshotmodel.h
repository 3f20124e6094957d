// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// SnapshotModel: interfaces, each with its IRQs and queues as children.
//
//   eth1                  r8169  0002:21:00.0
//     IRQ 96  eth1        40     6          ...
//     rx-0 rps_cpus       ff     0-7
//     tx-0 xps_cpus       00
#pragma once

#include "ui/base/snapshotptr.h"

#include <QAbstractItemModel>

namespace coresteer::ui {

class SnapshotModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Detail, MaskHex, MaskCpus, Effective, Total, ColumnCount };
    enum Role { KindRole = Qt::UserRole + 1, IrqRole, RawValueRole };
    enum class Kind { Interface, Irq, RxQueue, TxQueue };

    explicit SnapshotModel(QObject* parent = nullptr);
    void setSnapshot(SnapshotPtr snap);
    SnapshotPtr snapshot() const { return m_snap; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    struct Child {
        Kind kind;
        std::size_t index; // IRQ number, or queue position
    };
    struct Row {
        const NetInterface* nif;
        std::vector<Child> children;
    };
    QVariant interfaceData(const Row& r, int column, int role) const;
    QVariant childData(const Row& r, const Child& c, int column, int role) const;

    SnapshotPtr m_snap;
    std::vector<Row> m_rows;
};

} // namespace coresteer::ui
