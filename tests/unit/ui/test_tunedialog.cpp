// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout > Find the best layout (ui/dialogs/tunedialog.h) against the demo router, whose model
// is the load: short runs of the real tuner on the connection's worker, with the table, the
// plot, the trials' marks on the Live tab's heatmap, Cancel and "Apply the winner". Also the
// bufferbloat test's throughput on its result card and on the latency chart's scale.
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/layout/resolve.h"
#include "core/live/recording.h"
#include "tests/support/live_ticks.h"
#include "tests/unit/ui/ui_helpers.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/tunedialog.h"
#include "ui/dialogs/tuneview.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/latencychart.h"
#include "ui/live/livepanel.h"
#include "ui/mainwindow.h"
#include "ui/models/maskgridmodel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace coresteer;
using namespace coresteer::ui;

namespace {

// Every mask and steering value under a router's root, by path: what an apply writes and a
// revert puts back.
std::map<std::string, std::string> masks(const std::string& root) {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        const auto name = e.path().filename().string();
        if (!e.is_regular_file() || (name != "smp_affinity" && name != "rps_cpus" &&
                                     name != "xps_cpus" && name != "rps_flow_cnt"))
            continue;
        std::ifstream in(e.path());
        std::stringstream text;
        text << in.rdbuf();
        out[e.path().lexically_relative(root).string()] = text.str();
    }
    return out;
}

// What `layout` writes on `snap`, as (path, value).
std::set<std::pair<std::string, std::string>> writesOf(const layout::Layout& l,
                                                       const Snapshot& snap) {
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& w : layout::changedWrites(layout::resolve(l, snap)))
        out.emplace(w.path, w.value);
    return out;
}

int rowOf(const QTreeWidget* list, int column, const QString& text) {
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(column) == text)
            return i;
    return -1;
}

// A short run: `phaseSeconds` a phase after 1 s idle.
void shortRun(TuneDialog& d, bool upload, int phaseSeconds, int budget) {
    d.uploadBox()->setChecked(upload);
    d.bothBox()->setChecked(false);
    d.downloadBox()->setChecked(true);
    d.phaseSecondsBox()->setValue(phaseSeconds);
    d.idleSecondsBox()->setValue(1);
    d.budgetBox()->setValue(budget);
}

} // namespace

