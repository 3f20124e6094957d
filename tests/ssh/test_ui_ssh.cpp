// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop app against a real OpenSSH sshd and a real dropbear on 127.0.0.1, clicked as a
// user would: edit the grid, recommend, apply, keep or let it revert, make persistent; a changed
// host key; a router that never answers, and the Cancel button.
#include "core/collect/collect_local.h"
#include "core/live/demoload.h"
#include "core/live/recording.h"
#include "core/model/snapshot_detail.h"
#include "tests/ssh/servers_env.h"
#include "tests/support/live_ticks.h"
#include "tests/support/test_names.h"
#include "ui/dialogs/applydialog.h"
#include "ui/dialogs/comparedialog.h"
#include "ui/live/livepanel.h"
#include "ui/mainwindow.h"
#include "ui/models/maskgridmodel.h"
#include "ui/settings.h"
#include "ui/views/maskgridview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;
using namespace coresteer::ui;
namespace fs = std::filesystem;
using namespace coresteer::test;

// A named namespace, not an anonymous one: the fixture is the base of the test classes that
// TEST_P makes outside it, which gcc refuses (-Wsubobject-linkage) in a unity batch.
namespace ui_ssh {

const fs::path kDir = fs::path(CORESTEER_TEST_TMP) / "ui_sshd";
// Answers the connection's questions from a script, and counts them.
class ScriptedPrompts : public Prompts {
public:
    int hostKeyQuestions = 0, passwordQuestions = 0;
    bool acceptHostKey(const QString&, const QString&, const QString&) override {
        ++hostKeyQuestions;
        return true;
    }
    std::optional<QString> password(const QString&) override {
        ++passwordQuestions;
        return std::nullopt;
    }
};

class UiSsh : public ::testing::TestWithParam<Server> {
protected:
    void SetUp() override {
        m_tmp = kDir / "cases" / test::currentTestFileName();
        fs::remove_all(m_tmp);
        fs::create_directories(m_tmp / "sshdir");
        m_root = m_tmp / "root";
        fs::copy(test::boardDir("nanopi-r6s-friendlywrt"), m_root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        (void)std::system(("chmod -R a+rwX '" + m_tmp.string() + "'").c_str());
        m_window.setPrompts(&m_prompts);
    }
    int port() const {
        return std::stoi(env(GetParam() == Server::OpenSsh ? "CS_SSHD_PORT" : "CS_DROPBEAR_PORT"));
    }
    Connection::Spec spec(int p = 0) const {
        Connection::Spec s;
        s.ssh = true;
        s.target.host = "127.0.0.1";
        s.target.port = p ? p : port();
        s.target.user = env("CS_SSH_USER");
        s.target.identityFile = env("CS_CLIENT_KEY");
        s.target.knownHostsFile = (m_tmp / "known_hosts").string();
        s.target.sshDir = (m_tmp / "sshdir").string();
        s.target.configFile = "none";
        s.target.connectTimeoutMs = 10000;
        s.root = QString::fromStdString(m_root.string());
        s.label = QString::fromStdString(s.target.display());
        return s;
    }
    // Connects and waits for the first snapshot.
    void connectAndShow() {
        QSignalSpy shown(&m_window, &MainWindow::snapshotShown);
        m_window.openConnection(spec());
        ASSERT_TRUE(shown.wait(20000)) << m_window.lastError().toStdString();
    }
    // The grid cell of `row` and CPU `cpu`, clicked with the mouse.
    void clickCell(int row, int cpu) {
        auto* view = m_window.gridView();
        const auto idx = m_window.gridModel()->index(row, MaskGridModel::FirstCpu + cpu);
        view->scrollTo(idx);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(idx).center());
    }
    int firstRow(MaskGridModel::RowKind k) const {
        for (int r = 0; r < m_window.gridModel()->rowCount(); ++r)
            if (m_window.gridModel()->kind(r) == k)
                return r;
        return -1;
    }
    // Waits until the apply dialog reaches `stage` (or fails the test).
    void waitForStage(ApplyDialog* d, ApplyDialog::Stage stage, int ms) {
        QElapsedTimer t;
        t.start();
        while (d->stage() != stage && t.elapsed() < ms)
            QTest::qWait(50);
        ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(stage))
            << d->statusText().toStdString();
    }
    std::string irqMask(std::uint32_t irq) const {
        return firstLine(m_root / "proc/irq" / std::to_string(irq) / "smp_affinity");
    }

