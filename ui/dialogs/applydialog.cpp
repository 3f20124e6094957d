// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/applydialog.h"

#include "ui/base/qtext.h"

#include "core/model/conflicts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace coresteer::ui {

using namespace coresteer::layout;

namespace {

QPlainTextEdit* codeView() {
    auto* v = new QPlainTextEdit;
    v->setReadOnly(true);
    v->setLineWrapMode(QPlainTextEdit::NoWrap);
    v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return v;
}

QString persistPreview(const PersistPlan& plan, const std::string& root) {
    QString t;
    t += QStringLiteral("# %1: %2 IRQs, %3 receive and %4 transmit queues\n")
             .arg(qs(toString(plan.flavor)))
             .arg(plan.layout.irqs.size())
             .arg(plan.layout.rx.size())
             .arg(plan.layout.tx.size());
    for (const auto& a : plan.actions)
        t += QStringLiteral("# %1\n").arg(qs(a));
    for (const auto& c : plan.conflicts)
        t += QStringLiteral("# %1: %2 -> %3\n").arg(qs(c.title), qs(c.detail), qs(c.suggestion));
    if (!plan.sysupgradeLines.empty()) {
        t += QStringLiteral("\n===== %1etc/sysupgrade.conf: lines added =====\n")
                 .arg(qs(root == "/" ? "/" : root + "/"));
        for (const auto& l : plan.sysupgradeLines)
            t += qs(l) + QLatin1Char('\n');
    }
    for (const auto& f : plan.files) {
        t += QStringLiteral("\n===== %1%2 (%3) =====\n")
                 .arg(qs(root == "/" ? "/" : root + "/"), qs(f.path),
                      f.symlink ? QStringLiteral("symlink") : QString::number(f.mode, 8));
        t += f.symlink ? QStringLiteral("-> %1\n").arg(qs(f.content)) : qs(f.content);
    }
    return t;
}

} // namespace

