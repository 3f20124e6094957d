// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The Live tab (ui/live/): charts, heatmap and tables, recording, export, replay, the load
// generator.
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/live/recording.h"
#include "tests/support/board_expect.h"
#include "tests/support/hostile_names.h"
#include "tests/support/live_ticks.h"
#include "tests/support/web_server.h"
#include "tests/unit/ui/ui_helpers.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/dialogs/preferencesdialog.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/livepanel.h"
#include "ui/live/loadcharts.h"
#include "ui/logging.h"
#include "ui/mainwindow.h"
#include "ui/models/coremodel.h"
#include "ui/models/interfaceratemodel.h"
#include "ui/models/irqratemodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/settings.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <filesystem>

#include <arpa/inet.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::live;
using namespace coresteer::ui;
using namespace coresteer::test;

// A recording of a router whose names are not all UTF-8 (and hold controls): it starts, and the
// layout it keeps is JSON that names the valid IRQ as the router does.
TEST(LivePanel, RecordsARouterWithHostileNames) {
    const auto root = std::filesystem::path(CORESTEER_TEST_TMP) / "ui-hostile-names" / "root";
    test::makeHostileRoot(root);
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString(root.string()));
    ASSERT_TRUE(shown.wait(20000)) << w.lastError().toStdString();
    auto* panel = w.livePanel();
    panel->testButton()->click(); // Start recording
    ASSERT_TRUE(panel->testRunning());
    // The tree's counters stand still: ticks are recorded, with no rates between them.
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel->recordedTicks() >= 3; }, 20000));
    panel->testButton()->click(); // Stop
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel->testRunning(); }, 20000));
    const auto rec = panel->recording();
    ASSERT_TRUE(rec);
    std::string error;
    const auto layout = parseLayout(rec->info.layout, &error);
    ASSERT_TRUE(layout) << error;
    EXPECT_TRUE(std::any_of(layout->irqs.begin(), layout->irqs.end(),
                            [](const IrqTarget& t) { return t.irq.action == test::kValidIrq; }));
}