    fs::path m_tmp, m_root;
    ScriptedPrompts m_prompts;
    MainWindow m_window;
};

} // namespace ui_ssh

using namespace ui_ssh;

TEST_P(UiSsh, EditRecommendApplyKeepAndMakePersistent) {
    connectAndShow();
    EXPECT_EQ(m_prompts.hostKeyQuestions, 1); // a new host: asked once, then remembered
    auto* grid = m_window.gridModel();
    QAbstractItemModelTester tester(grid, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // Click a cell, undo, redo, undo: the user's own edits, on the undo stack.
    const int irqRow = firstRow(MaskGridModel::RowKind::Irq);
    ASSERT_GE(irqRow, 0);
    const auto before = *grid->pending(irqRow);
    clickCell(irqRow, 6);
    EXPECT_NE(*grid->pending(irqRow), before);
    m_window.undoStack()->undo();
    EXPECT_EQ(*grid->pending(irqRow), before);
    m_window.undoStack()->redo();
    EXPECT_NE(*grid->pending(irqRow), before);
    m_window.undoStack()->undo();

    // Recommend, then apply exactly what the dialog shows.
    m_window.recommend();
    ASSERT_GT(grid->changedCount(), 0);
    const auto layout = grid->pendingLayout();
    auto* d = m_window.openApplyDialog();
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->applyButton()->isEnabled());
    EXPECT_FALSE(d->keepButton()->isEnabled());
    EXPECT_FALSE(d->persistButton()->isEnabled()); // only after Keep
    EXPECT_NE(d->scriptView()->toPlainText().indexOf(QString::fromStdString(m_root.string())), -1);
    EXPECT_NE(d->filesView()->toPlainText().indexOf(QStringLiteral("95-coresteer")), -1);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Countdown, 20000);
    EXPECT_GT(d->secondsLeft(), 0);
    EXPECT_TRUE(fs::exists(m_root / "tmp/coresteer/pending")); // the router's revert is armed
    // The grid shows each row's outcome.
    int applied = 0;
    for (int r = 0; r < grid->rowCount(); ++r)
        applied += grid->data(grid->index(r, 0), MaskGridModel::OutcomeRole).isValid();
    EXPECT_GT(applied, 0);
    // The fixture on disk has the recommended masks.
    const auto snap = grid->snapshot();
    for (const auto& t : layout.irqs) {
        const auto irq = findIrq(*snap, t.irq);
        ASSERT_TRUE(irq);
        const auto onDisk = CpuMask::fromHex(irqMask(*irq));
        ASSERT_TRUE(onDisk);
        EXPECT_EQ(onDisk->toList(), t.cpus.toList()) << "IRQ " << *irq;
    }

    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Kept, 20000);
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
    ASSERT_TRUE(d->persistButton()->isEnabled());
    QTest::mouseClick(d->persistButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Persisted, 20000);
    const auto hook = m_root / "etc/hotplug.d/net/95-coresteer";
    ASSERT_TRUE(fs::exists(hook));
    EXPECT_NE(slurp(hook).find("Generated by coresteer"), std::string::npos);
    EXPECT_TRUE(fs::exists(m_root / "etc/coresteer/layout.json"));
    d->close();

    // The window reads the router again: the grid's current values are the applied ones.
    QTest::qWait(500);
    QSignalSpy shown(&m_window, &MainWindow::snapshotShown);
    m_window.refresh();
    ASSERT_TRUE(shown.wait(20000));
    EXPECT_EQ(grid->changedCount(), 0);
}