ApplyDialog::ApplyDialog(const QString& router, const QString& root, SnapshotPtr snapshot,
                         const Layout& changes, const Layout& full, int revertSeconds,
                         QWidget* parent)
    : QDialog(parent), m_root(root.toStdString()), m_snap(std::move(snapshot)),
      m_revertSeconds(revertSeconds), m_timer(new QTimer(this)), m_summary(new QLabel),
      m_status(new QLabel), m_tabs(new QTabWidget), m_changes(new QTreeWidget),
      m_scriptView(codeView()), m_filesView(codeView()),
      m_apply(new QPushButton(tr("&Apply at runtime"))), m_keep(new QPushButton(tr("&Keep"))),
      m_revert(new QPushButton(tr("&Revert now"))),
      m_persist(new QPushButton(tr("Make &persistent"))), m_close(new QPushButton(tr("Close"))),
      m_irqbalance(new QComboBox),
      m_bootScripts(new QCheckBox(tr("Override boot scripts that rewrite masks"))) {
    setWindowTitle(tr("Apply to %1").arg(router));
    resize(900, 620);

    m_resolution = resolve(changes, *m_snap);
    m_writes = changedWrites(m_resolution);
    m_script = makeApplyScript(m_writes, m_root, {revertSeconds, true});
    m_full = full;
    m_irqbalance->addItem(tr("irqbalance: leave it as it is"),
                          static_cast<int>(IrqbalanceChoice::Leave));
    m_irqbalance->addItem(tr("irqbalance: ban the layout's IRQs, let it balance the rest"),
                          static_cast<int>(IrqbalanceChoice::Ban));
    m_irqbalance->addItem(tr("irqbalance: stop and disable it"),
                          static_cast<int>(IrqbalanceChoice::Disable));
    m_irqbalance->setToolTip(
        tr("irqbalance moves IRQs every 10 s and undoes a layout, except the IRQs banned in its "
           "configuration. Making the layout persistent can ban the layout's IRQs in it (list "
           "banirq in /etc/config/irqbalance, or --banirq in a drop-in of its systemd unit), or "
           "stop and disable it. Removing the persistent files undoes either."));
    const auto& sys = m_snap->system;
    const bool irqbalance =
        sys.irqbalanceRunning.value_or(false) || sys.services.irqbalanceEnabled.value_or(false);
    m_irqbalance->setVisible(irqbalance);
    setIrqbalanceChoice(irqbalance ? IrqbalanceChoice::Ban : IrqbalanceChoice::Leave);
    QStringList bootScripts;
    for (const auto& s : sys.services.maskScripts)
        if (s.enabled && !s.coresteerAfter)
            bootScripts << qs(s.whereText());
    m_bootScripts->setVisible(!bootScripts.isEmpty());
    m_bootScripts->setChecked(!bootScripts.isEmpty());
    m_bootScripts->setToolTip(
        tr("These run at boot after coresteer's hotplug script and undo the layout: %1. Making "
           "the layout persistent then disables those init scripts and applies the layout again "
           "after /etc/rc.local; removing the persistent files undoes both.")
            .arg(bootScripts.join(QStringLiteral("; "))));

    m_changes->setHeaderLabels({tr("Target"), tr("Now"), tr("After"), tr("Outcome"), tr("Why")});
    m_changes->setRootIsDecorated(false);
    m_changes->setAlternatingRowColors(true);
    for (const auto& w : m_writes) {
        auto* it = new QTreeWidgetItem(m_changes, {qs(w.target), qs(w.current), qs(w.value),
                                                   tr("not applied yet"), qs(w.why)});
        it->setToolTip(0, qs(w.path));
        it->setToolTip(4, qs(w.why));
    }
    for (const auto& k : m_resolution.skipped) {
        auto* it = new QTreeWidgetItem(m_changes, {qs(k.target), QString(), QString(),
                                                   tr("does not apply: %1").arg(qs(k.reason))});
        it->setForeground(3, palette().color(QPalette::Disabled, QPalette::Text));
    }
    m_changes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_scriptView->setPlainText(qs(m_script.script));
    planPersistence();
    m_tabs->addTab(m_changes, tr("Changes (%1)").arg(m_writes.size()));
    m_tabs->addTab(m_scriptView, tr("Script run now"));
    m_tabs->addTab(m_filesView, tr("Persistent files"));

    m_summary->setWordWrap(true);
    m_summary->setText(
        tr("<b>%1 values change on %2.</b> The router keeps the old ones and restores them by "
           "itself %3 s after the apply, unless you press Keep. Nothing survives a reboot until "
           "you make it persistent.")
            .arg(m_writes.size())
            .arg(router.toHtmlEscaped())
            .arg(revertSeconds));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_status->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_status->setFont(big);

    m_keep->setToolTip(tr("The router keeps the new values (cancels its revert)"));
    m_revert->setToolTip(tr("The router restores the values it had before the apply, now"));
    m_persist->setToolTip(
        tr("Write the files above so that the layout comes back at every boot and interface "
           "event, and survives sysupgrade"));
    m_apply->setDefault(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_apply);
    buttons->addWidget(m_keep);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_persist);
    buttons->addWidget(m_irqbalance);
    buttons->addWidget(m_bootScripts);
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    auto* box = new QVBoxLayout(this);
    box->addWidget(m_summary);
    box->addWidget(m_tabs, 1);
    box->addWidget(m_status);
    box->addLayout(buttons);

    connect(m_apply, &QPushButton::clicked, this, [this] {
        m_since.start();
        setStage(Stage::Applying, tr("Applying ..."));
        Q_EMIT applyRequested(m_script, m_writes);
    });
    connect(m_keep, &QPushButton::clicked, this, [this] {
        m_timer->stop();
        setStage(Stage::Settling, tr("Keeping ..."));
        Q_EMIT settleRequested(PendingAction::Confirm);
    });
    connect(m_revert, &QPushButton::clicked, this, [this] {
        m_timer->stop();
        setStage(Stage::Settling, tr("Reverting ..."));
        Q_EMIT settleRequested(PendingAction::Revert);
    });
    connect(m_persist, &QPushButton::clicked, this, [this] {
        if (!m_plan)
            return;
        setStage(Stage::Persisting, tr("Writing the persistent files ..."));
        Q_EMIT persistRequested(makePersistScript(*m_plan, m_root));
    });
    connect(m_close, &QPushButton::clicked, this, &ApplyDialog::reject);
    connect(m_irqbalance, &QComboBox::currentIndexChanged, this, [this] {
        planPersistence();
        setStage(m_stage, m_status->text());
    });
    connect(m_bootScripts, &QCheckBox::toggled, this, [this] {
        planPersistence();
        setStage(m_stage, m_status->text());
    });
    connect(m_timer, &QTimer::timeout, this, &ApplyDialog::tick);
    m_timer->setInterval(250);

    if (m_writes.empty())
        setStage(Stage::Kept, tr("Nothing changes at runtime: the router has these values."));
    else
        setStage(Stage::Review, tr("Review the changes, the script and the files, then apply."));
}