// The Live tab on the demo: charts, heatmap and tables fill tick by tick.
TEST(LivePanel, ChartsHeatmapAndTablesFollowTheDemo) {
    MainWindow w;
    w.resize(1280, 860);
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_TRUE(tabs);
    tabs->setCurrentWidget(panel);
    w.show();
    test::LiveTicks live(w.connection());
    ASSERT_TRUE(live.waitFor(12, 20000));
    QTest::qWait(50);
    ASSERT_TRUE(panel->history());
    EXPECT_GE(panel->history()->size(), 12u);
    EXPECT_EQ(panel->charts()->mode(), LoadCharts::Mode::PerCore);
    EXPECT_EQ(panel->charts()->seriesCount(), 8 * 4);
    EXPECT_GE(panel->charts()->pointCount(), 12);
    EXPECT_GE(panel->heatmap()->samples(), 12);
    // The hot core's row of the newest heatmap column is red, an idle big core's is not.
    const auto& img = panel->heatmap()->image();
    const QColor hot(img.pixel(img.width() - 1, 3)), idle(img.pixel(img.width() - 1, 5));
    EXPECT_GT(hot.red(), 200);
    EXPECT_LT(idle.red(), 100);
    EXPECT_TRUE(panel->heatmap()
                    ->readout(QPoint(panel->heatmap()->width() - 60, 5))
                    .startsWith(QStringLiteral("CPU0 LITTLE, ")))
        << panel->heatmap()->readout(QPoint(panel->heatmap()->width() - 60, 5)).toStdString();
    // Read at a glance: the key to the charts' colours, each core by class and top frequency,
    // the heatmap's rows by class and its time axis in seconds up to now.
    ASSERT_TRUE(panel->charts()->legend());
    EXPECT_TRUE(panel->charts()->legend()->isVisible());
    QStringList keys;
    for (auto* l : panel->charts()->legend()->findChildren<QLabel*>(QStringLiteral("legendKey")))
        keys << l->text();
    EXPECT_EQ(keys.join(QLatin1Char(',')), QStringLiteral("irq,softirq,system,user,idle"));
    const auto titles = panel->charts()->titles();
    ASSERT_EQ(titles.size(), 8);
    EXPECT_EQ(titles[0], QStringLiteral("CPU0 LITTLE 1.80 GHz"));
    EXPECT_EQ(titles[4], QStringLiteral("CPU4 big 2.30 GHz"));
    EXPECT_EQ(panel->heatmap()->coreLabel(6), QStringLiteral("CPU6 big"));
    const auto axis = panel->heatmap()->timeLabels();
    ASSERT_FALSE(axis.isEmpty());
    EXPECT_EQ(axis.back(), QStringLiteral("0 s"));
    // The demo's snapshot has nothing to warn of: no warnings pane.
    auto* warnings = w.findChild<QPlainTextEdit*>(QStringLiteral("warnings"));
    ASSERT_TRUE(warnings);
    EXPECT_FALSE(warnings->isVisible());
    // The tables' models: eth2's IRQ fires on CPU3, and every interface has its row.
    const auto* irqs = panel->irqTable()->model();
    ASSERT_EQ(irqs, panel->irqModel());
    bool eth2Rate = false;
    for (int r = 0; r < irqs->rowCount(); ++r)
        if (irqs->index(r, IrqRateModel::Irq).data().toString() == QStringLiteral("173"))
            eth2Rate =
                irqs->index(r, IrqRateModel::Rate).data(IrqRateModel::RawValueRole).toDouble() >
                    0 &&
                irqs->index(r, IrqRateModel::FiresOn).data().toString() == QStringLiteral("CPU3");
    EXPECT_TRUE(eth2Rate);
    EXPECT_GT(panel->interfaceTable()->model()->rowCount(), 2);
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(w.grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-live-tab.png")));
}

// One sample makes one frame in the tables: each tick is one dataChanged of the IRQ table's
// model (its rows are the snapshot's), and the interface table's rows are made again only when
// its interfaces change.
TEST(LivePanel, ATickIsOneFrameInTheTables) {
    LivePanel panel;
    const auto snap = load("nanopi-r6s-openwrt");
    panel.reset(snap, 10);
    ASSERT_GT(panel.irqModel()->rowCount(), 0);
    EXPECT_EQ(panel.irqTable()->model(), panel.irqModel());
    EXPECT_EQ(panel.interfaceTable()->model(), panel.interfaceModel());
    QSignalSpy irqChanged(panel.irqModel(), &QAbstractItemModel::dataChanged);
    QSignalSpy irqReset(panel.irqModel(), &QAbstractItemModel::modelReset);
    QSignalSpy ifaceChanged(panel.interfaceModel(), &QAbstractItemModel::dataChanged);
    QSignalSpy ifaceReset(panel.interfaceModel(), &QAbstractItemModel::modelReset);
    Rates r;
    for (int c = 0; c < snap->topology.maskWidth; ++c)
        r.cores.push_back({c, 0.1, 0.05, 0, 0.05, 0, 0, 0.8});
    r.irqs.push_back({panel.irqModel()->irqs().front(), {0, 5000}, 5000});
    for (const char* name : {"eth0", "eth1"}) {
        IfaceRate i;
        i.name = name;
        i.rxBitsPerSec = 1e8;
        r.interfaces.push_back(i);
    }
    for (int t = 0; t < 3; ++t) {
        r.start = r.countersStart = 100 + t * 0.1;
        r.end = r.countersEnd = r.start + 0.1;
        panel.addRates(r);
    }
    EXPECT_EQ(irqChanged.size(), 3);
    EXPECT_EQ(irqReset.size(), 0);
    EXPECT_EQ(ifaceReset.size(), 1); // the first tick's interfaces
    EXPECT_EQ(ifaceChanged.size(), 2);
    EXPECT_EQ(panel.irqModel()->index(0, IrqRateModel::FiresOn).data().toString(),
              QStringLiteral("CPU1"));
    EXPECT_EQ(panel.interfaceModel()->rowCount(), 2);
}

// The view itself exports, test or not: a picture of the whole tab and the samples it holds,
// from buttons beside the test's (and the Recording menu), enabled once there are samples.
TEST(LivePanel, ExportsTheViewItselfWithoutARecording) {
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "ui-view-export";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    MainWindow w;
    w.resize(1280, 860);
    auto* panel = w.livePanel();
    auto* row = panel->findChild<QWidget*>(QStringLiteral("viewButtons"));
    ASSERT_TRUE(row);
    const auto buttons = row->findChildren<QToolButton*>();
    ASSERT_EQ(buttons.size(), 2);
    EXPECT_EQ(buttons[0]->text(), QStringLiteral("View as PNG"));
    EXPECT_EQ(buttons[1]->text(), QStringLiteral("Samples as CSV"));
    for (auto* b : buttons)
        EXPECT_FALSE(b->isEnabled()) << b->text().toStdString(); // nothing to show yet
    const auto csv = QString::fromStdString((dir / "samples.csv").string());
    QString error;
    EXPECT_FALSE(panel->exportSamplesCsv(csv, &error));
    EXPECT_EQ(error, QStringLiteral("The live view has no samples yet."));
    EXPECT_FALSE(QFile::exists(csv));

    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_TRUE(tabs);
    tabs->setCurrentWidget(panel);
    w.show();
    test::LiveTicks live(w.connection());
    ASSERT_TRUE(live.waitFor(5, 20000));
    QTest::qWait(50);
    EXPECT_FALSE(panel->recording()); // no test ran
    for (auto* b : buttons)
        EXPECT_TRUE(b->isEnabled()) << b->text().toStdString();

    ASSERT_TRUE(panel->exportSamplesCsv(csv, &error)) << error.toStdString();
    QFile c(csv);
    ASSERT_TRUE(c.open(QIODevice::ReadOnly));
    const auto lines = QString::fromUtf8(c.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_GE(lines.size(), 2);
    // A row a sample the view held then (it may have taken one more since), and the demo's
    // eight cores and its NIC IRQs as columns.
    EXPECT_GE(lines.size() - 1, 5);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("t_s,uptime_s,cpu0_busy_pct,")));
    EXPECT_TRUE(lines[0].contains(QStringLiteral(",cpu7_softirq_pct,")));
    EXPECT_TRUE(lines[0].contains(QStringLiteral(",irq173_per_s")));
    const auto columns = lines[0].count(QLatin1Char(','));
    for (const auto& l : lines)
        EXPECT_EQ(l.count(QLatin1Char(',')), columns) << l.toStdString();
    // CPU3 carries the demo's NIC work: busy in the last row.
    const auto header = lines[0].split(QLatin1Char(','));
    const auto last = lines.back().split(QLatin1Char(','));
    const auto at = header.indexOf(QStringLiteral("cpu3_busy_pct"));
    ASSERT_GE(at, 0);
    EXPECT_GT(last[at].toDouble(), 90.0) << lines.back().toStdString();

    const auto png = QString::fromStdString((dir / "view.png").string());
    ASSERT_TRUE(panel->saveViewPng(png, &error)) << error.toStdString();
    QImage img(png);
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.size(), panel->size() * panel->devicePixelRatio());
    // A file that cannot be written is said so, by name.
    const auto bad = QString::fromStdString((dir / "no-such-dir" / "view.png").string());
    EXPECT_FALSE(panel->saveViewPng(bad, &error));
    EXPECT_TRUE(error.contains(bad)) << error.toStdString();
}

