// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// ApplyDialog (ui/dialogs/applydialog.h): the diff, the script and the persistent files.
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/layout/layout_json.h"
#include "core/live/recording.h"
#include "tests/support/board_expect.h"
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
#include <QCheckBox>
#include <QComboBox>
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
using namespace coresteer::test;

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

namespace {

// A copy of `board` under `name`, for a test to add files to.
std::filesystem::path boardCopy(const char* name, const std::string& board) {
    const auto root = std::filesystem::path(CORESTEER_TEST_TMP) / name / "root";
    std::filesystem::remove_all(root.parent_path());
    copyBoard(board, root);
    return root;
}

// The apply dialog over `root` after Recommend (nullptr, with a failure, when it does not open).
ApplyDialog* recommendedOn(MainWindow& w, const std::filesystem::path& root) {
    QSignalSpy shown(&w, &MainWindow::snapshotShown);
    w.loadRoot(QString::fromStdString(root.string()));
    if (!shown.wait(20000)) {
        ADD_FAILURE() << w.lastError().toStdString();
        return nullptr;
    }
    w.recommend();
    return w.openApplyDialog();
}

} // namespace

// A router where irqbalance runs: persistence bans the layout's IRQs in it by default, and the
// choice beside the button changes what the files would do. Where it does not run, no choice.
TEST(ApplyDialog, OffersToBanTheLayoutsIrqsInIrqbalance) {
    const auto root = boardCopy("ui-irqbalance", "bpi-r4"); // irqbalance runs there
    std::filesystem::create_directories(root / "etc/config");
    std::ofstream(root / "etc/config/irqbalance")
        << "config irqbalance 'irqbalance'\n\toption enabled '1'\n";
    MainWindow w;
    auto* d = recommendedOn(w, root);
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->irqbalanceBox()->isHidden());
    ASSERT_TRUE(d->persistPlan());
    EXPECT_FALSE(d->persistPlan()->banIrqs.empty());
    EXPECT_TRUE(d->filesView()->toPlainText().contains(QStringLiteral("IRQs in irqbalance")));
    EXPECT_TRUE(d->bootScriptsBox()->isHidden()); // no boot script writes masks here
    d->setIrqbalanceChoice(ApplyDialog::IrqbalanceChoice::Disable);
    ASSERT_TRUE(d->persistPlan());
    EXPECT_TRUE(d->persistPlan()->banIrqs.empty());
    EXPECT_TRUE(d->persistPlan()->disableIrqbalance);
    EXPECT_TRUE(d->filesView()->toPlainText().contains(QStringLiteral("Stops and disables")));
    d->setIrqbalanceChoice(ApplyDialog::IrqbalanceChoice::Leave);
    EXPECT_FALSE(d->persistPlan()->disableIrqbalance);
    EXPECT_TRUE(d->persistPlan()->banIrqs.empty());
    d->close();

    MainWindow demo;
    QSignalSpy demoShown(&demo, &MainWindow::snapshotShown);
    demo.openDemo();
    ASSERT_TRUE(demoShown.wait(10000));
    demo.recommend();
    auto* plain = demo.openApplyDialog();
    ASSERT_TRUE(plain);
    EXPECT_TRUE(plain->irqbalanceBox()->isHidden());
    ASSERT_TRUE(plain->persistPlan());
    EXPECT_TRUE(plain->persistPlan()->banIrqs.empty());
}

// A boot script that rewrites masks after the hotplug script: the dialog offers to override it
// (checked), and the files tab says what that does; unchecked, persist leaves it alone.
TEST(ApplyDialog, OffersToOverrideBootScriptsThatRewriteMasks) {
    const auto root = boardCopy("ui-boot-scripts", "nanopi-r6s-openwrt");
    std::filesystem::create_directories(root / "etc/init.d");
    std::filesystem::create_directories(root / "etc/rc.d");
    std::ofstream(root / "etc/init.d/smp_affinity")
        << "#!/bin/sh /etc/rc.common\nSTART=93\nboot() {\n\techo 4 > "
           "/proc/irq/35/smp_affinity\n}\n";
    std::filesystem::create_symlink("../init.d/smp_affinity", root / "etc/rc.d/S93smp_affinity");
    MainWindow w;
    auto* d = recommendedOn(w, root);
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->bootScriptsBox()->isHidden());
    EXPECT_TRUE(d->bootScriptsBox()->isChecked());
    EXPECT_TRUE(d->bootScriptsBox()->toolTip().contains(
        QStringLiteral("/etc/init.d/smp_affinity:4 (IRQ masks)")));
    ASSERT_TRUE(d->persistPlan());
    EXPECT_EQ(d->persistPlan()->bootScriptsOff, std::vector<std::string>{"smp_affinity"});
    EXPECT_TRUE(d->filesView()->toPlainText().contains(
        QStringLiteral("Disables /etc/init.d/smp_affinity at boot")));
    d->bootScriptsBox()->setChecked(false);
    ASSERT_TRUE(d->persistPlan());
    EXPECT_TRUE(d->persistPlan()->bootScriptsOff.empty());
    EXPECT_FALSE(d->filesView()->toPlainText().contains(QStringLiteral("Disables /etc/init.d")));
}
