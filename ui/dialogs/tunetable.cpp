// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/dialogs/tuneview.h"

#include "core/base/text.h"

#include <QHeaderView>
#include <QStringList>

#include <cmath>

namespace coresteer::ui {

using nlohmann::json;

const json& tuneAt(const json& j, const char* key) {
    static const json none;
    return j.is_object() && j.contains(key) ? j[key] : none;
}

std::optional<double> tuneNumber(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number())
        return std::nullopt;
    const double v = j[key].get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<TuneEstimate> tuneEstimate(const json& j) {
    if (!j.is_object() || !j.contains("ci95") || !j["ci95"].is_array() || j["ci95"].size() != 2 ||
        !j["ci95"][0].is_number() || !j["ci95"][1].is_number())
        return std::nullopt;
    // A candidate's own values carry their median; a gain, the mean of its blocks' gains.
    const auto median = j.contains("mean") ? tuneNumber(j, "mean") : tuneNumber(j, "median");
    const auto n = tuneNumber(j, "n");
    const double lo = j["ci95"][0].get<double>(), hi = j["ci95"][1].get<double>();
    if (!median || !n || !std::isfinite(lo) || !std::isfinite(hi) || *n < 0 || *n > 1e6)
        return std::nullopt;
    return TuneEstimate{*median, lo, hi, static_cast<int>(*n)};
}

QString tuneString(const json& j, const char* key, int max) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string())
        return {};
    return QString::fromStdString(
        text::printable(j[key].get<std::string>(), static_cast<std::size_t>(max)));
}

namespace {

// "1180 Mb/s [1150, 1210]" of bits a second, or "+12.3 ms [10.1, 14.0]"; "-" for nothing.
QString estimateText(const json& j, bool bps, bool signedValue = false) {
    const auto e = tuneEstimate(j);
    if (!e)
        return QStringLiteral("-");
    const double scale = bps ? 1e-6 : 1;
    const int digits = bps ? 0 : 1;
    const QString unit = bps ? QStringLiteral("Mb/s") : QStringLiteral("ms");
    auto number = [&](double v) {
        auto s = QString::number(v * scale, 'f', digits);
        return signedValue && v >= 0 ? QLatin1Char('+') + s : s;
    };
    return QStringLiteral("%1 %2 [%3, %4]")
        .arg(number(e->median), unit, number(e->lo), number(e->hi));
}

} // namespace

TuneTable::TuneTable(QWidget* parent) : QTableWidget(parent) {
    setColumnCount(Columns);
    setHorizontalHeaderLabels({tr("Candidate"), tr("Download"), tr("Upload"),
                               tr("Latency, download"), tr("Latency, upload"),
                               tr("Gain vs baseline")});
    horizontalHeaderItem(Download)->setToolTip(
        tr("Throughput down: the median of its trials and its 95 % interval"));
    horizontalHeaderItem(Upload)->setToolTip(
        tr("Throughput up: the median of its trials and its 95 % interval"));
    horizontalHeaderItem(DownloadLatency)
        ->setToolTip(
            tr("The latency increase over the idle baseline under the download: the median of its "
               "trials and its 95 % interval"));
    horizontalHeaderItem(UploadLatency)
        ->setToolTip(tr("The latency increase over the idle baseline under the upload"));
    horizontalHeaderItem(Gain)->setToolTip(
        tr("The objective's gain against the baseline of the same block, per direction: the "
           "mean of the blocks' differences and its 95 % simultaneous interval (every candidate, "
           "every look); positive is better (more throughput, or milliseconds saved)"));
    verticalHeader()->hide();
    setWordWrap(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

void TuneTable::setTune(const json& tune) {
    clearContents();
    setRowCount(0);
    m_winner = -1;
    const auto& cands = tuneAt(tune, "candidates");
    if (!cands.is_array())
        return;
    const bool throughput = tuneString(tune, "objective") != QLatin1String("latency");
    const auto winner = tuneString(tune, "winner");
    setRowCount(static_cast<int>(std::min<std::size_t>(cands.size(), 64)));
    for (int r = 0; r < rowCount(); ++r) {
        const auto& c = cands[static_cast<std::size_t>(r)];
        const auto name = tuneString(c, "name", 80);
        const auto leftOut = tuneString(c, "left_out");
        const auto& down = tuneAt(c, "download");
        const auto& up = tuneAt(c, "upload");
        QString gain;
        if (r == 0) {
            gain = tr("the baseline");
        } else if (!leftOut.isEmpty()) {
            gain = tr("left out");
        } else {
            // The objective's measure, each way the load ran.
            const auto& g = tuneAt(c, "gain_vs_baseline");
            const char* key = throughput ? "bps" : "latency_increase_ms";
            QStringList each;
            for (const char* dir : {"download", "upload"})
                if (const auto& e = tuneAt(tuneAt(g, dir), key); tuneEstimate(e)) {
                    auto text = (dir[0] == 'd' ? tr("down %1") : tr("up %1"))
                                    .arg(estimateText(e, throughput, true));
                    if (const auto pct = tuneNumber(e, "gain_pct"))
                        text += QStringLiteral(" (%1%2 %)")
                                    .arg(*pct >= 0 ? QStringLiteral("+") : QString())
                                    .arg(*pct, 0, 'f', 1);
                    each << text;
                }
            gain = each.isEmpty() ? tr("not measured twice yet") : each.join(QStringLiteral("; "));
        }
        const QString cells[Columns] = {
            name,
            estimateText(tuneAt(down, "bps"), true),
            estimateText(tuneAt(up, "bps"), true),
            estimateText(tuneAt(down, "latency_increase_ms"), false, true),
            estimateText(tuneAt(up, "latency_increase_ms"), false, true),
            gain};
        QString tip = tr("<b>%1</b> (%2)<br>%3<br>Changes: %4")
                          .arg(name.toHtmlEscaped(), tuneString(c, "source").toHtmlEscaped(),
                               tuneString(c, "why", 400).toHtmlEscaped(),
                               tuneString(c, "changes", 400).toHtmlEscaped());
        if (const auto reason = tuneString(c, "reason", 400); !reason.isEmpty())
            tip += QStringLiteral("<br>") + reason.toHtmlEscaped();
        if (!leftOut.isEmpty())
            tip += tr("<br>Left out: %1").arg(leftOut.toHtmlEscaped());
        const bool wins = r > 0 && !winner.isEmpty() && name == winner;
        if (wins)
            m_winner = r;
        for (int col = 0; col < Columns; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setToolTip(tip);
            if (wins) {
                auto f = item->font();
                f.setBold(true);
                item->setFont(f);
                item->setBackground(QColor(0xc8, 0xe6, 0xc9));
            } else if (!leftOut.isEmpty()) {
                item->setForeground(QColor(0x80, 0x80, 0x80));
            }
            setItem(r, col, item);
        }
    }
    resizeColumnsToContents();
    resizeRowsToContents();
}

int TuneTable::fittingHeight() const {
    int h = horizontalHeader()->height() + 2 * frameWidth() + 4;
    for (int r = 0; r < rowCount(); ++r)
        h += rowHeight(r);
    return h;
}

} // namespace coresteer::ui