// Recording in the demo: start, stop, save, export CSV and PNG; then the saved file opens as a
// replay in every view (with nothing to apply), and two recordings compare side by side.
TEST(LivePanel, RecordsTheDemoSavesExportsReplaysAndCompares) {
    const auto dir = std::filesystem::path(CORESTEER_SCREENSHOT_DIR).parent_path() / "ui-recording";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto file = QString::fromStdString((dir / "demo.csrec").string());
    std::size_t recordedRates = 0;
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        w.openDemo();
        ASSERT_TRUE(shown.wait(10000));
        auto* panel = w.livePanel();
        EXPECT_TRUE(panel->testButton()->isEnabled());
        // Save and export sit under the test's result too, as the Recording menu's actions.
        ASSERT_TRUE(panel->recordingButtons());
        const auto buttons = panel->recordingButtons()->findChildren<QToolButton*>();
        ASSERT_EQ(buttons.size(), 4);
        QStringList names;
        for (auto* b : buttons) {
            names << b->defaultAction()->text().remove(QLatin1Char('&'));
            EXPECT_FALSE(b->isEnabled()) << names.back().toStdString();
        }
        EXPECT_EQ(names.join(QLatin1Char('|')),
                  QStringLiteral("Save recording...|Export CSV...|Export PNG...|Compare with..."));
        QString error;
        EXPECT_FALSE(panel->saveRecording(file, &error)); // nothing recorded yet
        EXPECT_FALSE(error.isEmpty());
        // The demo's own bufferbloat test, 2 s a phase: it ends by itself.
        panel->setPhaseSeconds(2);
        QSignalSpy finished(panel, &LivePanel::recordingFinished);
        panel->testButton()->click(); // Start recording
        EXPECT_TRUE(panel->testRunning());
        ASSERT_TRUE(finished.wait(20000))
            << "the demo's test did not end by itself: " << panel->gradeText().toStdString();
        EXPECT_FALSE(panel->testRunning());
        EXPECT_EQ(panel->testButton()->text(), QStringLiteral("Start recording"));
        // The heatmap marks each phase of the test.
        const auto marks = panel->heatmap()->phases();
        QStringList markNames;
        for (const auto& m : marks)
            markNames << m.name;
        EXPECT_EQ(markNames.join(QLatin1Char(' ')),
                  QStringLiteral("idle download upload both done"));
        ASSERT_EQ(marks.size(), 5u);
        EXPECT_GE(marks[1].sample - marks[0].sample, 25); // 3 s of baseline at 10 Hz
        const auto rec = panel->recording();
        ASSERT_TRUE(rec);
        for (auto* b : buttons)
            EXPECT_TRUE(b->isEnabled()) << b->text().toStdString();
        EXPECT_GE(rec->ticks, 60u);
        EXPECT_EQ(rec->info.label, "Demo router (NanoPi R6S)");
        EXPECT_FALSE(rec->info.capture.empty());
        std::string why;
        const auto sum = summarize(*rec, &why);
        ASSERT_TRUE(sum) << why;
        recordedRates = sum->ticks;
        // The demo's default layout pins CPU3 (the LITTLE core with the NIC IRQs).
        EXPECT_GT(sum->core(3)->peak, 0.95);
        EXPECT_LT(sum->core(5)->peak, 0.5);
        // Its model's latency beyond the router, graded: the saturated core's queue.
        ASSERT_TRUE(sum->latency);
        EXPECT_EQ(sum->latencyProbe, "demo");
        EXPECT_GT(sum->latency->increaseMs, 25.0);
        ASSERT_TRUE(sum->probe("demo"));
        EXPECT_EQ(sum->probe("demo")->byPhase.size(), 3u);
        EXPECT_TRUE(panel->gradeText().contains(QStringLiteral("as the demo's model has it")))
            << panel->gradeText().toStdString();
        // The result as one card: the busiest core, what took it.
        EXPECT_TRUE(panel->gradeText().contains(QStringLiteral("Busiest core: CPU3 LITTLE")) ||
                    panel->gradeText().contains(QStringLiteral("Busiest core: CPU2 LITTLE")))
            << panel->gradeText().toStdString();

        ASSERT_TRUE(panel->saveRecording(file, &error)) << error.toStdString();
        const auto csv = QString::fromStdString((dir / "demo.csv").string());
        ASSERT_TRUE(panel->exportCsv(csv, &error)) << error.toStdString();
        QFile c(csv);
        ASSERT_TRUE(c.open(QIODevice::ReadOnly));
        EXPECT_EQ(c.readAll().count('\n'), static_cast<qsizetype>(recordedRates + 1));
        const auto png = QString::fromStdString((dir / "demo.png").string());
        ASSERT_TRUE(panel->exportPng(png, &error)) << error.toStdString();
        QImage img(png);
        ASSERT_FALSE(img.isNull());
        EXPECT_EQ(img.width(), 96 + 900 + 70);
        // CPU3's row is hot, CPU5's is not, in the middle of the heatmap (rows of 18 px from
        // y = 44).
        const QColor hot(img.pixel(96 + 450, 44 + 3 * 18 + 9)),
            cool(img.pixel(96 + 450, 44 + 5 * 18 + 9));
        EXPECT_GT(hot.red(), 200) << hot.name().toStdString();
        EXPECT_LT(cool.red(), 100) << cool.name().toStdString();
        std::filesystem::copy_file(png.toStdString(),
                                   std::string(CORESTEER_SCREENSHOT_DIR) + "/recording.png",
                                   std::filesystem::copy_options::overwrite_existing);
    }

    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    ASSERT_TRUE(w.openRecording(file, 0)); // all at once
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    EXPECT_FALSE(panel->replaying()); // done
    ASSERT_TRUE(panel->history());
    EXPECT_EQ(panel->history()->size(), recordedRates);
    EXPECT_EQ(panel->heatmap()->samples(), static_cast<int>(recordedRates));
    EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("demo.csrec")));
    EXPECT_FALSE(panel->testButton()->isEnabled()); // a replay records nothing
    // The grid shows the recording's snapshot, coloured by its last rates; nothing applies.
    EXPECT_GT(w.gridModel()->rowCount(), 0);
    w.recommend();
    EXPECT_GT(w.gridModel()->changedCount(), 0);
    EXPECT_FALSE(w.openApplyDialog() && w.applyDialog()->applyButton()->isEnabled());
    QAction* apply = nullptr;
    for (auto* a : w.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Apply..."))
            apply = a;
    ASSERT_TRUE(apply);
    EXPECT_FALSE(apply->isEnabled());

    // A replay at its own pace moves on with time.
    ASSERT_TRUE(w.openRecording(file, 16));
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_TRUE(panel->replaying());
    QTest::qWait(300);
    EXPECT_GT(panel->replayPosition(), 2.0);
    EXPECT_GT(panel->history()->size(), 0u);
    panel->finishReplay();
    EXPECT_EQ(panel->history()->size(), recordedRates);
    // Dragged back to the middle (after the end): the views start again from there, with what
    // a replay from the start gives from there on.
    const auto rec = panel->recording();
    ASSERT_TRUE(rec);
    const double middle = rec->duration / 2;
    std::size_t fromMiddle = 0;
    {
        Replay r(*rec);
        ASSERT_TRUE(r.seek(middle));
        ReplayEvent e;
        while (r.next(e))
            fromMiddle += e.kind == ReplayEvent::Kind::Rates;
    }
    ASSERT_GT(fromMiddle, 0u);
    ASSERT_LT(fromMiddle, recordedRates);
    panel->seekReplay(middle);
    EXPECT_EQ(panel->history()->size(), fromMiddle);
    EXPECT_EQ(panel->heatmap()->samples(), static_cast<int>(fromMiddle));

    // Before and after: the same recording twice; a broken file is an error, not a dialog.
    auto* d = w.compareRecordings(file, file);
    ASSERT_TRUE(d);
    const int row = d->row(QStringLiteral("CPU3 busy, mean"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(d->table()->item(row, 3)->text(), QStringLiteral("+0.0 %"));
    EXPECT_GE(d->row(QStringLiteral("Bufferbloat grade")), 0);
    d->resize(1200, 800);
    expectNotBlank(d->grab().toImage(),
                   QStringLiteral(CORESTEER_SCREENSHOT_DIR "/compare-dialog.png"));
    // The built-in samples: made by this code (the SSH widget test), they read and replay.
    auto* samples = w.compareRecordings(QStringLiteral(":/recordings/r6s-demo-before.csrec"),
                                        QStringLiteral(":/recordings/r6s-demo-after.csrec"));
    ASSERT_TRUE(samples) << w.lastError().toStdString();
    EXPECT_GE(samples->row(QStringLiteral("eth2 in, mean")), 0);
    EXPECT_GE(samples->row(QStringLiteral("Latency under load (median)")), 0);
    ASSERT_TRUE(w.openRecording(QStringLiteral(":/recordings/r6s-demo-before.csrec"), 0));
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_GT(panel->history()->size(), 40u);
    EXPECT_GT(panel->probes(), 40);
    EXPECT_TRUE(panel->gradeText().contains(QStringLiteral("grade A+")))
        << panel->gradeText().toStdString();
    std::ofstream(dir / "broken.csrec") << "coresteer-recording 1\nlabel x\n";
    EXPECT_FALSE(
        w.compareRecordings(file, QString::fromStdString((dir / "broken.csrec").string())));
    EXPECT_TRUE(w.lastError().contains(QStringLiteral("broken.csrec")))
        << w.lastError().toStdString();
}

// The load generator: iperf3 on this machine against an iperf3 server the test starts on
// 127.0.0.1, both ways with two streams, after the idle baseline; its throughput lands in the
// recording and on the chart. (iperf3 is one of the test packages.)
namespace {

// The summary of the panel's last recording, made under a load generator that had no problem.
std::optional<RecordingSummary> loadedSummary(const LivePanel& panel) {
    EXPECT_TRUE(panel.loadGeneratorProblem().isEmpty())
        << panel.loadGeneratorProblem().toStdString();
    const auto rec = panel.recording();
    std::string error;
    auto sum = rec ? summarize(*rec, &error) : std::nullopt;
    EXPECT_TRUE(sum) << (rec ? error : std::string("nothing recorded"));
    return sum;
}

} // namespace

TEST(LivePanel, RecordingRunsIperf3AfterTheBaselineAndKeepsItsThroughput) {
    const int port = freeLoopbackPort();
    ASSERT_GT(port, 0);
    QProcess server;
    server.start(QStringLiteral("iperf3"),
                 {QStringLiteral("--server"), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                  QStringLiteral("--port"), QString::number(port), QStringLiteral("--one-off")});
    ASSERT_TRUE(server.waitForStarted(5000)) << "iperf3 is not installed";
    QTest::qWait(300);
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    ASSERT_TRUE(panel->loadGeneratorAvailable());
    LoadSpec spec;
    spec.server = "127.0.0.1";
    spec.port = port;
    spec.streams = 2;
    spec.direction = LoadSpec::Direction::Both;
    panel->setLoadGenerator(spec);
    panel->startTest();
    QTest::qWait(5500); // 3 s baseline, then 2.5 s of iperf3
    ASSERT_TRUE(stopTestAndWait(*panel));
    const auto sum = loadedSummary(*panel);
    ASSERT_TRUE(sum);
    const auto rec = panel->recording();
    ASSERT_TRUE(sum->downMean && sum->upMean) << "no iperf3 report was recorded";
    std::printf("iperf3 over loopback, 2 streams each way: down %.0f Mb/s, up %.0f Mb/s\n",
                *sum->downMean / 1e6, *sum->upMean / 1e6);
    EXPECT_GT(*sum->downMean, 10e6);
    EXPECT_GT(*sum->upMean, 10e6);
    // Nothing before the baseline ended: the first report is after 3 s.
    Replay replay(*rec);
    ReplayEvent e;
    double first = -1;
    while (replay.next(e))
        if (e.kind == ReplayEvent::Kind::Throughput && first < 0)
            first = e.t;
    EXPECT_GT(first, 3.0);
    server.waitForFinished(5000);
    // A server that is not one is refused before iperf3 runs.
    spec.server = "-oops";
    panel->setLoadGenerator(spec);
    panel->startTest();
    QTest::qWait(3300);
    ASSERT_TRUE(stopTestAndWait(*panel));
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("cannot start with")))
        << panel->loadGeneratorProblem().toStdString();
}

