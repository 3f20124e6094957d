// The Qt models over every board fixture, checked by QAbstractItemModelTester; the main window
// loading a fixture on its worker thread.
#include "board_expect.h"
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/live/recording.h"
#include "hostile_names.h"
#include "live_ticks.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/live/heatmapwidget.h"
#include "ui/live/livepanel.h"
#include "ui/live/loadcharts.h"
#include "ui/logging.h"
#include "ui/mainwindow.h"
#include "ui/models/coremodel.h"
#include "ui/models/maskgridmodel.h"
#include "ui/models/snapshotmodel.h"
#include "ui/settings.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
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
using namespace coresteer::ui;

namespace {

std::filesystem::path boards() {
    return std::filesystem::path(CORESTEER_FIXTURES) / "boards";
}

SnapshotPtr load(const std::string& board) {
    return std::make_shared<const Snapshot>(buildSnapshot(collectLocal(boards() / board)));
}

} // namespace

TEST(SnapshotModel, PassesTheModelTesterOnEveryBoard) {
    for (const auto& b : coresteer::test::boardNames()) {
        SnapshotModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setSnapshot(load(b));
        EXPECT_GT(model.rowCount(), 0) << b;
        model.setSnapshot(nullptr);
        EXPECT_EQ(model.rowCount(), 0);
    }
}

TEST(SnapshotModel, ShowsIrqMasksUnderTheirInterface) {
    SnapshotModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(load("nanopi-r6s-openwrt"));
    QModelIndex eth2;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, 0).data().toString() == QStringLiteral("eth2"))
            eth2 = model.index(r, 0);
    ASSERT_TRUE(eth2.isValid());
    ASSERT_GE(model.rowCount(eth2), 1);
    const auto irq = model.index(0, SnapshotModel::MaskHex, eth2);
    EXPECT_EQ(model.index(0, 0, eth2).data().toString(), QStringLiteral("IRQ 97"));
    EXPECT_EQ(irq.data().toString(), QStringLiteral("80"));
    EXPECT_EQ(model.index(0, SnapshotModel::MaskCpus, eth2).data().toString(), QStringLiteral("7"));
    EXPECT_EQ(model.index(0, 0, eth2).data(SnapshotModel::IrqRole).toUInt(), 97u);
}

TEST(CoreModel, ClassesPerCpu) {
    CoreModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(load("nanopi-r6s-openwrt"));
    ASSERT_EQ(model.rowCount(), 8);
    EXPECT_EQ(model.index(0, CoreModel::Class).data().toString(), QStringLiteral("LITTLE"));
    EXPECT_EQ(model.index(7, CoreModel::Class).data().toString(), QStringLiteral("big"));
    EXPECT_EQ(model.index(7, CoreModel::Cpu).data(CoreModel::RawValueRole).toInt(), 7);
}

TEST(MainWindow, LoadsAFixtureOnAWorkerThread) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boards() / "bpi-r4").string()));
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_GT(w.snapshotModel()->rowCount(), 0);
    EXPECT_EQ(w.coreModel()->rowCount(), 4);
}

TEST(MainWindow, RecommendShowsThePlanAsOneUndoableStep) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boards() / "nanopi-r6s-friendlywrt").string()));
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_GT(w.gridModel()->rowCount(), 0);
    EXPECT_EQ(w.gridModel()->changedCount(), 0);
    w.recommend();
    const int changed = w.gridModel()->changedCount();
    EXPECT_GT(changed, 0);
    EXPECT_EQ(w.undoStack()->count(), 1);
    // Each changed row says why.
    for (int r = 0; r < w.gridModel()->rowCount(); ++r) {
        if (w.gridModel()->index(r, 0).data(MaskGridModel::ChangedRole).toBool()) {
            EXPECT_FALSE(w.gridModel()->index(r, 0).data(Qt::ToolTipRole).toString().isEmpty());
        }
    }
    w.undoStack()->undo();
    EXPECT_EQ(w.gridModel()->changedCount(), 0);
    w.undoStack()->redo();
    EXPECT_EQ(w.gridModel()->changedCount(), changed);
}

