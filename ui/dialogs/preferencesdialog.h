// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The preferences: the revert timeout, the live refresh rate, and the bufferbloat test's load
// targets (iperf3 servers, URLs) and hosts beyond the router. The dialog edits the values it is
// given and says what cannot be kept; the window reads them from the settings and keeps them.
#pragma once

#include <QDialog>
#include <QStringList>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace coresteer::ui {

struct Preferences {
    int revertSeconds = 60; // 5..86400
    int refreshHz = 10;     // 1..20
    QStringList loadTargets;
    QStringList beyondHosts;
};

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);
    // Accepts only what can be kept (ui/base/testtargets.h); else problem() says what cannot.
    void accept() override;
    // The values accepted (those given until then).
    const Preferences& preferences() const { return m_accepted; }
    QPlainTextEdit* loadTargetsEdit() const { return m_loadTargets; }
    QLineEdit* beyondEdit() const { return m_beyond; }
    QString problem() const;

private:
    Preferences m_accepted;
    QSpinBox* m_revert;
    QSpinBox* m_rate;
    QPlainTextEdit* m_loadTargets;
    QLineEdit* m_beyond;
    QLabel* m_problem;
};

} // namespace coresteer::ui