TEST_P(UiSsh, ApplyWithoutKeepIsRevertedByTheRouter) {
    settings::setRevertSeconds(5);
    connectAndShow();
    auto* grid = m_window.gridModel();
    m_window.recommend();
    ASSERT_GT(grid->changedCount(), 0);
    // Remember every IRQ mask on disk before the apply.
    std::map<std::uint32_t, std::string> old;
    for (const auto& i : grid->snapshot()->irqs)
        if (fs::exists(m_root / "proc/irq" / std::to_string(i.irq) / "smp_affinity"))
            old[i.irq] = irqMask(i.irq);
    auto* d = m_window.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Countdown, 20000);
    bool changed = false;
    for (const auto& [n, mask] : old)
        changed = changed || irqMask(n) != mask;
    EXPECT_TRUE(changed);
    // Nobody presses Keep: the countdown ends, and the router has put everything back.
    waitForStage(d, ApplyDialog::Stage::Reverted, 10000);
    QTest::qWait(2500); // the router's own timer fires at about the same moment
    for (const auto& [n, mask] : old)
        EXPECT_EQ(irqMask(n), mask) << "IRQ " << n;
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
    settings::setRevertSeconds(60);
}

TEST_P(UiSsh, ChangedHostKeyIsABlockingErrorAndNothingIsSent) {
    // known_hosts holds another key for this host and port.
    const auto key = slurp(env("CS_OTHER_HOST_KEY") + ".pub");
    std::ofstream(m_tmp / "known_hosts")
        << "[127.0.0.1]:" << port() << " " << key.substr(0, key.rfind(' ')) << "\n";
    const auto knownBefore = slurp(m_tmp / "known_hosts");
    QSignalSpy failed(&m_window, &MainWindow::failed);
    QSignalSpy shown(&m_window, &MainWindow::snapshotShown);
    m_window.openConnection(spec());
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_EQ(shown.count(), 0);
    EXPECT_EQ(m_prompts.hostKeyQuestions, 0); // never offered as a choice
    EXPECT_EQ(m_prompts.passwordQuestions, 0);
    auto* box = m_window.errorBox();
    ASSERT_TRUE(box);
    EXPECT_EQ(box->icon(), QMessageBox::Critical);
    EXPECT_TRUE(box->isModal() || box->windowModality() != Qt::NonModal);
    const auto text = box->text();
    EXPECT_NE(text.indexOf(QStringLiteral("CHANGED")), -1) << text.toStdString();
    EXPECT_GE(text.count(QStringLiteral("SHA256:")), 2) << text.toStdString();
    EXPECT_NE(box->informativeText().indexOf(QStringLiteral("ssh-keygen -R")), -1);
    EXPECT_EQ(slurp(m_tmp / "known_hosts"), knownBefore);
    EXPECT_FALSE(m_window.gridModel()->snapshot());
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer"));
}