// What the grid has no cell for still goes to apply and persist: the IPQ4019 preset's flow
// counts, rps_sock_flow_entries and its IRQs outside the network (bam_dma, xhci-hcd) travel
// with the masks, undo and redo with them, and Discard drops them.
TEST(MainWindow, ExtrasBeyondTheGridGoWithTheLayout) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boards() / "ipq4019-acrh17").string()));
    ASSERT_TRUE(shown.wait(10000));
    ASSERT_TRUE(w.loadPreset(QStringLiteral(":/presets/ipq4019-acrh17-forwarding.json")));
    EXPECT_FALSE(w.statusBar()->currentMessage().contains(QStringLiteral("bam_dma")))
        << w.statusBar()->currentMessage().toStdString();
    auto has = [](const Layout& l, const std::string& action) {
        return std::any_of(l.irqs.begin(), l.irqs.end(),
                           [&](const IrqTarget& t) { return t.irq.action == action; });
    };
    const auto pending = w.gridModel()->pendingLayout();
    EXPECT_TRUE(has(pending, "bam_dma"));
    EXPECT_TRUE(has(pending, "xhci-hcd:usb1"));
    EXPECT_EQ(pending.rpsSockFlowEntries, 1024u);
    ASSERT_FALSE(pending.rx.empty());
    EXPECT_TRUE(std::all_of(pending.rx.begin(), pending.rx.end(),
                            [](const RxQueueTarget& t) { return t.rpsFlowCnt == 256u; }));
    const int changed = w.gridModel()->changedCount();
    // What apply would write includes them.
    const auto writes = changedWrites(resolve(pending, *w.gridModel()->snapshot()));
    EXPECT_TRUE(std::any_of(writes.begin(), writes.end(), [](const Write& x) {
        return x.path == "proc/sys/net/core/rps_sock_flow_entries";
    }));
    EXPECT_EQ(static_cast<int>(writes.size()), changed);
    w.undoStack()->undo();
    EXPECT_TRUE(w.gridModel()->pendingLayout().empty());
    EXPECT_EQ(w.gridModel()->changedCount(), 0);
    w.undoStack()->redo();
    EXPECT_EQ(w.gridModel()->changedCount(), changed);
    EXPECT_EQ(w.gridModel()->pendingLayout().rpsSockFlowEntries, 1024u);
    for (auto* a : w.menuBar()->actions())
        if (a->menu())
            for (auto* b : a->menu()->actions())
                if (b->text() == QStringLiteral("&Discard pending changes"))
                    b->trigger();
    EXPECT_EQ(w.gridModel()->changedCount(), 0);
    EXPECT_FALSE(w.gridModel()->pendingLayout().rpsSockFlowEntries);
}

// Built-in presets are in the Presets menu; one loads as one undoable step, and a preset made
// on another board says so and lists what this router lacks.
TEST(MainWindow, PresetsLoadAsPendingChanges) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boards() / "nanopi-r6s-friendlywrt").string()));
    ASSERT_TRUE(shown.wait(10000));
    ASSERT_TRUE(w.loadPreset(QStringLiteral(":/presets/nanopi-r6s-option1.json")));
    EXPECT_GT(w.gridModel()->changedCount(), 0);
    EXPECT_EQ(w.undoStack()->count(), 1);
    EXPECT_FALSE(w.statusBar()->currentMessage().contains(QStringLiteral("made on")));
    EXPECT_FALSE(w.statusBar()->currentMessage().contains(QStringLiteral("not on this router")));
    w.undoStack()->undo();
    EXPECT_EQ(w.gridModel()->changedCount(), 0);
    // The BPI-R4 preset on the R6S.
    ASSERT_TRUE(w.loadPreset(QStringLiteral(":/presets/bpi-r4-mt7988-no-wifi.json")));
    EXPECT_TRUE(
        w.statusBar()->currentMessage().contains(QStringLiteral("made on bananapi,bpi-r4")));
    EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("not on this router")));
    EXPECT_FALSE(w.loadPreset(QStringLiteral("/nonexistent.json")));
    // A preset file opened goes to Presets > Recent; a built-in one does not.
    QTemporaryDir tmp;
    const auto copy = tmp.filePath(QStringLiteral("mine.json"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(":/presets/nanopi-r6s-option2a.json"), copy));
    ASSERT_TRUE(w.loadPreset(copy));
    EXPECT_EQ(settings::recentPresets().value(0), copy);
    EXPECT_FALSE(settings::recentPresets().join(u',').contains(QStringLiteral(":/")));
    QStringList titles;
    for (auto* a : w.menuBar()->actions())
        titles << a->text();
    EXPECT_TRUE(titles.contains(QStringLiteral("&Presets")));
}

