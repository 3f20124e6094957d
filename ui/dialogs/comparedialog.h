// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Two recordings side by side, before and after: each one's picture (heatmap, latency,
// throughput) and a table of per-core peak and mean load, throughput and the latency grade, with
// the change.
#pragma once

#include "core/live/recording.h"

#include <QDialog>

#include <memory>

class QTableWidget;

namespace coresteer::ui {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    CompareDialog(std::shared_ptr<const live::Recording> before, const QString& beforeName,
                  std::shared_ptr<const live::Recording> after, const QString& afterName,
                  QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    // The row whose first column is `what`, or -1.
    int row(const QString& what) const;

private:
    QTableWidget* m_table;
};

} // namespace coresteer::ui