// The demo's tune, start to end: the candidates with what they change and why, the progress,
// the trials marked on the heatmap while the Live tab's charts keep running, the table and the
// plot (download and upload), a winner (the default layout saturates a LITTLE core, the
// planner's do not), one recording of the whole run that replays with its marks, and "Apply the
// winner" handing the winner's layout to the grid and the apply dialog. The result is the
// README's screenshot (tune-result.png).
TEST(TuneDialog, RunsOnTheDemoAndAppliesTheWinner) {
    MainWindow w;
    w.resize(1600, 1000);
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    w.show();
    test::LiveTicks live(w.connection());
    ASSERT_TRUE(live.waitFor(3, 20000));
    ASSERT_TRUE(w.tuneAction());
    EXPECT_TRUE(w.tuneAction()->isEnabled());
    EXPECT_EQ(w.tuneAction()->text(), QStringLiteral("&Find the best layout..."));

    auto* d = w.openTuneDialog();
    ASSERT_TRUE(d);
    auto* list = d->candidateList();
    ASSERT_GE(list->topLevelItemCount(), 3);
    // The baseline is always in; the planner's recommendation follows, each with its change
    // and its reason; no pending edits, so no candidate of them.
    EXPECT_EQ(list->topLevelItem(0)->text(0), QStringLiteral("Current layout"));
    EXPECT_EQ(list->topLevelItem(0)->checkState(0), Qt::Checked);
    EXPECT_FALSE(list->topLevelItem(0)->flags() & Qt::ItemIsUserCheckable);
    EXPECT_EQ(list->topLevelItem(1)->text(1), QStringLiteral("the planner"));
    EXPECT_TRUE(list->topLevelItem(1)->text(2).contains(QStringLiteral("->")))
        << list->topLevelItem(1)->text(2).toStdString();
    EXPECT_FALSE(list->topLevelItem(1)->text(3).isEmpty());
    EXPECT_EQ(rowOf(list, 1, QStringLiteral("your edits")), -1);
    // The demo needs no load server: its model is the load.
    EXPECT_TRUE(d->loadBox()->currentText().isEmpty());
    const auto plan = list->topLevelItem(1)->text(0);
    // The planner's recommendation against the baseline, download only: the plan's fewest
    // blocks for one candidate.
    d->checkOnly({1});
    shortRun(*d, false, 1, 20);
    // Before Start, the plan says what it needs, and a budget that cannot reach its first
    // look is refused.
    EXPECT_TRUE(d->planText().contains(QStringLiteral("8 to 17 blocks of 3 trials")))
        << d->planText().toStdString();
    EXPECT_TRUE(d->planText().contains(QStringLiteral("cannot reach the first look")))
        << d->planText().toStdString();
    EXPECT_FALSE(d->start());
    EXPECT_EQ(d->stage(), TuneDialog::Stage::Setup);
    d->budgetBox()->setValue(600);
    EXPECT_TRUE(d->planText().contains(QStringLiteral("fits the whole plan")))
        << d->planText().toStdString();
    live.clear();
    ASSERT_TRUE(d->start());
    EXPECT_EQ(d->stage(), TuneDialog::Stage::Running);
    EXPECT_FALSE(d->startButton()->isVisible());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return d->progressText().startsWith(QStringLiteral("Block 1 of at most 17")); },
        20000))
        << d->progressText().toStdString();
    EXPECT_TRUE(d->progressText().contains(QStringLiteral("left")))
        << d->progressText().toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return d->stage() == TuneDialog::Stage::Done; }, 300000))
        << d->progressText().toStdString();
    const auto result = d->result();
    ASSERT_TRUE(result);
    EXPECT_GE(result->blocks, 8) << result->stopText;
    EXPECT_TRUE(result->baselineRestored);
    // The Live tab's charts ran on the tuner's samples, and its heatmap marks each trial.
    EXPECT_GE(live.count(), 20);
    QStringList marks;
    for (const auto& m : panel->heatmap()->phases())
        marks << m.name;
    EXPECT_TRUE(marks.contains(QStringLiteral("Current layout")))
        << marks.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(marks.contains(plan)) << marks.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(d->trialsStarted(), static_cast<int>(result->trials.size()));

    // The table: a row a candidate, each way's throughput and latency as median [interval],
    // the gain against the baseline; the winner highlighted.
    auto* table = d->table();
    ASSERT_EQ(table->rowCount(), 2);
    const QRegularExpression estimate(QStringLiteral("^[0-9]+ Mb/s \\[[0-9]+, [0-9]+\\]$"));
    for (int r = 0; r < 2; ++r) {
        EXPECT_TRUE(estimate.match(table->item(r, TuneTable::Download)->text()).hasMatch())
            << r << ": " << table->item(r, TuneTable::Download)->text().toStdString();
        EXPECT_TRUE(table->item(r, TuneTable::DownloadLatency)->text().endsWith(QLatin1Char(']')))
            << table->item(r, TuneTable::DownloadLatency)->text().toStdString();
        EXPECT_EQ(table->item(r, TuneTable::Upload)->text(), QStringLiteral("-"));
    }
    EXPECT_EQ(table->item(0, TuneTable::Gain)->text(), QStringLiteral("the baseline"));
    const QRegularExpression gain(
        QStringLiteral("^down [+-][0-9]+ Mb/s \\[.*\\] \\([+-][0-9]+\\.[0-9] %\\)$"));
    EXPECT_TRUE(gain.match(table->item(1, TuneTable::Gain)->text()).hasMatch())
        << table->item(1, TuneTable::Gain)->text().toStdString();
    ASSERT_TRUE(result->verdict.winner) << result->verdict.text;
    const int winner = *result->verdict.winner;
    EXPECT_EQ(table->winnerRow(), winner);
    EXPECT_TRUE(table->item(winner, TuneTable::Name)->font().bold());
    EXPECT_TRUE(d->verdictText().contains(QStringLiteral("Decided.")))
        << d->verdictText().toStdString();
    // The plot: a chart each way, a dot a trial, a median and interval a candidate.
    EXPECT_EQ(d->plot()->directions(), (QStringList{QStringLiteral("download")}));
    EXPECT_EQ(d->plot()->dots(), static_cast<int>(result->trials.size()));
    EXPECT_EQ(d->plot()->intervals(), 2);
    // Its key names each candidate whole by its number on the charts.
    for (const auto& c : result->candidates)
        EXPECT_TRUE(d->plot()->keyText().contains(QString::fromStdString(c.name).toHtmlEscaped()))
            << c.name << " in " << d->plot()->keyText().toStdString();
    EXPECT_TRUE(d->plot()->keyText().contains(QStringLiteral("<b>0</b>&nbsp;")));
    EXPECT_TRUE(d->applyWinnerButton()->isEnabled());
    d->resize(1280, 800);
    QTest::qWait(100);
    test::expectNotBlank(d->grab().toImage(),
                         QStringLiteral(CORESTEER_SCREENSHOT_DIR "/tune-result.png"));

    // One recording of the whole run: its trials and its result, the Live tab's to save.
    const auto rec = d->recording();
    ASSERT_TRUE(rec);
    EXPECT_EQ(panel->recording(), rec);
    EXPECT_FALSE(rec->info.tune.empty());
    std::set<int> tried;
    live::Replay replay(*rec);
    live::ReplayEvent e;
    while (replay.next(e))
        if (e.kind == live::ReplayEvent::Kind::Trial && e.candidate >= 0)
            tried.insert(e.candidate);
    EXPECT_EQ(tried, (std::set<int>{0, 1}));
    const auto file = QString::fromStdString(
        (std::filesystem::path(CORESTEER_TEST_TMP) / "ui-tune" / "tune.csrec").string());
    std::filesystem::create_directories(std::filesystem::path(file.toStdString()).parent_path());
    QString error;
    ASSERT_TRUE(d->saveRecording(file, &error)) << error.toStdString();

    // Apply the winner: its layout is the grid's pending layout, in the usual apply dialog.
    const auto won = result->candidates[static_cast<std::size_t>(winner)].layout;
    d->applyWinnerButton()->click();
    auto* apply = w.applyDialog();
    ASSERT_TRUE(apply);
    const auto snap = w.gridModel()->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_FALSE(writesOf(won, *snap).empty());
    EXPECT_EQ(writesOf(w.gridModel()->pendingLayout(), *snap), writesOf(won, *snap));
    apply->close();

    // The recording replays with the trials marked by their candidates' names.
    ASSERT_TRUE(w.openRecording(file, 0));
    ASSERT_TRUE(shown.wait(10000));
    marks.clear();
    for (const auto& m : panel->heatmap()->phases())
        marks << m.name;
    EXPECT_TRUE(marks.contains(plan)) << marks.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(marks.contains(QStringLiteral("Current layout")));
}

