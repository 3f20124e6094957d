// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/live/testresult.h"

#include "ui/live/bufferbloattest.h"

#include <QStringList>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace coresteer::ui {

using namespace coresteer::live;

QString TestResult::phaseLabel(const QString& name) {
    if (name == QLatin1String("download"))
        return tr("download");
    if (name == QLatin1String("upload"))
        return tr("upload");
    if (name == QLatin1String("both"))
        return tr("both");
    return tr("load");
}

QString TestResult::text(const BufferbloatTest& test,
                         const std::function<QString(int)>& coreLabel) {
    QString probe;
    const auto g = test.grade(&probe);
    if (!g) {
        if (test.running())
            return tr("Idle latency measured: run your speed test now.");
        return test.idleMeasured() ? tr("Too short: no latency under load measured.") : QString();
    }
    const bool lan = probe == QLatin1String(kLanProbe.data(), kLanProbe.size());
    const bool router = probe == QLatin1String(kRouterProbe.data(), kRouterProbe.size());
    const QString method = test.probeMethod(probe);
    const QString where =
        lan      ? tr("router responsiveness, from the LAN side")
        : router ? tr("from the router to %1, by its own ping")
                       .arg(test.routerProbeHost().toHtmlEscaped())
        : probe == QLatin1String(kDemoProbe.data(), kDemoProbe.size())
            ? tr("beyond the router, as the demo's model has it")
            : tr("beyond the router, to %1%2")
                  .arg(probe.toHtmlEscaped(),
                       method.isEmpty() ? QString() : tr(" by %1").arg(method.toHtmlEscaped()));
    const QString text =
        tr("<b>Bufferbloat grade %1</b> (%7): %2 ms idle, %3 ms under load (+%4 ms; 95th "
           "percentile +%5 ms)%6")
            .arg(QString::fromStdString(g->grade))
            .arg(g->idleMs, 0, 'f', 1)
            .arg(g->loadedMs, 0, 'f', 1)
            .arg(g->increaseMs, 0, 'f', 1)
            .arg(g->p95IncreaseMs, 0, 'f', 1)
            .arg(g->lost ? tr(", %1 probes lost").arg(g->lost) : QString())
            .arg(where);
    if (test.running() || !test.recording())
        return text;
    return text + card(test, probe, coreLabel);
}

// After the test, its result as one card: each phase's grade for that probe with the load
// generator's throughput in it, each way's delay to an irtt server, and the busiest core.
QString TestResult::card(const BufferbloatTest& test, const QString& probe,
                         const std::function<QString(int)>& coreLabel) {
    std::string error;
    const auto sum = summarize(*test.recording(), &error);
    if (!sum)
        return {};
    QString text;
    if (const auto load = throughput(*sum); !load.isEmpty())
        text += QStringLiteral("<br>") + load;
    if (const auto* p = sum->probe(probe.toStdString()))
        for (const auto& [phase, pg] : p->byPhase) {
            text += tr("<br>%1: +%2 ms, grade %3")
                        .arg(phaseLabel(QString::fromStdString(phase)))
                        .arg(pg.increaseMs, 0, 'f', 1)
                        .arg(QString::fromStdString(pg.grade));
            for (const auto& ph : sum->phases)
                if (ph.name == phase && ph.downMean)
                    text += tr("; %1 Mb/s down, %2 Mb/s up")
                                .arg(*ph.downMean / 1e6, 0, 'f', 1)
                                .arg(*ph.upMean / 1e6, 0, 'f', 1);
        }
    // An irtt server's delay each way, idle and loaded: which way the queue is.
    for (const auto& up : sum->probeSummaries) {
        constexpr std::string_view kUp = "irtt-up:";
        if (!up.latency || !std::string_view(up.name).starts_with(kUp))
            continue;
        const auto host = up.name.substr(kUp.size());
        const auto* down = sum->probe("irtt-down:" + host);
        if (!down || !down->latency)
            continue;
        const auto& u = *up.latency;
        const auto& d = *down->latency;
        text += tr("<br>Each way to %1 (irtt): up %2 ms idle, %3 ms loaded (+%4 ms); "
                   "down %5 ms idle, %6 ms loaded (+%7 ms)")
                    .arg(QString::fromStdString(host).toHtmlEscaped())
                    .arg(u.idleMs, 0, 'f', 1)
                    .arg(u.loadedMs, 0, 'f', 1)
                    .arg(u.increaseMs, 0, 'f', 1)
                    .arg(d.idleMs, 0, 'f', 1)
                    .arg(d.loadedMs, 0, 'f', 1)
                    .arg(d.increaseMs, 0, 'f', 1);
    }
    const RecordingSummary::Core* busiest = nullptr;
    for (const auto& c : sum->cores)
        if (!busiest || c.peak > busiest->peak)
            busiest = &c;
    if (busiest)
        text += tr("<br>Busiest core: %1, %2 % at its peak (%3 % kernel work: irq, "
                   "softirq, system)")
                    .arg(coreLabel(busiest->cpu).toHtmlEscaped())
                    .arg(busiest->peak * 100, 0, 'f', 0)
                    .arg(busiest->kernelPeak * 100, 0, 'f', 0);
    return text;
}

QString TestResult::ofRecording(const live::Recording& recording) {
    std::string error;
    const auto s = summarize(recording, &error);
    if (!s || !s->latency)
        return {};
    const auto load = throughput(*s);
    return tr("<b>Bufferbloat grade %1</b>: %2 ms idle, %3 ms under load")
               .arg(QString::fromStdString(s->latency->grade))
               .arg(s->latency->idleMs, 0, 'f', 1)
               .arg(s->latency->loadedMs, 0, 'f', 1) +
           (load.isEmpty() ? QString() : QStringLiteral("<br>") + load);
}

QString TestResult::throughput(const RecordingSummary& s) {
    std::optional<double> down, up;
    for (const auto& ph : s.phases) {
        const bool downward = ph.name == "download" || ph.name == "both" || ph.name == "load";
        const bool upward = ph.name == "upload" || ph.name == "both" || ph.name == "load";
        if (downward && ph.downMean && *ph.downMean > 0)
            down = std::max(down.value_or(0), *ph.downMean);
        if (upward && ph.upMean && *ph.upMean > 0)
            up = std::max(up.value_or(0), *ph.upMean);
    }
    if (!down && !up)
        return {};
    const bool model = s.probe(kDemoProbe) != nullptr;
    QStringList each;
    if (down)
        each << tr("%1 Mb/s down").arg(*down / 1e6, 0, 'f', 0);
    if (up)
        each << tr("%1 Mb/s up").arg(*up / 1e6, 0, 'f', 0);
    return tr("<b>Throughput under load: %1</b> (%2)")
        .arg(each.join(QStringLiteral(", ")),
             model ? tr("as the demo's model carries it") : tr("the load generator's"));
}

} // namespace coresteer::ui
