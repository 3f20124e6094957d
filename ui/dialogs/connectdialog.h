// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Connect to a router: a host (recent hosts and ~/.ssh/config aliases offered), user, port,
// identity file, and the directory on the router to treat as its root.
#pragma once

#include "core/ssh/target.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QDialogButtonBox;

namespace coresteer::ui {

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    ConnectDialog(const QStringList& recentHosts, const QStringList& configAliases,
                  QWidget* parent = nullptr);

    // The target as entered, or nullopt with the reason in *error.
    std::optional<ssh::Target> target(QString* error = nullptr) const;
    // How to remember it among the recent hosts: "root@r6s:2222".
    QString display() const;
    QString root() const;

    QComboBox* hostBox() const { return m_host; }
    QLineEdit* userEdit() const { return m_user; }
    QSpinBox* portSpin() const { return m_port; }
    QLineEdit* identityEdit() const { return m_identity; }
    QLineEdit* rootEdit() const { return m_root; }

private:
    void validate();

    QComboBox* m_host;
    QLineEdit* m_user;
    QSpinBox* m_port;
    QLineEdit* m_identity;
    QLineEdit* m_root;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace coresteer::ui
