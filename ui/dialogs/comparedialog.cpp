// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/comparedialog.h"

#include "ui/live/recordingimage.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>

namespace coresteer::ui {

using namespace coresteer::live;

namespace {

QWidget* picture(const Recording& r, const QString& name) {
    auto* w = new QWidget;
    auto* box = new QVBoxLayout(w);
    box->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    box->addWidget(title);
    std::string error;
    const auto image = renderRecording(r, &error);
    auto* label = new QLabel;
    if (image.isNull())
        label->setText(QString::fromStdString(error));
    else
        label->setPixmap(QPixmap::fromImage(image.scaledToWidth(560, Qt::SmoothTransformation)));
    auto* scroll = new QScrollArea;
    scroll->setWidget(label);
    box->addWidget(scroll, 1);
    return w;
}

} // namespace

CompareDialog::CompareDialog(std::shared_ptr<const Recording> before, const QString& beforeName,
                             std::shared_ptr<const Recording> after, const QString& afterName,
                             QWidget* parent)
    : QDialog(parent), m_table(new QTableWidget(0, 4)) {
    setWindowTitle(tr("Before and after: %1 and %2").arg(beforeName, afterName));
    m_table->setHorizontalHeaderLabels({tr("Measure"), beforeName, afterName, tr("Change")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    std::string error;
    const auto a = summarize(*before, &error);
    const auto b = summarize(*after, &error);
    auto add = [&](const QString& what, std::optional<double> x, std::optional<double> y,
                   const QString& unit, int decimals) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        auto cell = [&](int c, const QString& text) {
            auto* it = new QTableWidgetItem(text);
            if (c)
                it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, it);
        };
        auto show = [&](std::optional<double> v) {
            return v ? QStringLiteral("%1 %2").arg(*v, 0, 'f', decimals).arg(unit)
                     : QStringLiteral("-");
        };
        cell(0, what);
        cell(1, show(x));
        cell(2, show(y));
        cell(3, x && y ? QStringLiteral("%1%2 %3")
                             .arg(*y - *x >= 0 ? QStringLiteral("+") : QString())
                             .arg(*y - *x, 0, 'f', decimals)
                             .arg(unit)
                       : QString());
    };
    if (a && b) {
        std::map<std::string, bool> ifaces;
        for (const auto* s : {&*a, &*b})
            for (const auto& i : s->interfaces)
                if (i.name != "lo" && i.rxMean + i.txMean >= 1e5) // idle ones say nothing
                    ifaces[i.name] = true;
        auto iface = [](const RecordingSummary& s, const std::string& n, bool rx,
                        bool peak) -> std::optional<double> {
            const auto* i = s.interface(n);
            if (!i)
                return std::nullopt;
            return (rx ? (peak ? i->rxPeak : i->rxMean) : (peak ? i->txPeak : i->txMean)) / 1e6;
        };
        for (const auto& [n, _] : ifaces) {
            const auto name = QString::fromStdString(n);
            add(tr("%1 in, mean").arg(name), iface(*a, n, true, false), iface(*b, n, true, false),
                tr("Mb/s"), 1);
            add(tr("%1 in, peak").arg(name), iface(*a, n, true, true), iface(*b, n, true, true),
                tr("Mb/s"), 1);
            add(tr("%1 out, mean").arg(name), iface(*a, n, false, false),
                iface(*b, n, false, false), tr("Mb/s"), 1);
        }
        auto scaled = [](std::optional<double> v) {
            return v ? std::optional(*v / 1e6) : std::nullopt;
        };
        if (a->downMean || b->downMean) {
            add(tr("Load generator down, mean"), scaled(a->downMean), scaled(b->downMean),
                tr("Mb/s"), 1);
            add(tr("Load generator up, mean"), scaled(a->upMean), scaled(b->upMean), tr("Mb/s"), 1);
        }
        auto lat = [](const RecordingSummary& s, bool loaded) -> std::optional<double> {
            if (!s.latency)
                return std::nullopt;
            return loaded ? s.latency->loadedMs : s.latency->idleMs;
        };
        add(tr("Latency idle (median)"), lat(*a, false), lat(*b, false), tr("ms"), 1);
        add(tr("Latency under load (median)"), lat(*a, true), lat(*b, true), tr("ms"), 1);
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        m_table->setItem(r, 0, new QTableWidgetItem(tr("Bufferbloat grade")));
        for (int c = 1; c <= 2; ++c) {
            const auto& s = c == 1 ? *a : *b;
            auto* it = new QTableWidgetItem(s.latency ? QString::fromStdString(s.latency->grade)
                                                      : QStringLiteral("-"));
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, it);
        }
        // Then each core: what moved where.
        std::map<int, bool> cpus;
        for (const auto* s : {&*a, &*b})
            for (const auto& c : s->cores)
                cpus[c.cpu] = true;
        auto core = [](const RecordingSummary& s, int cpu, bool peak) -> std::optional<double> {
            const auto* c = s.core(cpu);
            if (!c)
                return std::nullopt;
            return (peak ? c->peak : c->mean) * 100;
        };
        for (const auto& [cpu, _] : cpus) {
            add(tr("CPU%1 busy, peak").arg(cpu), core(*a, cpu, true), core(*b, cpu, true),
                QStringLiteral("%"), 1);
            add(tr("CPU%1 busy, mean").arg(cpu), core(*a, cpu, false), core(*b, cpu, false),
                QStringLiteral("%"), 1);
        }
    }

    auto* pictures = new QSplitter(Qt::Horizontal);
    pictures->addWidget(picture(*before, beforeName));
    pictures->addWidget(picture(*after, afterName));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(pictures);
    split->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* box = new QVBoxLayout(this);
    box->addWidget(split, 1);
    box->addWidget(buttons);
    resize(1200, 800);
}

int CompareDialog::row(const QString& what) const {
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0) && m_table->item(r, 0)->text() == what)
            return r;
    return -1;
}

} // namespace coresteer::ui
