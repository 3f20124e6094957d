#include "ui/settings.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

namespace coresteer::ui {

namespace settings {

namespace {

QStringList recent(const QString& key) {
    return QSettings().value(key).toStringList();
}

void addRecent(const QString& key, const QString& value) {
    auto list = recent(key);
    list.removeAll(value);
    list.prepend(value);
    while (list.size() > kMaxRecentHosts)
        list.removeLast();
    QSettings().setValue(key, list);
}

} // namespace

QStringList recentHosts() {
    return recent(QStringLiteral("recentHosts"));
}
void addRecentHost(const QString& host) {
    addRecent(QStringLiteral("recentHosts"), host);
}
QStringList recentPresets() {
    return recent(QStringLiteral("recentPresets"));
}
void addRecentPreset(const QString& file) {
    addRecent(QStringLiteral("recentPresets"), file);
}
int revertSeconds() {
    return std::clamp(QSettings().value(QStringLiteral("revertSeconds"), 60).toInt(), 5, 86400);
}
void setRevertSeconds(int seconds) {
    QSettings().setValue(QStringLiteral("revertSeconds"), std::clamp(seconds, 5, 86400));
}
int refreshHz() {
    return std::clamp(QSettings().value(QStringLiteral("refreshHz"), 10).toInt(), 1, 20);
}
void setRefreshHz(int hz) {
    QSettings().setValue(QStringLiteral("refreshHz"), std::clamp(hz, 1, 20));
}

} // namespace settings

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