// The main window rendered to PNG (offscreen) for the R6S and the 96-CPU server, after
// Recommend: files in the build tree, checked for size and for more than a blank image.
TEST(MainWindow, ScreenshotsAreNotBlank) {
    for (const char* b : {"nanopi-r6s-friendlywrt", "x86-server-96"}) {
        SCOPED_TRACE(b);
        MainWindow w;
        w.resize(1400, 900);
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        w.loadRoot(QString::fromStdString((boards() / b).string()));
        ASSERT_TRUE(shown.wait(10000));
        w.recommend();
        w.show();
        QTest::qWait(50);
        const QImage img = w.grab().toImage();
        const auto file =
            QStringLiteral(CORESTEER_SCREENSHOT_DIR "/main-%1.png").arg(QString::fromLatin1(b));
        std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
        ASSERT_TRUE(img.save(file)) << file.toStdString();
        EXPECT_GE(img.width(), 1000);
        EXPECT_GE(img.height(), 600);
        // Not blank: many distinct colours (text, cells in three states, load shading).
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3)
                colours.insert(img.pixel(x, y));
        EXPECT_GT(colours.size(), 50);
        EXPECT_GT(QFileInfo(file).size(), 20000);
    }
}

TEST(MainWindow, DropsLateAnswersFromAConnectionItLeft) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boards() / "x86-server-96").string()));
    w.loadRoot(QString::fromStdString((boards() / "nanopi-r4s").string()));
    ASSERT_TRUE(shown.wait(10000));
    QTest::qWait(500); // time for the first answer to arrive too, were it to be delivered
    ASSERT_EQ(shown.count(), 1);
    ASSERT_TRUE(w.gridModel()->snapshot());
    EXPECT_EQ(w.gridModel()->snapshot()->topology.online.count(), 6);
}

TEST(MainWindow, OpensTheBuiltInDemoRouterOnAPrivateCopy) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000)) << w.lastError().toStdString();
    const auto snap = w.gridModel()->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->system.boardName, "friendlyelec,nanopi-r6s");
    EXPECT_EQ(snap->topology.online.count(), 8);
    EXPECT_GT(w.gridModel()->rowCount(), 5);
    const auto root = w.connection()->spec().root.toStdString();
    EXPECT_NE(root, "/");
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(root) / "proc/interrupts"));
    EXPECT_NE(w.summaryText().indexOf(QStringLiteral("big 4-7 (2.3 GHz)")), -1)
        << w.summaryText().toStdString();
    EXPECT_NE(w.summaryText().indexOf(QStringLiteral("LITTLE 0-3 (1.8 GHz)")), -1);
}

// The core's log reaches Qt's logging categories of the same names, off unless turned on.
namespace {
QStringList g_logged;
void keepMessage(QtMsgType, const QMessageLogContext& c, const QString& m) {
    g_logged << QString::fromUtf8(c.category) + QStringLiteral(": ") + m;
}
} // namespace

