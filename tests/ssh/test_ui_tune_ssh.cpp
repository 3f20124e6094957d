// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Layout > Find the best layout against a real sshd and a real dropbear: the tuner runs on the
// connection's worker over its SSH session, every trial applies its candidate with the
// router's revert armed and reverts it, while iperf3 loads a server on 127.0.0.1; the end of
// the run leaves the router on its baseline.
#include "tests/ssh/ui_ssh_fixture.h"
#include "tests/support/loopback_port.h"
#include "ui/dialogs/tunedialog.h"
#include "ui/dialogs/tuneview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>

#include <csignal>
#include <fstream>
#include <map>

using namespace ui_ssh;

namespace {

// Every IRQ's smp_affinity and every queue's rps_cpus under the router's root, by path.
std::map<std::string, std::string> steering(const fs::path& root) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        const auto name = e.path().filename().string();
        if (e.is_regular_file() && (name == "smp_affinity" || name == "rps_cpus"))
            out[e.path().lexically_relative(root).string()] = firstLine(e.path());
    }
    return out;
}

// An iperf3 server on 127.0.0.1, stopped with the test.
struct Iperf3Server {
    int port = freeLoopbackPort();
    fs::path pidFile;
    explicit Iperf3Server(const fs::path& dir) : pidFile(dir / "iperf3.pid") {
        if (port > 0 &&
            std::system(("iperf3 --server --bind 127.0.0.1 --port " + std::to_string(port) +
                         " --daemon --pidfile '" + pidFile.string() + "'")
                            .c_str()) != 0)
            port = 0;
        QTest::qWait(300);
    }
    ~Iperf3Server() {
        std::ifstream in(pidFile);
        long long p = 0;
        if (in >> p && p > 0)
            ::kill(static_cast<pid_t>(p), SIGTERM);
    }
};

int rowOf(const QTreeWidget* list, int column, const QString& text) {
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(column) == text)
            return i;
    return -1;
}

} // namespace

// The grid's pending edits (the planner's layout) against the baseline, download in 2 s
// phases: a budget of 24 s cannot reach the plan's first look and is refused before anything is
// applied; with room, a block and more run (each trial measured iperf3's throughput), a cancel
// ends it, and the files under the root hold the masks they held before.
TEST_P(UiSsh, TunesOverTheSessionUnderAnIperf3LoadAndEndsOnTheBaseline) {
    Iperf3Server iperf3(m_tmp);
    ASSERT_GT(iperf3.port, 0) << "no iperf3 server";
    std::ofstream(m_root / "proc/uptime") << "5000.00 9000.00\n"; // the sampler's clock
    connectAndShow();
    const auto before = steering(m_root);
    ASSERT_FALSE(before.empty());
    m_window.recommend();
    ASSERT_GT(m_window.gridModel()->changedCount(), 0);

    auto setUp = [&](TuneDialog& d, int budget) {
        const int edits = rowOf(d.candidateList(), 1, QStringLiteral("your edits"));
        ASSERT_GT(edits, 0);
        d.checkOnly({edits});
        d.loadBox()->setEditText(QStringLiteral("127.0.0.1:%1").arg(iperf3.port));
        d.downloadBox()->setChecked(true);
        d.uploadBox()->setChecked(false);
        d.bothBox()->setChecked(false);
        d.phaseSecondsBox()->setValue(2);
        d.idleSecondsBox()->setValue(1);
        d.budgetBox()->setValue(budget);
    };

    auto* d = m_window.openTuneDialog();
    ASSERT_TRUE(d);
    setUp(*d, 24); // the plan's first look is 8 blocks of 3 trials: far beyond 24 s
    EXPECT_TRUE(d->planText().contains(QStringLiteral("cannot reach the first look")))
        << d->planText().toStdString();
    EXPECT_FALSE(d->start());
    EXPECT_EQ(d->stage(), TuneDialog::Stage::Setup);
    EXPECT_EQ(steering(m_root), before);
    setUp(*d, 900);
    ASSERT_TRUE(d->start());
    // The candidate is in force on the router at some point, over the session.
    ASSERT_TRUE(QTest::qWaitFor([&] { return steering(m_root) != before; }, 30000))
        << d->progressText().toStdString();
    // A whole block and the next begun, then cancelled.
    ASSERT_TRUE(QTest::qWaitFor([&] { return d->trialsStarted() >= 4; }, 60000))
        << d->progressText().toStdString();
    d->cancelButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return d->stage() == TuneDialog::Stage::Done; }, 60000))
        << d->progressText().toStdString();
    const auto result = d->result();
    ASSERT_TRUE(result) << d->verdictText().toStdString();
    EXPECT_EQ(result->stop, measure::TuneResult::Stop::Cancelled) << result->stopText;
    EXPECT_FALSE(result->verdict.winner); // no winner without a decision
    EXPECT_TRUE(result->baselineRestored);
    EXPECT_GE(result->blocks, 1);
    ASSERT_GE(result->trials.size(), 3u);
    for (const auto& t : result->trials)
        EXPECT_GT(t.measures.downloadBps.value_or(0), 1e6) << "candidate " << t.candidate;
    EXPECT_EQ(d->table()->rowCount(), 2);
    EXPECT_EQ(steering(m_root), before);
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
    // The router may be asked again: Apply opens on the grid's edits, which the tune kept.
    EXPECT_GT(m_window.gridModel()->changedCount(), 0);
    auto* apply = m_window.openApplyDialog();
    ASSERT_TRUE(apply);
    apply->close();
    d->close();
    QTest::qWait(50);

    // At once a second run on the same connection, cancelled while its candidate is in force:
    // the baseline is back at once.
    d = m_window.openTuneDialog();
    ASSERT_TRUE(d);
    setUp(*d, 600);
    ASSERT_TRUE(d->start());
    ASSERT_TRUE(QTest::qWaitFor([&] { return steering(m_root) != before; }, 30000))
        << d->progressText().toStdString() << " | " << d->verdictText().toStdString() << " | "
        << (d->result() ? d->result()->stopText : std::string("no result"));
    d->cancelButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return d->stage() == TuneDialog::Stage::Done; }, 30000));
    ASSERT_TRUE(d->result());
    EXPECT_EQ(d->result()->stop, measure::TuneResult::Stop::Cancelled) << d->result()->stopText;
    EXPECT_TRUE(d->result()->baselineRestored);
    EXPECT_EQ(steering(m_root), before);
    EXPECT_FALSE(fs::exists(m_root / "tmp/coresteer/pending"));
}