// HTTP(S) load, as the web's tests make it, against a real web server on 127.0.0.1: downloads
// of a file and uploads by POST, in the three phases, with the throughput of each phase in the
// recording. The target is kept with the settings. A URL that does not serve stops the load with
// its reason; an upload phase without a URL that takes POST is refused before anything runs.
TEST(LivePanel, HttpLoadRunsInPhasesWithoutAnIperf3Server) {
    WebServer web;
    ASSERT_TRUE(web.running());
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    LoadSpec spec;
    spec.urls = {web.url("/bytes/3000000"), web.url("/redirect/2000000")};
    spec.postUrl = web.url("/sink");
    spec.streams = 2;
    spec.direction = LoadSpec::Direction::Sequence;
    spec.phaseSeconds = 2;
    panel->setLoadGenerator(spec);
    panel->startTest();
    for (int i = 0; i < 100 && panel->testRunning(); ++i)
        QTest::qWait(100); // 3 s baseline, 3 phases of 2 s: it ends by itself
    EXPECT_FALSE(panel->testRunning());
    const auto sum = loadedSummary(*panel);
    ASSERT_TRUE(sum);
    std::vector<std::string> names;
    for (const auto& p : sum->phases) {
        names.push_back(p.name);
        if (p.name == "download" || p.name == "both") {
            EXPECT_TRUE(p.downMean && *p.downMean > 10e6) << p.name;
        }
        if (p.name == "upload" || p.name == "both") {
            EXPECT_TRUE(p.upMean && *p.upMean > 10e6) << p.name;
        }
        if (p.name == "upload") {
            EXPECT_FALSE(p.downMean && *p.downMean > 1e6) << "an upload's answers are no download";
        }
    }
    EXPECT_EQ(names, (std::vector<std::string>{"download", "upload", "both"}));
    EXPECT_EQ(settings::loadTargets().value(0),
              QString::fromStdString(spec.urls[0] + " " + spec.urls[1] + " POST " + spec.postUrl));

    // A URL that does not serve: the load stops, and the reason names it.
    spec.urls = {web.url("/missing")};
    spec.direction = LoadSpec::Direction::Download;
    panel->setLoadGenerator(spec);
    panel->startTest();
    QTest::qWait(4000);
    ASSERT_TRUE(stopTestAndWait(*panel));
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("The HTTP load stopped: ")))
        << panel->loadGeneratorProblem().toStdString();
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QString::fromStdString(spec.urls[0])));
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("404")));

    // Uploads with nowhere to POST: refused before the test, which records without load.
    spec.urls = {web.url("/bytes/10")};
    spec.postUrl.clear();
    spec.direction = LoadSpec::Direction::Both;
    panel->setLoadGenerator(spec);
    panel->startTest();
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("after the word POST")))
        << panel->loadGeneratorProblem().toStdString();
    ASSERT_TRUE(stopTestAndWait(*panel));
    settings::setLoadTargets({});
}