TEST(Logging, CoreCategoriesAreQtCategories) {
    const auto previous = qInstallMessageHandler(keepMessage);
    const auto load = [] {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        w.loadRoot(QString::fromStdString((test::boardsDir() / "bpi-r4").string()));
        return shown.wait(10000);
    };
    g_logged.clear();
    installLogging(false);
    ASSERT_TRUE(load());
    EXPECT_TRUE(g_logged.filter(QStringLiteral("coresteer.")).isEmpty())
        << g_logged.join(u'\n').toStdString();
    installLogging(true);
    ASSERT_TRUE(load());
    qInstallMessageHandler(previous);
    QLoggingCategory::setFilterRules(QStringLiteral("coresteer.*.debug=false"));
    installLogging(false);
    EXPECT_FALSE(g_logged.filter(QStringLiteral("coresteer.collect: ")).isEmpty())
        << g_logged.join(u'\n').toStdString();
    EXPECT_FALSE(g_logged.filter(QStringLiteral("coresteer.ui: opening")).isEmpty());
}

// A capture (coresteer-cli capture, a bug report) opens read-only: its snapshot, nothing to apply,
// no sampling; a file that is not a capture is refused with its name.
TEST(MainWindow, OpensACaptureReadOnly) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const auto dir = std::filesystem::path(tmp.path().toStdString());
    const auto file = dir / "r4s.capture";
    {
        std::ofstream out(file, std::ios::binary);
        out << writeCapture(collectLocal(test::boardsDir() / "nanopi-r4s"));
    }
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    ASSERT_TRUE(w.openCapture(QString::fromStdString(file.string())));
    ASSERT_TRUE(shown.wait(10000)) << w.lastError().toStdString();
    EXPECT_EQ(w.gridModel()->snapshot()->system.boardName, "friendlyarm,nanopi-r4s");
    EXPECT_TRUE(w.connection()->spec().replay);
    EXPECT_FALSE(w.applyAction()->isEnabled());
    test::LiveTicks live(w.connection());
    EXPECT_FALSE(live.waitNext(1500));
    const auto bad = dir / "not.capture";
    std::ofstream(bad) << "hello\n";
    EXPECT_FALSE(w.openCapture(QString::fromStdString(bad.string())));
    EXPECT_NE(w.lastError().indexOf(QStringLiteral("not.capture")), -1)
        << w.lastError().toStdString();
}

// A capture that would write outside its private directory (a link out of it, with a listing
// under the link) is refused with the file and the line, and nothing outside is written; the
// same capture inside a recording is refused with the recording's line.
TEST(MainWindow, RefusesACaptureThatWouldWriteOutsideItsDirectory) {
    const auto dir = std::filesystem::path(CORESTEER_TEST_TMP) / "ui-hostile-capture";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "outside");
    FileBundle b;
    b.add("sys/class/net/eth0/device", {BundleEntry::Kind::Link, (dir / "outside").string()});
    b.add("sys/class/net/eth0/device/msi_irqs", {BundleEntry::Kind::Dir, "42\n"});
    const auto capture = writeCapture(b); // the listing's entry starts on line 5
    const auto file = dir / "hostile.capture";
    std::ofstream(file, std::ios::binary) << capture;
    MainWindow w;
    EXPECT_FALSE(w.openCapture(QString::fromStdString(file.string())));
    const auto error = w.lastError().toStdString();
    EXPECT_NE(error.find("hostile.capture: line 5: sys/class/net/eth0/device/msi_irqs: "),
              std::string::npos)
        << error;
    EXPECT_TRUE(std::filesystem::is_empty(dir / "outside"));

    RecordingWriter rec({"r", utcTimestamp(), 10, capture, ""});
    const auto recording = dir / "hostile.csrec";
    std::ofstream(recording, std::ios::binary) << rec.text();
    EXPECT_FALSE(w.openRecording(QString::fromStdString(recording.string()), 0));
    // The recording's header takes 5 lines: the capture's line 5 is its line 10.
    EXPECT_NE(w.lastError().toStdString().find("hostile.csrec: line 10: "), std::string::npos)
        << w.lastError().toStdString();
    EXPECT_TRUE(std::filesystem::is_empty(dir / "outside"));
}

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
    const auto rec = panel->recording();
    ASSERT_TRUE(rec);
    std::string error;
    const auto layout = parseLayout(rec->info.layout, &error);
    ASSERT_TRUE(layout) << error;
    EXPECT_TRUE(std::any_of(layout->irqs.begin(), layout->irqs.end(),
                            [](const IrqTarget& t) { return t.irq.action == test::kValidIrq; }));
}

