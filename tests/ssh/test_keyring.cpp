// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// "Remember the password": the desktop keyring through QtKeychain, against the test dropbear
// (password logins, as OpenWrt's). Run twice by ctest: with no keyring at all (the box is not
// offered, nothing is saved), and inside a D-Bus session of its own with a real GNOME Keyring
// (saved once the login works, used without asking, asked again when refused).
#include "tests/ssh/servers_env.h"
#include "ui/connection.h"
#include "ui/keyring.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

#include <filesystem>

using namespace coresteer;
using namespace coresteer::ui;
namespace fs = std::filesystem;
using namespace coresteer::test;

namespace keyring_test {

const fs::path kDir = fs::path(CORESTEER_TEST_TMP) / "keyring_sshd";

// Answers the password dialog as a person would, and notes what it showed.
struct DialogAnswerer {
    QString password;
    bool tick = false;
    int dialogs = 0;
    bool rememberShown = false, refusedShown = false;

    void arm() {
        QTimer::singleShot(50, [this] {
            auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            auto* edit = d ? d->findChild<QLineEdit*>(QStringLiteral("password")) : nullptr;
            if (!edit) {
                arm(); // not shown yet
                return;
            }
            ++dialogs;
            auto* remember = d->findChild<QCheckBox*>(QStringLiteral("remember"));
            rememberShown = remember && !remember->isHidden();
            refusedShown = false;
            for (auto* l : d->findChildren<QLabel*>())
                refusedShown = refusedShown || l->text().contains(QStringLiteral("refused"));
            edit->setText(password);
            if (remember)
                remember->setChecked(tick);
            d->accept();
            arm(); // for the next question
        });
    }
};

class Keyring : public ::testing::Test {
protected:
    void SetUp() override {
        m_tmp = kDir / "cases" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
        fs::remove_all(m_tmp);
        fs::create_directories(m_tmp / "sshdir");
        m_root = m_tmp / "root";
        fs::copy(test::boardDir("nanopi-r4s"), m_root,
                 fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        (void)std::system(("chmod -R a+rwX '" + m_tmp.string() + "'").c_str());
        m_window.setPrompts(&m_prompts);
    }
    Connection::Spec spec() const {
        Connection::Spec s;
        s.ssh = true;
        s.target.host = "127.0.0.1";
        s.target.port = std::stoi(env("CS_DROPBEAR_PORT"));
        s.target.user = env("CS_SSH_USER");
        s.target.identityFile = (m_tmp / "no-such-key").string(); // a password login
        s.target.knownHostsFile = (m_tmp / "known_hosts").string();
        s.target.sshDir = (m_tmp / "sshdir").string();
        s.target.configFile = "none";
        s.root = QString::fromStdString(m_root.string());
        s.label = QString::fromStdString(s.target.display());
        return s;
    }
    QString key() const { return keyring::keyFor(QString::fromStdString(spec().target.display())); }
    // Connects; true once the snapshot shows.
    bool connectOnce() {
        QSignalSpy shown(&m_window, &MainWindow::snapshotShown);
        m_window.openConnection(spec());
        const bool ok = shown.wait(20000);
        QTest::qWait(200); // the keyring is written after the login, on the UI thread
        return ok;
    }

    struct AcceptKeys : Prompts {
        bool acceptHostKey(const QString&, const QString&, const QString&) override { return true; }
    };
    fs::path m_tmp, m_root;
    AcceptKeys m_prompts;
    MainWindow m_window;
    DialogAnswerer m_answer;
};

} // namespace keyring_test

using namespace keyring_test;

TEST_F(Keyring, NotOfferedWithoutAKeyring) {
    ASSERT_FALSE(keyring::available());
    m_answer.password = QString::fromStdString(env("CS_SSH_PASSWORD"));
    m_answer.tick = true; // were the box there
    m_answer.arm();
    ASSERT_TRUE(connectOnce()) << m_window.lastError().toStdString();
    EXPECT_EQ(m_answer.dialogs, 1);
    EXPECT_FALSE(m_answer.rememberShown);
    EXPECT_FALSE(keyring::read(key()));
    // Asked again next time: nothing was kept.
    ASSERT_TRUE(connectOnce());
    EXPECT_EQ(m_answer.dialogs, 2);
}

TEST_F(Keyring, RemembersAfterALoginThatWorkedAndAsksWhenRefused) {
    ASSERT_TRUE(keyring::available()) << "run inside a D-Bus session with a keyring";
    keyring::remove(key());
    const auto right = QString::fromStdString(env("CS_SSH_PASSWORD"));
    // A wrong password with the box ticked is not saved: the login failed.
    m_answer.password = QStringLiteral("wrong");
    m_answer.tick = true;
    m_answer.arm();
    EXPECT_FALSE(connectOnce());
    EXPECT_TRUE(m_answer.rememberShown);
    EXPECT_FALSE(keyring::read(key()));
    // The right one, ticked: saved once it worked.
    m_answer.password = right;
    const int before = m_answer.dialogs;
    ASSERT_TRUE(connectOnce()) << m_window.lastError().toStdString();
    EXPECT_EQ(m_answer.dialogs, before + 1);
    EXPECT_EQ(keyring::read(key()), right);
    // Next time no question at all.
    ASSERT_TRUE(connectOnce());
    EXPECT_EQ(m_answer.dialogs, before + 1);
    // The router's password changed: the saved one is refused, the dialog says so (the box
    // ticked), and the new one replaces it.
    ASSERT_TRUE(keyring::write(key(), QStringLiteral("old-password")));
    ASSERT_TRUE(connectOnce()) << m_window.lastError().toStdString();
    EXPECT_EQ(m_answer.dialogs, before + 2);
    EXPECT_TRUE(m_answer.refusedShown);
    EXPECT_EQ(keyring::read(key()), right);
    // Unticked after a refusal: forgotten.
    ASSERT_TRUE(keyring::write(key(), QStringLiteral("old-password")));
    m_answer.tick = false;
    ASSERT_TRUE(connectOnce());
    EXPECT_FALSE(keyring::read(key()));
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("coresteer-tests"));
    QApplication::setApplicationName(QStringLiteral("keyring_tests"));
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new Servers(kDir));
    return RUN_ALL_TESTS();
}
