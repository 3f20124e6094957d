// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The emulated router from the main window: connect, Recommend, apply, confirm.
#include "tests/router-vm/vm_fixture.h"

using namespace coresteer;
using namespace coresteer::test;

#ifdef CORESTEER_VM_UI
namespace {
class TrustNothing : public ui::Prompts {
public:
    bool acceptHostKey(const QString&, const QString&, const QString&) override { return false; }
    std::optional<QString> password(const QString&) override { return std::nullopt; }
};
} // namespace

// 7. The GUI's apply flow against the router: Recommend, Apply, Keep, and the guest has the
// values, read back through OpenSSH.
TEST_F(Vm, GuiApplyFlow) {
    TrustNothing prompts;
    ui::MainWindow w;
    w.setPrompts(&prompts);
    QSignalSpy shown(&w, &ui::MainWindow::snapshotShown);
    ui::Connection::Spec spec;
    spec.ssh = true;
    spec.target = target();
    spec.label = QStringLiteral("emulated router");
    w.openConnection(spec);
    ASSERT_TRUE(shown.wait(30000)) << w.lastError().toStdString();
    w.recommend();
    ASSERT_GT(w.gridModel()->changedCount(), 0);
    auto* d = w.openApplyDialog();
    ASSERT_TRUE(d);
    QTest::mouseClick(d->applyButton(), Qt::LeftButton);
    for (int i = 0; i < 600 && d->stage() != ui::ApplyDialog::Stage::Countdown; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ui::ApplyDialog::Stage::Countdown))
        << d->statusText().toStdString();
    QTest::mouseClick(d->keepButton(), Qt::LeftButton);
    for (int i = 0; i < 600 && d->stage() != ui::ApplyDialog::Stage::Kept; ++i)
        QTest::qWait(50);
    ASSERT_EQ(static_cast<int>(d->stage()), static_cast<int>(ui::ApplyDialog::Stage::Kept))
        << d->statusText().toStdString();
    // Everything the dialog applied is in the guest, and nothing is left pending.
    const auto v = guestValues();
    int checked = 0;
    for (int i = 0; i < d->changesView()->topLevelItemCount(); ++i) {
        const auto* it = d->changesView()->topLevelItem(i);
        const auto path = it->toolTip(0).toStdString();
        if (!v.count(path))
            continue; // NAPI or coalescing targets are not files
        EXPECT_EQ(CpuMask::fromHex(v.at(path))->toList(),
                  CpuMask::fromHex(it->text(2).toStdString())->toList())
            << path;
        ++checked;
    }
    EXPECT_GT(checked, 0);
    EXPECT_EQ(guest("ls /tmp/coresteer/pending 2>/dev/null"), "");
    d->close();
}
#endif