// An irtt server beyond the router, named "irtt://HOST:PORT" among the hosts: irtt runs for the
// whole test against a real `irtt server` on 127.0.0.1, and its round trip and each way's delay
// are three probes of the recording. The settings keep it; what is not one is dropped.
TEST(LivePanel, AnIrttServerIsProbedEachWay) {
    const int port = freeLoopbackPort();
    ASSERT_GT(port, 0);
    QProcess server;
    server.start(QStringLiteral("irtt"), {QStringLiteral("server"), QStringLiteral("-b"),
                                          QStringLiteral("127.0.0.1:%1").arg(port)});
    ASSERT_TRUE(server.waitForStarted(5000)) << "irtt is not installed";
    QTest::qWait(300);
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openThisComputer();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    const auto target = QStringLiteral("irtt://127.0.0.1:%1").arg(port);
    panel->setBeyondHosts({target, QStringLiteral("irtt://-oops")});
    EXPECT_EQ(settings::beyondHosts(), QStringList{target});
    panel->setLoadGenerator(std::nullopt);
    panel->startTest();
    QTest::qWait(4500);
    ASSERT_TRUE(stopTestAndWait(*panel));
    server.terminate();
    server.waitForFinished(5000);
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("irtt://-oops")))
        << panel->loadGeneratorProblem().toStdString();
    std::string error;
    const auto sum = summarize(*panel->recording(), &error);
    ASSERT_TRUE(sum) << error;
    for (const char* name : {"irtt:127.0.0.1", "irtt-up:127.0.0.1", "irtt-down:127.0.0.1"}) {
        const auto* p = sum->probe(name);
        ASSERT_TRUE(p && p->latency) << name;
        EXPECT_GT(p->probes, 20) << name;
        EXPECT_LT(p->latency->idleMs, 5.0) << name; // loopback
    }
    EXPECT_EQ(sum->latencyProbe, "irtt:127.0.0.1");
    // The result card shows each way's delay, idle and loaded.
    const auto card = panel->gradeText();
    const QRegularExpression eachWay(
        QStringLiteral("Each way to 127\\.0\\.0\\.1 \\(irtt\\): up [0-9.]+ ms idle, [0-9.]+ ms "
                       "loaded \\(\\+-?[0-9.]+ ms\\); down [0-9.]+ ms idle, [0-9.]+ ms loaded"));
    EXPECT_TRUE(eachWay.match(card).hasMatch()) << card.toStdString();
    settings::setBeyondHosts({});
}

