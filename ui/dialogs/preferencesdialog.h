// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The preferences: the revert timeout and the live refresh rate (kept by ui/settings).
#pragma once

#include <QDialog>

class QSpinBox;

namespace coresteer::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    void accept() override;

private:
    QSpinBox* m_revert;
    QSpinBox* m_rate;
};

} // namespace coresteer::ui
