// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The preferences: the revert timeout, the live refresh rate, and the bufferbloat test's load
// targets (iperf3 servers) and hosts beyond the router (kept by ui/settings).
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace coresteer::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    void accept() override;
    QPlainTextEdit* loadTargetsEdit() const { return m_loadTargets; }
    QLineEdit* beyondEdit() const { return m_beyond; }
    QString problem() const;

private:
    QSpinBox* m_revert;
    QSpinBox* m_rate;
    QPlainTextEdit* m_loadTargets;
    QLineEdit* m_beyond;
    QLabel* m_problem;
};

} // namespace coresteer::ui
