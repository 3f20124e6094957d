// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the desktop app's tests against sshd and dropbear share (ui_ssh_tests): a main window
// connected over SSH to a private copy of a board's tree, prompts answered from a script, and
// the grid's cells clicked with the mouse.
#pragma once

#include "tests/ssh/servers_env.h"
#include "tests/support/test_names.h"
#include "ui/dialogs/applydialog.h"
#include "ui/mainwindow.h"
#include "ui/models/maskgridmodel.h"
#include "ui/views/maskgridview.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

// A named namespace, not an anonymous one: the fixture is the base of the test classes that
// TEST_P makes outside it, which gcc refuses (-Wsubobject-linkage) in a unity batch.
namespace ui_ssh {

using namespace coresteer;
using namespace coresteer::ui;
using namespace coresteer::test;

inline const fs::path kDir = fs::path(CORESTEER_TEST_TMP) / "ui_sshd";
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
