// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: loading on its worker thread, Recommend, presets, captures, the demo router.
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/live/recording.h"
#include "tests/support/board_expect.h"
#include "tests/support/cpufreq_policy.h"
#include "tests/support/hostile_names.h"
#include "tests/support/live_ticks.h"
#include "tests/unit/ui/ui_helpers.h"
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
#include <QHeaderView>
#include <QImage>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <algorithm>
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

// Without a saved geometry the window takes most of the screen, and the CPU table its width.
TEST(MainWindow, OpensSizedToTheScreen) {
    QSettings().remove(QStringLiteral("window/geometry"));
    MainWindow w;
    ASSERT_TRUE(w.screen());
    const auto avail = w.screen()->availableGeometry();
    const auto want = QSize(avail.width() * 9 / 10, avail.height() * 9 / 10)
                          .expandedTo(QSize(800, 560))
                          .boundedTo(avail.size());
    EXPECT_EQ(w.size(), want);
    bool stretched = false;
    for (auto* t : w.findChildren<QTableView*>())
        stretched = stretched || t->horizontalHeader()->stretchLastSection();
    EXPECT_TRUE(stretched);
}

TEST(MainWindow, LoadsAFixtureOnAWorkerThread) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boardDir("bpi-r4")).string()));
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_GT(w.snapshotModel()->rowCount(), 0);
    EXPECT_EQ(w.coreModel()->rowCount(), 4);
}

TEST(MainWindow, RecommendShowsThePlanAsOneUndoableStep) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boardDir("nanopi-r6s-friendlywrt")).string()));
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
    w.loadRoot(QString::fromStdString((boardDir("ipq4019-acrh17")).string()));
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

// A slow cpufreq governor under the network work: Recommend sets a better one, the CPU table
// shows the change, and the person may choose another or none, each one undoable step.
TEST(MainWindow, GovernorsAreProposedShownAndChosen) {
    const auto root = boardWithCpufreqPolicy(
        boardDir("bpi-r4"), std::filesystem::path(CORESTEER_TEST_TMP) / "ui-governor", "powersave",
        "powersave performance schedutil");
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString(root.string()));
    ASSERT_TRUE(shown.wait(10000));
    auto* cores = w.coreModel();
    auto cell = [&](int row) {
        return cores->index(row, CoreModel::Governor).data().toString().toStdString();
    };
    auto governors = [&] {
        std::string out;
        for (const auto& g : w.gridModel()->pendingLayout().governors)
            out += std::to_string(g.policy) + ":" + g.governor + " ";
        return out;
    };
    EXPECT_EQ(cell(2), "powersave");
    w.recommend();
    EXPECT_EQ(cell(2), "powersave → schedutil");
    EXPECT_EQ(governors(), "0:schedutil ");
    EXPECT_NE(cores->index(2, CoreModel::Governor)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .indexOf(QStringLiteral("schedutil follows the load")),
              -1);
    const int undoBefore = w.undoStack()->count();
    ASSERT_TRUE(w.chooseGovernor(1, QStringLiteral("performance")));
    EXPECT_EQ(governors(), "0:performance ");
    EXPECT_EQ(cell(3), "powersave → performance");
    EXPECT_EQ(w.undoStack()->count(), undoBefore + 1);
    ASSERT_TRUE(w.chooseGovernor(0, QString()));
    EXPECT_EQ(governors(), "");
    EXPECT_EQ(cell(0), "powersave");
    EXPECT_FALSE(w.chooseGovernor(0, QStringLiteral("ondemand")));
    w.undoStack()->undo();
    EXPECT_EQ(governors(), "0:performance ");
    // What apply writes includes it.
    const auto writes =
        changedWrites(resolve(w.gridModel()->pendingLayout(), *w.gridModel()->snapshot()));
    EXPECT_TRUE(std::any_of(writes.begin(), writes.end(), [](const Write& x) {
        return x.path == "sys/devices/system/cpu/cpufreq/policy0/scaling_governor" &&
               x.value == "performance";
    }));
}

