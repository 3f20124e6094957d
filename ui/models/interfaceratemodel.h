// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// InterfaceRateModel: the Live tab's table of throughput, one row per interface of the last
// tick (from /proc/net/dev), in the tick's order:
//
//   Interface  In Mb/s  Out Mb/s  In kpps  Out kpps
//   eth2       940.1    12.3      81.2     20.4
//
// A tick with the interfaces of the one before changes the four numbers of every row with one
// dataChanged that names its roles; a tick with other interfaces (one came or went) makes the
// rows again (a reset). RawValueRole holds bits and packets a second, as the sampler gives
// them; DisplayRole the text in the columns' units.
#pragma once

#include "core/live/sample.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace coresteer::ui {

class InterfaceRateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Interface, InMbps, OutMbps, InKpps, OutKpps, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole + 1 };

    explicit InterfaceRateModel(QObject* parent = nullptr);
    void setRates(const live::Rates& rates);
    // No rows (a new router, a replay that starts again).
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    double value(int row, int column) const;

    QStringList m_names;
    std::vector<live::IfaceRate> m_rates; // by row
};

} // namespace coresteer::ui
