// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/connectdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace coresteer::ui {

ConnectDialog::ConnectDialog(const QStringList& recentHosts, const QStringList& configAliases,
                             QWidget* parent)
    : QDialog(parent), m_host(new QComboBox), m_user(new QLineEdit), m_port(new QSpinBox),
      m_identity(new QLineEdit), m_root(new QLineEdit(QStringLiteral("/"))), m_problem(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
    setWindowTitle(tr("Connect to a router"));
    m_host->setEditable(true);
    m_host->setInsertPolicy(QComboBox::NoInsert);
    m_host->lineEdit()->setPlaceholderText(tr("host, user@host:port, or an ~/.ssh/config alias"));
    m_host->addItems(recentHosts);
    if (!configAliases.isEmpty()) {
        if (!recentHosts.isEmpty())
            m_host->insertSeparator(m_host->count());
        for (const auto& a : configAliases)
            m_host->addItem(a, tr("from ~/.ssh/config"));
    }
    for (int i = recentHosts.size() + (recentHosts.isEmpty() ? 0 : 1); i < m_host->count(); ++i)
        m_host->setItemData(i, tr("Host alias from ~/.ssh/config"), Qt::ToolTipRole);
    m_host->setCurrentIndex(m_host->count() > 0 ? 0 : -1);
    m_host->setToolTip(tr("The router's name or address. Aliases from ~/.ssh/config bring their "
                          "HostName, User, Port and IdentityFile along."));
    m_user->setPlaceholderText(tr("from ~/.ssh/config, else your user name"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("default"));
    m_port->setToolTip(tr("0: the port from ~/.ssh/config, else 22"));
    m_identity->setPlaceholderText(tr("the agent, then ~/.ssh/id_*"));
    m_root->setToolTip(tr("The directory on the router to read /proc and /sys under: / on a "
                          "router, a copy of one for a test"));
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const auto f = QFileDialog::getOpenFileName(this, tr("Private key"),
                                                    QDir::homePath() + QStringLiteral("/.ssh"));
        if (!f.isEmpty())
            m_identity->setText(f);
    });
    auto* identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&User:"), m_user);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("&Identity file:"), identityRow);
    form->addRow(tr("&Root on the router:"), m_root);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828"));
    auto* note = new QLabel(
        tr("The host key is checked against ~/.ssh/known_hosts. Login tries the SSH agent, then "
           "your keys, then asks for a password; nothing is stored."));
    note->setWordWrap(true);
    auto* box = new QVBoxLayout(this);
    box->addLayout(form);
    box->addWidget(note);
    box->addWidget(m_problem);
    box->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_host, &QComboBox::currentTextChanged, this, &ConnectDialog::validate);
    connect(m_user, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    connect(m_root, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    validate();
}

std::optional<ssh::Target> ConnectDialog::target(QString* error) const {
    const auto host = m_host->currentText().trimmed();
    std::string why;
    if (host.isEmpty()) {
        if (error)
            *error = tr("Name the router.");
        return std::nullopt;
    }
    auto t = ssh::parseTarget(host.toStdString(), &why);
    if (t && !m_user->text().trimmed().isEmpty()) {
        auto u = ssh::parseTarget(m_user->text().trimmed().toStdString() + "@x", &why);
        if (u)
            t->user = u->user;
        else
            t.reset();
    }
    if (!t) {
        if (error)
            *error = QString::fromStdString(why);
        return std::nullopt;
    }
    if (m_port->value() > 0)
        t->port = m_port->value();
    t->identityFile = m_identity->text().trimmed().toStdString();
    return t;
}

QString ConnectDialog::display() const {
    const auto t = target();
    return t ? QString::fromStdString(t->display()) : QString();
}

QString ConnectDialog::root() const {
    const auto r = m_root->text().trimmed();
    return r.isEmpty() ? QStringLiteral("/") : r;
}

void ConnectDialog::validate() {
    QString error;
    bool ok = target(&error).has_value();
    if (ok && !root().startsWith(QLatin1Char('/'))) {
        ok = false;
        error = tr("The root on the router is an absolute path.");
    }
    m_problem->setText(ok ? QString() : error);
    m_problem->setVisible(!ok && !m_host->currentText().trimmed().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

} // namespace coresteer::ui