// The test in phases with a probe beyond the router, on this computer's own tree: iperf3
// against a server on 127.0.0.1 runs download, upload and both in turn, each a phase in the
// recording and a mark on the heatmap, and the test ends by itself; 127.0.0.1 stands for the host
// past the WAN and is probed by ICMP echo. The grade names that probe, and each phase has its own
// grade and throughput. A host that is not one is refused before anything is contacted.
TEST(LivePanel, ASequenceOfLoadPhasesIsGradedBeyondTheRouter) {
    const int port = freeLoopbackPort();
    ASSERT_GT(port, 0);
    QProcess server;
    server.start(QStringLiteral("iperf3"),
                 {QStringLiteral("--server"), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                  QStringLiteral("--port"), QString::number(port)});
    ASSERT_TRUE(server.waitForStarted(5000)) << "iperf3 is not installed";
    QTest::qWait(300);
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openThisComputer(); // a local tree: no LAN-side probe, no model
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    LoadSpec spec;
    spec.server = "127.0.0.1";
    spec.port = port;
    spec.streams = 2;
    spec.direction = LoadSpec::Direction::Sequence;
    spec.phaseSeconds = 2;
    panel->setLoadGenerator(spec);
    panel->setBeyondHosts({QStringLiteral("127.0.0.1")});
    EXPECT_EQ(settings::beyondHosts(), QStringList{QStringLiteral("127.0.0.1")});
    QSignalSpy finished(panel, &LivePanel::recordingFinished);
    settings::setLoadTargets({});
    panel->startTest();
    ASSERT_TRUE(finished.wait(20000)) << "the sequence did not end by itself";
    EXPECT_FALSE(panel->testRunning());
    server.terminate();
    server.waitForFinished(5000);
    // The server the test used is offered first from now on.
    EXPECT_EQ(settings::loadTargets().value(0), QStringLiteral("127.0.0.1:%1").arg(port));
    EXPECT_EQ(panel->loadTargets().value(0), QStringLiteral("127.0.0.1:%1").arg(port));
    const auto sum = loadedSummary(*panel);
    ASSERT_TRUE(sum);
    ASSERT_EQ(sum->phases.size(), 3u);
    const char* names[] = {"download", "upload", "both"};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(sum->phases[i].name, names[i]);
        EXPECT_NEAR(sum->phases[i].seconds, 2.0, 0.5) << names[i];
        ASSERT_TRUE(sum->phases[i].downMean) << names[i] << ": no iperf3 report";
    }
    EXPECT_GT(*sum->phases[0].downMean, 10e6);
    EXPECT_LT(*sum->phases[0].upMean, *sum->phases[0].downMean / 10);
    EXPECT_GT(*sum->phases[1].upMean, 10e6);
    EXPECT_LT(*sum->phases[1].downMean, *sum->phases[1].upMean / 10);
    EXPECT_GT(*sum->phases[2].downMean, 10e6);
    EXPECT_GT(*sum->phases[2].upMean, 10e6);
    EXPECT_EQ(sum->latencyProbe, "127.0.0.1");
    const auto* beyond = sum->probe("127.0.0.1");
    ASSERT_TRUE(beyond && beyond->latency);
    EXPECT_GT(beyond->probes, 40);
    ASSERT_EQ(beyond->byPhase.size(), 3u);
    EXPECT_EQ(beyond->byPhase[1].first, "upload");
    EXPECT_FALSE(sum->probe("lan")) << "a local tree has no LAN-side probe";
    const auto grade = panel->gradeText();
    EXPECT_TRUE(grade.contains(QStringLiteral("beyond the router, to 127.0.0.1 by ICMP")))
        << grade.toStdString();
    for (const auto* phase : {"download: +", "upload: +", "both: +"})
        EXPECT_TRUE(grade.contains(QLatin1String(phase))) << phase << " in " << grade.toStdString();
    QStringList marks;
    for (const auto& m : panel->heatmap()->phases())
        marks << m.name;
    EXPECT_EQ(marks.join(QLatin1Char(' ')), QStringLiteral("idle download upload both done"));
    // Hosts that are not one are said, and never probed; the settings keep only hosts.
    panel->setBeyondHosts(
        {QStringLiteral("-c1"), QStringLiteral("a;reboot"), QStringLiteral("::1")});
    EXPECT_EQ(settings::beyondHosts(), QStringList{QStringLiteral("::1")});
    panel->setLoadGenerator(std::nullopt);
    panel->startTest();
    EXPECT_TRUE(
        panel->loadGeneratorProblem().contains(QStringLiteral("not a host name or address: -c1")))
        << panel->loadGeneratorProblem().toStdString();
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("a;reboot")));
    QTest::qWait(3500);
    ASSERT_TRUE(stopTestAndWait(*panel));
    std::string error;
    const auto again = summarize(*panel->recording(), &error);
    ASSERT_TRUE(again) << error;
    std::vector<std::string> probes;
    for (const auto& p : again->probeSummaries)
        probes.push_back(p.name);
    EXPECT_EQ(probes, std::vector<std::string>{"::1"});
    settings::setBeyondHosts({});
}