// The demo is alive: its live load shows in the grid and the status bar, the hot core is a
// LITTLE one, and applying Recommend (with Keep) in the demo moves the load to the big cores.
TEST(MainWindow, DemoShowsLiveLoadAndApplyingRecommendMovesIt) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    test::LiveTicks live(w.connection());
    ASSERT_TRUE(live.waitFor(5, 20000)) << w.liveText().toStdString();
    auto hottest = [&] {
        const auto rates = live.last();
        const CoreLoad* hot = nullptr;
        for (const auto& c : rates->cores)
            if (!hot || c.busy() > hot->busy())
                hot = &c;
        return *hot;
    };
    const auto before = hottest();
    EXPECT_GT(before.busy(), 0.9);
    EXPECT_LT(before.cpu, 4); // LITTLE
    const auto* grid = w.gridModel();
    EXPECT_GT(grid->headerData(MaskGridModel::FirstCpu + before.cpu, Qt::Horizontal,
                               MaskGridModel::CpuLoadRole)
                  .toDouble(),
              0.9);
    // The default layout is a bottleneck: the status bar names the core and an idle big one.
    EXPECT_TRUE(w.liveText().contains(QStringLiteral("Bottleneck: CPU%1").arg(before.cpu)))
        << w.liveText().toStdString();
    // IRQ rows carry their rate.
    bool rate = false;
    for (int r = 0; r < grid->rowCount(); ++r)
        rate = rate || grid->index(r, 0).data().toString().contains(QStringLiteral("/s"));
    EXPECT_TRUE(rate);

    w.recommend();
    // The window as the README shows it: live load, and Recommend's changes pending.
    w.resize(1280, 860);
    w.show();
    live.clear();
    ASSERT_TRUE(live.waitFor(3, 20000));
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(w.grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-live-recommend.png")));
    auto* d = w.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    for (int i = 0; i < 200 && d->stage() != ApplyDialog::Stage::Countdown; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ApplyDialog::Stage::Countdown))
        << d->statusText().toStdString();
    d->resize(1000, 560);
    QTest::qWait(50);
    ASSERT_TRUE(
        d->grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-apply-countdown.png")));
    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    for (int i = 0; i < 200 && d->stage() != ApplyDialog::Stage::Kept; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ApplyDialog::Stage::Kept));
    d->close();
    live.clear();
    ASSERT_TRUE(live.waitFor(5, 20000));
    const auto rates = live.last();
    double bigSoftirq = 0;
    for (const auto& c : rates->cores)
        if (c.cpu >= 4)
            bigSoftirq = std::max(bigSoftirq, c.softirq);
    EXPECT_GT(bigSoftirq, 0.2) << "the stack should now run on a big core";
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
                    .startsWith(QStringLiteral("CPU0")));
    bool eth2Rate = false;
    for (int r = 0; r < panel->irqTable()->rowCount(); ++r)
        if (panel->irqTable()->item(r, 0)->text() == QStringLiteral("173"))
            eth2Rate = panel->irqTable()->item(r, 3) &&
                       panel->irqTable()->item(r, 4)->text() == QStringLiteral("CPU3");
    EXPECT_TRUE(eth2Rate);
    EXPECT_GT(panel->interfaceTable()->rowCount(), 2);
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(w.grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-live-tab.png")));
}

