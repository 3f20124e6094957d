// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The emulated router's tests: one boot of the router for all of them.
#include "tests/router-vm/vm_fixture.h"

using namespace coresteer;
using namespace coresteer::test;

int main(int argc, char** argv) {
#ifdef CORESTEER_VM_UI
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
#endif
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new RouterVm);
    std::signal(SIGPIPE, SIG_IGN);
    return RUN_ALL_TESTS();
}