// Cancel in the middle of a candidate's trial: the tuner puts the baseline back at once, and
// the demo's files hold the masks they held before the run. The grid's pending edits are a
// candidate of their own.
namespace {

// The demo with the planner's layout as pending edits, and the tune dialog with those edits
// checked alone, set for short upload trials.
TuneDialog* editsTune(MainWindow& w) {
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    EXPECT_TRUE(shown.wait(10000));
    w.recommend();
    EXPECT_GT(w.gridModel()->changedCount(), 0);
    auto* d = w.openTuneDialog();
    if (!d)
        return nullptr;
    const int edits = rowOf(d->candidateList(), 1, QStringLiteral("your edits"));
    EXPECT_GT(edits, 0);
    EXPECT_EQ(d->candidateList()->topLevelItem(edits)->text(0),
              QStringLiteral("Your pending edits"));
    d->checkOnly({edits});
    shortRun(*d, false, 6, 900);
    return d;
}

} // namespace

TEST(TuneDialog, CancelPutsTheBaselineBack) {
    MainWindow w;
    auto* d = editsTune(w);
    ASSERT_TRUE(d);
    const auto root = w.connection()->spec().root.toStdString();
    const auto before = masks(root);
    ASSERT_FALSE(before.empty());
    ASSERT_TRUE(d->start());
    // The edits in force on the demo: its files changed.
    ASSERT_TRUE(QTest::qWaitFor([&] { return masks(root) != before; }, 30000));
    d->cancelButton()->click();
    EXPECT_EQ(d->stage(), TuneDialog::Stage::Cancelling);
    ASSERT_TRUE(QTest::qWaitFor([&] { return d->stage() == TuneDialog::Stage::Done; }, 30000));
    ASSERT_TRUE(d->result());
    EXPECT_EQ(d->result()->stop, measure::TuneResult::Stop::Cancelled);
    EXPECT_TRUE(d->result()->baselineRestored);
    EXPECT_EQ(masks(root), before);
    EXPECT_TRUE(d->verdictText().contains(QStringLiteral("Cancelled")))
        << d->verdictText().toStdString();
    // The grid keeps the edits, pending as before.
    EXPECT_GT(w.gridModel()->changedCount(), 0);
}