// The load targets and the hosts beyond the router: kept with the settings (only what is a
// server or a host), edited in Preferences (where what is not one is said, quoted as text, and
// nothing is kept until it is fixed), and offered by the Live tab's list. They are settings
// only: nothing is contacted here.
TEST(LivePanel, LoadTargetsAreKeptEditedInPreferencesAndOffered) {
    const auto http =
        QStringLiteral("https://cdn.example.net/1G.bin POST https://up.example.net/post");
    settings::setLoadTargets({QStringLiteral("iperf.example.net"), QStringLiteral("-oops"),
                              QStringLiteral("[::1]:5202"), QStringLiteral("iperf.example.net"),
                              http, QStringLiteral("ftp://files.example.net/1G.bin")});
    const QStringList kept{QStringLiteral("iperf.example.net"), QStringLiteral("[::1]:5202"), http};
    EXPECT_EQ(settings::loadTargets(), kept);
    MainWindow w; // hands the settings to the Live tab
    auto* panel = w.livePanel();
    EXPECT_EQ(panel->loadTargets(), kept);

    QPointer<PreferencesDialog> d = w.openPreferences();
    ASSERT_TRUE(d);
    EXPECT_EQ(d->loadTargetsEdit()->toPlainText(), kept.join(QLatin1Char('\n')));
    d->loadTargetsEdit()->setPlainText(
        QStringLiteral("a.example:5201\n$(reboot)\nhttps://u:pw@cdn.example.net/f\n"));
    d->beyondEdit()->setText(QStringLiteral("9.9.9.9 <b>x</b>"));
    d->accept();
    EXPECT_NE(d->result(), QDialog::Accepted);
    EXPECT_TRUE(d->problem().contains(
        QStringLiteral("load generator server '$(reboot)': not a host name or address")))
        << d->problem().toStdString();
    EXPECT_TRUE(d->problem().contains(
        QStringLiteral("load URL 'https://u:pw@cdn.example.net/f': a user or password")))
        << d->problem().toStdString();
    EXPECT_TRUE(d->problem().contains(QStringLiteral("not a host name or address: <b>x</b>")))
        << d->problem().toStdString();
    EXPECT_EQ(settings::loadTargets(), kept) << "nothing is kept until it is fixed";
    d->loadTargetsEdit()->setPlainText(QStringLiteral("a.example:5201\n\nb.example\n"));
    d->beyondEdit()->setText(QStringLiteral("9.9.9.9"));
    d->accept();
    EXPECT_EQ(d->result(), QDialog::Accepted);
    const QStringList edited{QStringLiteral("a.example:5201"), QStringLiteral("b.example")};
    EXPECT_EQ(settings::loadTargets(), edited);
    EXPECT_EQ(settings::beyondHosts(), QStringList{QStringLiteral("9.9.9.9")});
    // The window handed what was kept to the Live tab.
    EXPECT_EQ(panel->loadTargets(), edited);
    EXPECT_EQ(panel->beyondHosts(), QStringList{QStringLiteral("9.9.9.9")});
    settings::setLoadTargets({});
    settings::setBeyondHosts({});
}