void ApplyDialog::planPersistence() {
    PersistOptions options;
    const auto choice = static_cast<IrqbalanceChoice>(m_irqbalance->currentData().toInt());
    options.banInIrqbalance = choice == IrqbalanceChoice::Ban;
    options.disableIrqbalance = choice == IrqbalanceChoice::Disable;
    options.overrideBootScripts = m_bootScripts->isChecked();
    std::string error;
    m_plan = planPersist(m_full, *m_snap, options, &error);
    m_planError = qs(error);
    m_filesView->setPlainText(m_plan
                                  ? persistPreview(*m_plan, m_root)
                                  : tr("Nothing can be made persistent here: %1").arg(m_planError));
}

void ApplyDialog::setIrqbalanceChoice(IrqbalanceChoice c) {
    m_irqbalance->setCurrentIndex(m_irqbalance->findData(static_cast<int>(c)));
}

int ApplyDialog::secondsLeft() const {
    if (m_stage != Stage::Countdown)
        return 0;
    return std::max<int>(0, m_revertSeconds - static_cast<int>(m_since.elapsed() / 1000));
}

QString ApplyDialog::statusText() const {
    return m_status->text();
}

void ApplyDialog::setStage(Stage s, const QString& text) {
    m_stage = s;
    m_status->setText(text);
    const bool idle = s != Stage::Applying && s != Stage::Settling && s != Stage::Persisting;
    m_apply->setEnabled(s == Stage::Review || s == Stage::Reverted);
    m_keep->setEnabled(s == Stage::Countdown);
    m_revert->setEnabled(s == Stage::Countdown);
    m_persist->setEnabled(m_plan && (s == Stage::Kept || s == Stage::Persisted));
    m_close->setEnabled(idle);
    if (s == Stage::Countdown)
        m_keep->setDefault(true);
    else if (s == Stage::Kept)
        m_persist->setDefault(true);
}

void ApplyDialog::onApplied(ApplyReportPtr report) {
    if (m_stage != Stage::Applying)
        return;
    Q_EMIT outcome(report);
    Q_EMIT routerChanged();
    int bad = 0;
    for (int i = 0;
         i < m_changes->topLevelItemCount() && static_cast<std::size_t>(i) < report->results.size();
         ++i) {
        const auto& t = report->results[static_cast<std::size_t>(i)];
        QString text = qs(toString(t.status));
        if (!t.error.empty())
            text += QStringLiteral(": ") + qs(t.error);
        else if (t.status == TargetResult::Status::AppliedDifferently)
            text += tr(": reads back %1").arg(qs(t.readBack));
        auto* it = m_changes->topLevelItem(i);
        it->setText(3, text);
        const bool ok = t.status == TargetResult::Status::Applied ||
                        t.status == TargetResult::Status::AppliedPending;
        if (!ok) {
            ++bad;
            it->setForeground(3, QColor(0xc6, 0x28, 0x28));
        }
    }
    const QString refused =
        bad ? tr(" %1 targets were not applied as asked (see Changes).").arg(bad) : QString();
    if (report->rolledBack) {
        setStage(Stage::Reverted,
                 tr("A write failed, and the router restored every value at once.") + refused);
    } else if (report->revertArmed) {
        setStage(Stage::Countdown, QString());
        tick();
        m_timer->start();
    } else {
        setStage(Stage::Kept, tr("Applied.") + refused);
    }
    if (bad)
        m_tabs->setCurrentWidget(m_changes);
}