// The demo's bufferbloat test runs on measure::LoadTest with the model as its load: the result
// card says the throughput each way beside the grade, and the latency chart draws the load on a
// scale that fits it.
TEST(TuneDialog, TheDemoTestShowsItsThroughputOnTheCardAndTheChart) {
    EXPECT_EQ(LatencyChart::scaleFor(1300), 1500);
    EXPECT_EQ(LatencyChart::scaleFor(90), 100);
    EXPECT_EQ(LatencyChart::scaleFor(30000), 40000);
    EXPECT_EQ(LatencyChart::scaleFor(4.2), 5);
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    panel->setPhaseSeconds(2);
    QSignalSpy finished(panel, &LivePanel::recordingFinished);
    panel->testButton()->click();
    ASSERT_TRUE(finished.wait(30000)) << panel->gradeText().toStdString();
    const auto card = panel->gradeText();
    const QRegularExpression load(QStringLiteral(
        "Throughput under load: ([0-9]+) Mb/s down, ([0-9]+) Mb/s up</b> \\(as the demo's model"));
    const auto m = load.match(card);
    ASSERT_TRUE(m.hasMatch()) << card.toStdString();
    EXPECT_GT(m.captured(1).toInt(), 300);
    EXPECT_GT(m.captured(2).toInt(), 300);
    EXPECT_LT(card.indexOf(QStringLiteral("Bufferbloat grade")), m.capturedStart());
    // The model's throughput is in the recording, and on the chart under its own scale.
    double top = 0;
    live::Replay replay(*panel->recording());
    live::ReplayEvent e;
    int reports = 0;
    while (replay.next(e))
        if (e.kind == live::ReplayEvent::Kind::Throughput) {
            ++reports;
            top = std::max({top, e.downBitsPerSec / 1e6, e.upBitsPerSec / 1e6});
        }
    EXPECT_GE(reports, 6);
    auto* chart = panel->latencyChart();
    EXPECT_EQ(chart->loadPoints(), reports);
    EXPECT_GE(chart->loadScale(), top * 1.1);
    EXPECT_LE(chart->loadScale(), top * 1.6);
}

// A router where irqbalance runs: the dialog says so before Start, and the run needs "Tune
// anyway" checked (it would move IRQs under the trials); a file equal to the baseline is not
// added (it would run the baseline again under another name).
TEST(TuneDialog, IrqbalanceHoldsStartBackAndACopyOfTheBaselineIsNotAdded) {
    const auto snap = std::make_shared<const Snapshot>(
        buildSnapshot(collectLocal(CORESTEER_FIXTURES "/boards/bpi-r4")));
    std::vector<std::string> notes;
    auto cands = measure::gatherCandidates(*snap, measure::CandidateOptions{}, &notes);
    ASSERT_GE(cands.size(), 2u);
    TuneDialog d(QStringLiteral("bpi-r4"), snap, cands, {}, {QStringLiteral("127.0.0.1:9")}, false);
    ASSERT_FALSE(d.allowConflictsBox()->isHidden());
    QString error;
    EXPECT_FALSE(d.request(&error));
    EXPECT_TRUE(error.contains(QStringLiteral("irqbalance"))) << error.toStdString();
    d.allowConflictsBox()->setChecked(true);
    EXPECT_TRUE(d.request(&error)) << error.toStdString();
    // The router's own layout, as a file.
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "tune-dialog-same";
    std::filesystem::create_directories(dir);
    const auto same = dir / "same.json";
    std::ofstream(same) << layout::toJson(layout::currentLayout(*snap)).dump();
    EXPECT_FALSE(d.addCandidateFile(QString::fromStdString(same.string()), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("left out, it changes nothing on this router")))
        << error.toStdString();
}

// Closing the window while a candidate is in force asks, and on Yes the tune is cancelled and
// the router's layout restored before the window goes (not left to the router's timer).
TEST(TuneDialog, ClosingTheWindowMidTrialRestoresTheBaselineFirst) {
    MainWindow w;
    auto* d = editsTune(w);
    ASSERT_TRUE(d);
    const auto root = w.connection()->spec().root.toStdString();
    const auto before = masks(root);
    ASSERT_TRUE(d->start());
    ASSERT_TRUE(QTest::qWaitFor([&] { return masks(root) != before; }, 30000));
    // The question, answered Yes when it shows.
    bool asked = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            asked = box->text().contains(QStringLiteral("Cancel it and restore"));
            box->button(QMessageBox::Yes)->click();
        }
    });
    answer.start(50);
    EXPECT_TRUE(w.close());
    answer.stop();
    EXPECT_TRUE(asked);
    EXPECT_EQ(masks(root), before); // restored by the tuner at once
    ASSERT_TRUE(d->result());
    EXPECT_EQ(d->result()->stop, measure::TuneResult::Stop::Cancelled);
    EXPECT_TRUE(d->result()->baselineRestored);
}
