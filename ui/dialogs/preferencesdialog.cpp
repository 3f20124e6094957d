// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/preferencesdialog.h"

#include "core/live/loadgen.h"
#include "ui/base/testtargets.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

namespace coresteer::ui {

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent)
    : QDialog(parent), m_accepted(current), m_revert(new QSpinBox), m_rate(new QSpinBox),
      m_loadTargets(new QPlainTextEdit), m_beyond(new QLineEdit), m_problem(new QLabel) {
    setWindowTitle(tr("Preferences"));
    m_revert->setRange(5, 86400);
    m_revert->setSuffix(tr(" s"));
    m_revert->setValue(current.revertSeconds);
    m_revert->setToolTip(tr("After an apply, the router restores its old values by itself unless "
                            "you press Keep within this time"));
    m_rate->setRange(1, 20);
    m_rate->setSuffix(tr(" Hz"));
    m_rate->setValue(current.refreshHz);
    m_rate->setToolTip(tr("How often the live load is sampled"));
    m_loadTargets->setPlainText(current.loadTargets.join(QLatin1Char('\n')));
    m_loadTargets->setPlaceholderText(tr("host[:port] or URL... [POST URL], one a line"));
    m_loadTargets->setToolTip(tr("Where the bufferbloat test's load goes, beyond the router: "
                                 "iperf3 servers (host[:port]), or URLs to download from, then "
                                 "the word POST and a URL that takes uploads; nothing is "
                                 "contacted until a test starts"));
    m_loadTargets->setMaximumHeight(90);
    m_beyond->setText(current.beyondHosts.join(QLatin1Char(' ')));
    m_beyond->setPlaceholderText(tr("hosts past the WAN, separated by spaces"));
    m_beyond->setToolTip(tr("Hosts past the router's WAN that the bufferbloat test probes for "
                            "latency (ICMP echo)"));
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // it quotes what was typed
    m_problem->hide();
    auto* form = new QFormLayout(this);
    form->addRow(tr("Automatic &revert after:"), m_revert);
    form->addRow(tr("Live &refresh rate:"), m_rate);
    form->addRow(tr("&Load targets:"), m_loadTargets);
    form->addRow(tr("Latency &beyond the router:"), m_beyond);
    form->addRow(m_problem);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString PreferencesDialog::problem() const {
    return m_problem->isHidden() ? QString() : m_problem->text();
}

// What cannot be kept is said, and nothing is kept until it is fixed.
void PreferencesDialog::accept() {
    QStringList bad;
    const auto targets = m_loadTargets->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const auto usable = usableLoadTargets(targets);
    for (const auto& t : targets)
        if (!t.trimmed().isEmpty() && !usable.contains(t.trimmed())) {
            live::LoadSpec spec;
            std::string why;
            live::parseLoadTarget(t.trimmed().toStdString(), spec, &why);
            bad << (why.empty() ? tr("not a load target: %1").arg(t.trimmed())
                                : QString::fromStdString(why));
        }
    const auto hosts = m_beyond->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const auto plain = plainHosts(hosts);
    for (const auto& h : hosts)
        if (!plain.contains(h))
            bad << tr("not a host name or address: %1").arg(h);
    if (!bad.isEmpty()) {
        m_problem->setText(bad.join(QLatin1Char('\n')));
        m_problem->show();
        return;
    }
    m_accepted = {m_revert->value(), m_rate->value(), usable, plain};
    QDialog::accept();
}

} // namespace coresteer::ui