void ApplyDialog::tick() {
    if (m_stage != Stage::Countdown)
        return;
    const int left = secondsLeft();
    if (left <= 0) {
        m_timer->stop();
        setStage(Stage::Reverted,
                 tr("Not kept: the router has restored its old values by itself."));
        // The router's own timer fires at about the same moment; read it once it has.
        QTimer::singleShot(1500, this, &ApplyDialog::routerChanged);
        return;
    }
    m_status->setText(tr("<b>Keep these values?</b> The router restores the old ones in "
                         "<b>%1 s</b> unless you press Keep.")
                          .arg(left));
}

void ApplyDialog::onSettled(PendingAction action) {
    if (m_stage != Stage::Settling)
        return;
    if (action == PendingAction::Confirm) {
        setStage(Stage::Kept, m_plan ? tr("Kept. Make it persistent so that it survives a reboot.")
                                     : tr("Kept until the next reboot."));
    } else {
        setStage(Stage::Reverted, tr("Reverted: the router has its old values again."));
        Q_EMIT routerChanged();
    }
}

void ApplyDialog::onPersisted(PersistReportPtr report) {
    if (m_stage != Stage::Persisting)
        return;
    QStringList files;
    for (const auto& f : report->written)
        files << qs(f);
    QString text = tr("Persistent: %1.").arg(files.join(QStringLiteral(", ")));
    for (const auto& m : report->messages)
        text += QStringLiteral("<br>router: ") + qs(m).toHtmlEscaped();
    setStage(Stage::Persisted, text);
    Q_EMIT routerChanged();
}

void ApplyDialog::onFailed(const QString& what, const QString& message) {
    if (m_stage == Stage::Applying) {
        setStage(Stage::Review, tr("Apply failed, nothing was written: %1").arg(message));
    } else if (m_stage == Stage::Settling && what == QStringLiteral("confirm")) {
        // The countdown goes on: the router still reverts at its deadline.
        setStage(Stage::Countdown, QString());
        m_timer->start();
        tick();
        m_status->setText(
            m_status->text() +
            tr("<br>Keep did not reach the router (%1).").arg(message.toHtmlEscaped()));
    } else if (m_stage == Stage::Settling) {
        setStage(Stage::Countdown, QString());
        m_timer->start();
        tick();
        m_status->setText(m_status->text() + tr("<br>Revert did not reach the router (%1); its "
                                                "timer still restores the old values.")
                                                 .arg(message.toHtmlEscaped()));
    } else if (m_stage == Stage::Persisting) {
        setStage(Stage::Kept, tr("Nothing was made persistent: %1").arg(message.toHtmlEscaped()));
    }
}

void ApplyDialog::reject() {
    if (m_stage == Stage::Applying || m_stage == Stage::Settling || m_stage == Stage::Persisting)
        return; // wait for the router's answer
    if (m_stage == Stage::Countdown) {
        const auto b = QMessageBox::question(
            this, tr("Keep the new values?"),
            tr("The router restores its old values in %1 s unless you keep them.")
                .arg(secondsLeft()),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::Cancel);
        if (b == QMessageBox::Cancel)
            return;
        m_timer->stop();
        setStage(Stage::Settling, QString());
        Q_EMIT settleRequested(b == QMessageBox::Yes ? PendingAction::Confirm
                                                     : PendingAction::Revert);
    }
    QDialog::reject();
}

} // namespace coresteer::ui