// With a load on the Live tab (eth0's IRQ at 62 000/s on a saturated CPU0 for 10 s), Recommend
// proposes coalescing for eth0 and says what load it used; without one, it proposes none.
TEST(MainWindow, RecommendProposesCoalescingFromTheLiveLoad) {
    const auto root = std::filesystem::path(CORESTEER_TEST_TMP) / "ui-coalescing";
    std::filesystem::remove_all(root);
    std::filesystem::copy(boardDir("nanopi-m4"), root,
                          std::filesystem::copy_options::recursive |
                              std::filesystem::copy_options::copy_symlinks);
    std::filesystem::create_directories(root / "ethtool/eth0");
    std::ofstream(root / "ethtool/eth0/coalesce")
        << "Coalesce parameters for eth0:\nAdaptive RX: off  TX: n/a\nrx-usecs:\t20\n"
           "rx-frames:\t16\n";
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString(root.string()));
    ASSERT_TRUE(shown.wait(10000));
    auto eth0 = [&]() -> std::optional<layout::InterfaceTarget> {
        for (const auto& t : w.gridModel()->pendingLayout().interfaces)
            if (t.interface == "eth0")
                return t;
        return std::nullopt;
    };
    w.recommend();
    EXPECT_FALSE(eth0() && eth0()->rxUsecs);
    EXPECT_FALSE(w.statusBar()->currentMessage().contains(QStringLiteral("Live tab")));
    w.undoStack()->undo();
    for (int i = 0; i < 20; ++i) {
        live::Rates r;
        r.start = 100 + 0.5 * i;
        r.end = r.start + 0.5;
        for (int cpu = 0; cpu < 6; ++cpu) {
            live::CoreLoad c;
            c.cpu = cpu;
            if (cpu == 0) {
                c.softirq = 1.0;
                c.idle = 0;
            }
            r.cores.push_back(c);
        }
        live::IrqRate irq;
        irq.irq = 38;
        irq.perCpu = {62'000, 0, 0, 0, 0, 0};
        irq.total = 62'000;
        r.irqs.push_back(irq);
        r.interfaces.push_back({"eth0", 0, 0, 400'000, 0});
        w.livePanel()->addRates(r);
    }
    w.recommend();
    ASSERT_TRUE(eth0());
    EXPECT_EQ(eth0()->rxUsecs, 125u);
    EXPECT_EQ(eth0()->rxFrames, 50u);
    EXPECT_TRUE(w.statusBar()->currentMessage().contains(
        QStringLiteral("with the load of the last 10 s on the Live tab")))
        << w.statusBar()->currentMessage().toStdString();
    // What apply writes includes it.
    const auto writes =
        changedWrites(resolve(w.gridModel()->pendingLayout(), *w.gridModel()->snapshot()));
    EXPECT_TRUE(std::any_of(writes.begin(), writes.end(), [](const layout::Write& x) {
        return x.path == "ethtool:eth0:rx-usecs" && x.value == "125" && x.current == "20";
    }));
}

// Built-in presets are in the Presets menu; one loads as one undoable step, and a preset made
// on another board says so and lists what this router lacks.
TEST(MainWindow, PresetsLoadAsPendingChanges) {
    MainWindow w;
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString((boardDir("nanopi-r6s-friendlywrt")).string()));
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
        w.loadRoot(QString::fromStdString((boardDir(b)).string()));
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
    w.loadRoot(QString::fromStdString((boardDir("x86-server-96")).string()));
    w.loadRoot(QString::fromStdString((boardDir("nanopi-r4s")).string()));
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

// A capture (coresteer-cli capture, a bug report) opens read-only: its snapshot, nothing to apply,
// no sampling; a file that is not a capture is refused with its name.
TEST(MainWindow, OpensACaptureReadOnly) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const auto dir = std::filesystem::path(tmp.path().toStdString());
    const auto file = dir / "r4s.capture";
    {
        std::ofstream out(file, std::ios::binary);
        out << writeCapture(collectLocal(test::boardDir("nanopi-r4s")));
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

    RecordingWriter rec({"r", utcTimestamp(), 10, capture, "", {}});
    const auto recording = dir / "hostile.csrec";
    std::ofstream(recording, std::ios::binary) << rec.text();
    EXPECT_FALSE(w.openRecording(QString::fromStdString(recording.string()), 0));
    // The recording's header takes 5 lines: the capture's line 5 is its line 10.
    EXPECT_NE(w.lastError().toStdString().find("hostile.csrec: line 10: "), std::string::npos)
        << w.lastError().toStdString();
    EXPECT_TRUE(std::filesystem::is_empty(dir / "outside"));
}

namespace {

// Applies the pending changes with the apply dialog and keeps them; the dialog's countdown is
// saved to `screenshot` when one is named.
void applyAndKeep(MainWindow& w, const QString& screenshot = {}) {
    auto* d = w.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    for (int i = 0; i < 200 && d->stage() != ApplyDialog::Stage::Countdown; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ApplyDialog::Stage::Countdown))
        << d->statusText().toStdString();
    if (!screenshot.isEmpty()) {
        d->resize(1000, 560);
        QTest::qWait(50);
        ASSERT_TRUE(d->grab().save(screenshot));
    }
    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    for (int i = 0; i < 200 && d->stage() != ApplyDialog::Stage::Kept; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ApplyDialog::Stage::Kept));
    d->close();
}

} // namespace

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
    // The window as docs/guide.md shows it: live load, and Recommend's changes pending.
    w.resize(1280, 860);
    w.show();
    live.clear();
    ASSERT_TRUE(live.waitFor(3, 20000));
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(w.grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-live-recommend.png")));
    applyAndKeep(w, QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-apply-countdown.png"));
    if (::testing::Test::HasFatalFailure())
        return;
    live.clear();
    ASSERT_TRUE(live.waitFor(5, 20000));
    const auto rates = live.last();
    double bigSoftirq = 0;
    for (const auto& c : rates->cores)
        if (c.cpu >= 4)
            bigSoftirq = std::max(bigSoftirq, c.softirq);
    EXPECT_GT(bigSoftirq, 0.2) << "the stack should now run on a big core";
}

// What the demo is for, as a new user sees it: a bufferbloat test on the default layout (a
// LITTLE core saturates, the queue before it grows the latency: a poor grade), then Recommend,
// Apply, Keep and a second test (the stack on the big cores, cake's own small queue: a good
// grade). The live view at the end of each test is kept as a screenshot, and what it shows is
// checked by the widgets' state: the charts' legend, the heatmap's phase marks and time axis,
// the grade with its phases, the status bar's bottleneck under the download.
TEST(MainWindow, DemoBufferbloatTestImprovesAfterRecommend) {
    MainWindow w;
    w.resize(1600, 1000);
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.openDemo();
    ASSERT_TRUE(shown.wait(10000));
    auto* panel = w.livePanel();
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_TRUE(tabs);
    tabs->setCurrentWidget(panel);
    w.show();
    panel->setPhaseSeconds(3);
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    struct Result {
        std::string grade;
        double increaseMs = 0;
        QString gradeText;
        QStringList status;
    };
    auto runTest = [&](const QString& screenshot, Result& r) {
        QSignalSpy finished(panel, &LivePanel::recordingFinished);
        panel->testButton()->click();
        // The status bar five times over the download's second half (3 s of baseline first):
        // how many of them name a bottleneck, and which.
        QTest::qWait(4500);
        QStringList status;
        for (int i = 0; i < 5; ++i, QTest::qWait(300))
            status << w.liveText();
        ASSERT_TRUE(finished.wait(30000)) << "the demo's test did not end by itself";
        std::string error;
        const auto sum = summarize(*panel->recording(), &error);
        ASSERT_TRUE(sum && sum->latency) << error;
        EXPECT_EQ(sum->latencyProbe, "demo");
        r = {sum->latency->grade, sum->latency->increaseMs, panel->gradeText(), status};
        // The view reads at a glance: the legend, the phases on the heatmap's time axis, the
        // grade of each phase.
        EXPECT_TRUE(panel->charts()->legend()->isVisible());
        QStringList marks;
        for (const auto& m : panel->heatmap()->phases())
            marks << m.name;
        EXPECT_EQ(marks.mid(marks.size() - 5).join(QLatin1Char(' ')),
                  QStringLiteral("idle download upload both done"));
        EXPECT_FALSE(panel->heatmap()->timeLabels().isEmpty());
        for (const char* phase : {"download: +", "upload: +", "both: +"})
            EXPECT_TRUE(r.gradeText.contains(QLatin1String(phase))) << r.gradeText.toStdString();
        ASSERT_TRUE(w.grab().save(screenshot));
    };
    Result before, after;
    runTest(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-bufferbloat-before.png"), before);
    if (HasFatalFailure())
        return;
    const auto beforeFile = QString::fromStdString(
        (std::filesystem::path(CORESTEER_SCREENSHOT_DIR) / "demo-bufferbloat-before.csrec")
            .string());
    QString why;
    ASSERT_TRUE(panel->saveRecording(beforeFile, &why)) << why.toStdString();
    w.recommend();
    applyAndKeep(w);
    if (HasFatalFailure())
        return;
    runTest(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/demo-bufferbloat-after.png"), after);
    if (HasFatalFailure())
        return;
    std::printf("demo bufferbloat test: grade %s (+%.1f ms) before Recommend, %s (+%.1f ms) "
                "after\n",
                before.grade.c_str(), before.increaseMs, after.grade.c_str(), after.increaseMs);
    EXPECT_GT(before.increaseMs, 25.0);
    EXPECT_TRUE(before.grade == "B" || before.grade == "C") << before.grade;
    EXPECT_LT(after.increaseMs, 10.0);
    EXPECT_TRUE(after.grade == "A+" || after.grade == "A") << after.grade;
    // The label and the model agree, under the download: a LITTLE core is the bottleneck on
    // the default layout, and none is once the stack runs on the big cores.
    auto naming = [](const QStringList& status, const QString& what) {
        return std::count_if(status.begin(), status.end(),
                             [&](const QString& t) { return t.contains(what); });
    };
    EXPECT_GE(naming(before.status, QStringLiteral("Bottleneck: CPU3")), 3)
        << before.status.join(QLatin1Char('\n')).toStdString();
    EXPECT_LE(naming(after.status, QStringLiteral("Bottleneck")), 1)
        << after.status.join(QLatin1Char('\n')).toStdString();
    // "Compare with..." puts the saved test beside this one, one click from the result.
    auto* d = w.compareWith(beforeFile);
    ASSERT_TRUE(d);
    const int row = d->row(QStringLiteral("Bufferbloat grade"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(d->table()->item(row, 1)->text().toStdString(), before.grade);
    EXPECT_EQ(d->table()->item(row, 2)->text().toStdString(), after.grade);
    d->close();
}
