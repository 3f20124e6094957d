// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/preferencesdialog.h"

#include "ui/settings.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace coresteer::ui {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent), m_revert(new QSpinBox), m_rate(new QSpinBox) {
    setWindowTitle(tr("Preferences"));
    m_revert->setRange(5, 86400);
    m_revert->setSuffix(tr(" s"));
    m_revert->setValue(settings::revertSeconds());
    m_revert->setToolTip(tr("After an apply, the router restores its old values by itself unless "
                            "you press Keep within this time"));
    m_rate->setRange(1, 20);
    m_rate->setSuffix(tr(" Hz"));
    m_rate->setValue(settings::refreshHz());
    m_rate->setToolTip(tr("How often the live load is sampled"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Automatic &revert after:"), m_revert);
    form->addRow(tr("Live &refresh rate:"), m_rate);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void PreferencesDialog::accept() {
    settings::setRevertSeconds(m_revert->value());
    settings::setRefreshHz(m_rate->value());
    QDialog::accept();
}

} // namespace coresteer::ui