// The Live tab over SSH, recording a bufferbloat test before and after Recommend: the router's
// /proc is driven by the demo's traffic model (the sampler reads it over SSH like a router's),
// latency is probed against the server's port (loopback: an A+), and the two recordings compare
// as before and after.
TEST_P(UiSsh, RecordsABufferbloatTestBeforeAndAfterApply) {
    std::string error;
    // One long download phase, so that both recordings see the same offered load however long
    // the apply between them takes.
    DemoLoad::Profile profile;
    profile.period = 4000;
    profile.linkMbps = 2500; // more than either layout carries: the throughput shows the change
    auto model =
        DemoLoad::create(m_root.string(), buildSnapshot(collectLocal(m_root)), profile, &error);
    ASSERT_TRUE(model) << error;
    ASSERT_TRUE(model->step(0.1, &error)) << error;
    QTimer traffic;
    QElapsedTimer clock;
    clock.start();
    QObject::connect(&traffic, &QTimer::timeout, [&] {
        const double dt = static_cast<double>(clock.restart()) / 1000.0;
        ASSERT_TRUE(model->step(std::min(dt, 1.0), &error)) << error;
    });
    traffic.start(50);
    connectAndShow();
    auto* panel = m_window.livePanel();
    auto* tabs = m_window.findChild<QTabWidget*>();
    ASSERT_TRUE(tabs);
    tabs->setCurrentWidget(panel);
    m_window.resize(1400, 900);
    m_window.show();
    const bool docs = GetParam() == Server::OpenSsh;
    // 127.0.0.1 stands for a host past the WAN: probed from here (ICMP) and by the router's own
    // ping over the session (the "router" is this machine, as the test user).
    panel->setBeyondHosts({QStringLiteral("127.0.0.1")});

    auto record = [&](const fs::path& file, const char* screenshot) {
        test::LiveTicks live(m_window.connection());
        ASSERT_TRUE(panel->testButton()->isEnabled());
        QTest::mouseClick(panel->testButton(), Qt::LeftButton); // Start recording
        ASSERT_TRUE(panel->testRunning());
        QTest::qWait(5000); // 3 s of idle baseline, then "under load"
        if (screenshot && docs) {
            fs::create_directories(CORESTEER_SCREENSHOT_DIR);
            ASSERT_TRUE(m_window.grab().save(
                QString::fromStdString(std::string(CORESTEER_SCREENSHOT_DIR "/") + screenshot)));
        }
        QTest::mouseClick(panel->testButton(), Qt::LeftButton); // Stop
        // The test runs on the connection's worker: its recording comes back queued.
        ASSERT_TRUE(QTest::qWaitFor([&] { return !panel->testRunning(); }, 20000));
        EXPECT_GE(live.count(), 20);
        EXPECT_GT(panel->probes(), 20);
        EXPECT_TRUE(panel->gradeText().contains(QStringLiteral("grade A+")))
            << panel->gradeText().toStdString();
        const auto rec = panel->recording();
        ASSERT_TRUE(rec);
        QString why;
        ASSERT_TRUE(panel->saveRecording(QString::fromStdString(file.string()), &why))
            << why.toStdString();
        if (screenshot && docs) {
            ASSERT_TRUE(
                panel->exportPng(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/recording.png"), &why))
                << why.toStdString();
        }
    };
    record(m_tmp / "before.csrec", "live-recording.png");

    // Apply the planner's layout, keep it, and record again.
    m_window.recommend();
    auto* d = m_window.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Countdown, 20000);
    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    waitForStage(d, ApplyDialog::Stage::Kept, 20000);
    d->close();
    record(m_tmp / "after.csrec", nullptr);

    const auto before = loadRecording((m_tmp / "before.csrec").string(), &error);
    ASSERT_TRUE(before) << error;
    const auto after = loadRecording((m_tmp / "after.csrec").string(), &error);
    ASSERT_TRUE(after) << error;
    const auto a = summarize(*before, &error);
    const auto b = summarize(*after, &error);
    ASSERT_TRUE(a && b) << error;
    ASSERT_TRUE(a->latency && b->latency);
    EXPECT_EQ(a->latency->grade, "A+");
    EXPECT_GT(a->probes, 30);
    // Three probes on one time axis: the router's SSH port, the host beyond from here, and the
    // same host from the router, five echoes a second.
    EXPECT_EQ(a->latencyProbe, "127.0.0.1");
    for (const auto* s : {&*a, &*b})
        for (const char* name : {"lan", "127.0.0.1", "router"}) {
            const auto* p = s->probe(name);
            ASSERT_TRUE(p && p->latency) << name;
            EXPECT_EQ(p->latency->lost, 0) << name;
            EXPECT_GE(p->probes, name == std::string("router") ? 15 : 30) << name;
        }
    panel->setBeyondHosts({});
    // The default layout pins LITTLE CPU3 while the big cores idle; the planner's layout puts
    // the stack on a big core, and the model then forwards more.
    EXPECT_GT(a->core(3)->mean, 0.9);
    double bigBefore = 0, bigAfter = 0;
    for (int cpu = 4; cpu < 8; ++cpu) {
        bigBefore = std::max(bigBefore, a->core(cpu)->mean);
        bigAfter = std::max(bigAfter, b->core(cpu)->mean);
    }
    EXPECT_LT(bigBefore, 0.3);
    EXPECT_GT(bigAfter, 0.5);
    ASSERT_TRUE(a->interface("eth2") && b->interface("eth2"));
    EXPECT_GT(b->interface("eth2")->rxMean, a->interface("eth2")->rxMean * 1.1);
    const auto text = compareSummaries(*a, *b, "before.csrec", "after.csrec");
    std::printf("%s", text.c_str());
    auto* cmp =
        m_window.compareRecordings(QString::fromStdString((m_tmp / "before.csrec").string()),
                                   QString::fromStdString((m_tmp / "after.csrec").string()));
    ASSERT_TRUE(cmp);
    const int row = cmp->row(QStringLiteral("eth2 in, mean"));
    ASSERT_GE(row, 0);
    EXPECT_TRUE(cmp->table()->item(row, 3)->text().startsWith(QLatin1Char('+')));
    if (docs) {
        cmp->resize(1300, 820);
        cmp->show();
        QTest::qWait(100);
        ASSERT_TRUE(cmp->grab().save(QStringLiteral(CORESTEER_SCREENSHOT_DIR "/compare.png")));
        fs::copy_file(m_tmp / "before.csrec", fs::path(CORESTEER_SCREENSHOT_DIR) / "before.csrec",
                      fs::copy_options::overwrite_existing);
        fs::copy_file(m_tmp / "after.csrec", fs::path(CORESTEER_SCREENSHOT_DIR) / "after.csrec",
                      fs::copy_options::overwrite_existing);
    }
    cmp->close();
}

namespace {

// The sampler awk of this test (found by the root in its environment) and the server process
// that runs it for the connection.
std::vector<pid_t> samplerAndSession(const fs::path& root) {
    std::vector<pid_t> out;
    for (const auto& e : fs::directory_iterator("/proc")) {
        const auto name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream env(e.path() / "environ", std::ios::binary);
        std::string all((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
        if (all.find("CORESTEER_ROOT=" + root.string() + '\0') == std::string::npos)
            continue;
        std::ifstream stat(e.path() / "stat");
        std::string st;
        std::getline(stat, st);
        const auto rest = st.substr(st.rfind(')') + 2);
        std::istringstream f(rest);
        std::string state;
        pid_t ppid = 0;
        f >> state >> ppid;
        out.push_back(std::stoi(name));
        out.push_back(ppid);
    }
    return out;
}

} // namespace

// The router goes away mid-session (its SSH session and sampler are killed): the live view
// reports it, leaves a gap, reconnects by itself and carries on.
TEST_P(UiSsh, LiveViewReconnectsAfterTheSessionDies) {
    std::ofstream(m_root / "proc/uptime") << "200.00 50.00\n";
    std::atomic<bool> stop{false};
    std::thread clock([&] { // the router's clock moves on
        for (int i = 1; !stop.load(); ++i) {
            std::ofstream(m_root / "proc/uptime.new") << 200 + i * 0.1 << " 50.00\n";
            fs::rename(m_root / "proc/uptime.new", m_root / "proc/uptime");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    connectAndShow();
    test::LiveTicks live(m_window.connection());
    QSignalSpy problem(m_window.connection(), &Connection::liveProblem);
    ASSERT_TRUE(live.waitFor(3, 20000));
    const auto victims = samplerAndSession(m_root);
    ASSERT_EQ(victims.size(), 2u) << "the sampler and its session";
    for (auto p : victims)
        ::kill(p, SIGKILL);
    ASSERT_TRUE(problem.wait(5000)) << "the break was not reported";
    live.clear();
    ASSERT_TRUE(live.waitFor(3, 30000)) << "no samples after the break";
    stop = true;
    clock.join();
    const auto* h = m_window.livePanel()->history();
    ASSERT_TRUE(h);
    bool gap = false;
    for (std::size_t i = 0; i < h->size(); ++i)
        gap = gap || h->isGap(i);
    EXPECT_TRUE(gap);
    EXPECT_NE(samplerAndSession(m_root), victims); // a new sampler, in a new session
}

// A router whose sampler starts a tick and never ends it (tests/ssh/fake_sampler.sh behind the
// sampler key): the Live tab says so with the cap, and the window carries on.
TEST_P(UiSsh, AnEndlessSamplerStreamIsAMessage) {
    const auto root = m_tmp / "endless-tick";
    fs::rename(m_root, root);
    auto s = spec();
    s.target.identityFile = env("CS_SAMPLER_KEY");
    s.root = QString::fromStdString(root.string());
    QSignalSpy shown(&m_window, &MainWindow::snapshotShown);
    m_window.openConnection(s);
    QSignalSpy problem(m_window.connection(), &Connection::liveProblem);
    ASSERT_TRUE(shown.wait(20000)) << m_window.lastError().toStdString();
    ASSERT_TRUE(problem.count() > 0 || problem.wait(30000));
    const auto message = problem.front().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("16 MiB"))) << message.toStdString();
    bool shownInTheWindow = false;
    for (const auto* label : m_window.findChildren<QLabel*>())
        shownInTheWindow =
            shownInTheWindow || (label->text().startsWith(QStringLiteral("Live: ")) &&
                                 label->text().contains(QStringLiteral("16 MiB")));
    EXPECT_TRUE(shownInTheWindow);
    EXPECT_GT(m_window.gridModel()->rowCount(), 0); // the snapshot is still there
}

INSTANTIATE_TEST_SUITE_P(Servers, UiSsh, ::testing::Values(Server::OpenSsh, Server::Dropbear),
                         [](const ::testing::TestParamInfo<Server>& p) {
                             return std::string(p.param == Server::OpenSsh ? "OpenSsh"
                                                                           : "Dropbear");
                         });

// A port that accepts TCP connections and never says a word: the SSH handshake waits there.
TEST(UiSshSilentRouter, WindowStaysLiveAndCancelStopsTheConnection) {
    test::LoopbackListener silent;
    ASSERT_GT(silent.port, 0);

    ScriptedPrompts prompts;
    MainWindow w;
    w.setPrompts(&prompts);
    Connection::Spec s;
    s.ssh = true;
    s.target.host = "127.0.0.1";
    s.target.port = silent.port;
    s.target.user = "nobody";
    s.target.configFile = "none";
    s.target.knownHostsFile = (kDir / "silent_known_hosts").string();
    s.target.connectTimeoutMs = 10000;
    s.label = QStringLiteral("silent");
    w.openConnection(s);
    ASSERT_TRUE(w.connection());
    QPointer<Connection> conn = w.connection();

    // The event loop keeps running while the worker waits for the banner.
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(50);
    QTest::qWait(1000);
    EXPECT_GE(ticks, 15);
    EXPECT_TRUE(w.cancelButton()->isVisible() || !w.isVisible());
    EXPECT_TRUE(conn);

    QElapsedTimer t;
    t.start();
    w.cancel();
    EXPECT_FALSE(w.connection());
    while (conn && t.elapsed() < 5000)
        QTest::qWait(5);
    const auto ms = t.elapsed();
    EXPECT_FALSE(conn) << "the connection did not stop";
    std::printf("cancel of a connection waiting for the SSH banner took %lld ms\n",
                static_cast<long long>(ms));
    EXPECT_LT(ms, 2000); // behaviour, with room: long before the 10 s connect timeout
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("coresteer-tests"));
    QApplication::setApplicationName(QStringLiteral("ui_ssh_tests"));
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new Servers(kDir));
    return RUN_ALL_TESTS();
}