namespace {

void expectNotBlank(const QImage& img, const QString& file) {
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(img.save(file)) << file.toStdString();
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            colours.insert(img.pixel(x, y));
    EXPECT_GT(colours.size(), 30) << file.toStdString();
    EXPECT_GT(QFileInfo(file).size(), 20000) << file.toStdString();
}

} // namespace

// The apply dialog over the demo router after Recommend: the diff, the script and the files
// tabs are filled, and its rendering is not blank.
TEST(ApplyDialog, ShowsTheDiffTheScriptAndThePersistentFiles) {
    MainWindow w;
    w.resize(1400, 900);
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    w.recommend();
    w.show();
    auto* d = w.openApplyDialog();
    ASSERT_TRUE(d);
    EXPECT_GT(d->changesView()->topLevelItemCount(), 0);
    EXPECT_TRUE(d->scriptView()->toPlainText().startsWith(QStringLiteral("#!")) ||
                d->scriptView()->toPlainText().contains(QStringLiteral("revert")));
    EXPECT_TRUE(
        d->filesView()->toPlainText().contains(QStringLiteral("hotplug.d/net/95-coresteer")));
    EXPECT_TRUE(d->applyButton()->isEnabled());
    EXPECT_FALSE(d->persistButton()->isEnabled());
    d->resize(1000, 640);
    QTest::qWait(50);
    expectNotBlank(w.grab().toImage(), QStringLiteral(CORESTEER_SCREENSHOT_DIR "/main-demo.png"));
    expectNotBlank(d->grab().toImage(),
                   QStringLiteral(CORESTEER_SCREENSHOT_DIR "/apply-dialog.png"));
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
        QString error;
        EXPECT_FALSE(panel->saveRecording(file, &error)); // nothing recorded yet
        EXPECT_FALSE(error.isEmpty());
        test::LiveTicks live(w.connection());
        panel->testButton()->click(); // Start recording
        EXPECT_TRUE(panel->testRunning());
        ASSERT_TRUE(live.waitFor(20, 20000));
        QTest::qWait(20);
        EXPECT_GE(panel->recordedTicks(), 20u);
        QSignalSpy finished(panel, &LivePanel::recordingFinished);
        panel->testButton()->click(); // Stop
        ASSERT_EQ(finished.count(), 1);
        const auto rec = panel->recording();
        ASSERT_TRUE(rec);
        EXPECT_GE(rec->ticks, 20u);
        EXPECT_EQ(rec->info.label, "Demo router (NanoPi R6S)");
        EXPECT_FALSE(rec->info.capture.empty());
        std::string why;
        const auto sum = summarize(*rec, &why);
        ASSERT_TRUE(sum) << why;
        recordedRates = sum->ticks;
        // The demo's default layout pins CPU3 (the LITTLE core with the NIC IRQs).
        EXPECT_GT(sum->core(3)->mean, 0.9);
        EXPECT_LT(sum->core(5)->mean, 0.5);
        EXPECT_FALSE(sum->latency); // no SSH, no probes

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

namespace {

// A port on 127.0.0.1 that nothing listens on now.
int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        return -1;
    ::close(fd);
    return ntohs(a.sin_port);
}

} // namespace

// The load generator: iperf3 on this machine against an iperf3 server the test starts on
// 127.0.0.1, both ways with two streams, after the idle baseline; its throughput lands in the
// recording and on the chart. (iperf3 is one of the test packages.)
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
    panel->stopTest();
    EXPECT_TRUE(panel->loadGeneratorProblem().isEmpty())
        << panel->loadGeneratorProblem().toStdString();
    const auto rec = panel->recording();
    ASSERT_TRUE(rec);
    std::string error;
    const auto sum = summarize(*rec, &error);
    ASSERT_TRUE(sum) << error;
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
    panel->stopTest();
    EXPECT_TRUE(panel->loadGeneratorProblem().contains(QStringLiteral("cannot start with")))
        << panel->loadGeneratorProblem().toStdString();
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
