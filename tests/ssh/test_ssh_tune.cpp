// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// coresteer-cli tune over SSH, against sshd and dropbear: every trial applies its candidate on
// the router with the revert armed and reverts it over the same session, while iperf3 runs the
// load (a server on 127.0.0.1) and the router is sampled; a run interrupted (Ctrl-C, after the
// load's 2 s check and a whole block) before its plan's first look names no winner, and the
// router ends on its baseline.
#include "tests/ssh/ssh_fixture.h"
#include "tests/support/loopback_port.h"

using namespace coresteer;
using namespace coresteer::test;
namespace fs = std::filesystem;

TEST(SshTune, TrialsApplyAndRevertOverSshdAndDropbearUnderAnIperf3Load) {
    const auto dir = kDir / "cli-tune";
    const auto root = writableBoard(dir, "x86-virtio-lab");
    std::ofstream(root / "proc/uptime") << "5000.00 9000.00\n"; // the sampler's clock
    const auto mask = root / "proc/irq/31/smp_affinity";
    ASSERT_EQ(firstLine(mask), "3");
    const auto candidate = dir / "cpu1.json";
    std::ofstream(candidate) << R"({"schema": "coresteer.layout/1", "irqs": [
        {"action": "virtio1-input.0", "cpus": "1", "why": "eth1's receive on CPU1"}]})";
    const int port = freeLoopbackPort();
    ASSERT_GT(port, 0);
    const auto pidFile = (dir / "iperf3.pid").string();
    ASSERT_EQ(std::system(("iperf3 --server --bind 127.0.0.1 --port " + std::to_string(port) +
                           " --daemon --pidfile " + pidFile)
                              .c_str()),
              0);
    ::usleep(300000);
    for (const char* server : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"}) {
        const auto file = dir / (std::string(server) + ".csrec");
        fs::remove(file);
        const std::string cmd =
            "timeout --preserve-status -s INT 30 " + std::string(CORESTEER_CLI) + " tune ssh://" +
            env("CS_SSH_USER") + "@127.0.0.1:" + env(server) + " --root '" + root.string() +
            "' --known-hosts '" + (dir / "kh").string() + "' --identity '" + env("CS_CLIENT_KEY") +
            "' --accept-new-host-key --no-plan --candidate '" + candidate.string() +
            "' --load iperf3://127.0.0.1:" + std::to_string(port) +
            " --phases download --phase-seconds 2 --idle-seconds 1 --budget 600 --json "
            "--record '" +
            file.string() + "' < /dev/null 2> '" + (dir / "err").string() + "'";
        int status = -1;
        const auto out = test::capture(cmd, &status);
        ASSERT_EQ(status, 1) << server << ": " << slurp(dir / "err"); // cancelled
        const auto j = nlohmann::json::parse(out);
        EXPECT_EQ(j["stopped"], "cancelled") << server << ": " << j["stop_reason"];
        EXPECT_TRUE(j["winner"].is_null()) << j["verdict"];
        EXPECT_FALSE(j["decided"].get<bool>());
        EXPECT_EQ(j["verdict"].get<std::string>().rfind("Not settled after ", 0), 0u)
            << j["verdict"];
        EXPECT_TRUE(j["baseline_restored"].get<bool>());
        ASSERT_EQ(j["candidates"].size(), 2u);
        // Each trial ran under iperf3's load, and the candidate's over the router's revert.
        for (const auto& c : j["candidates"]) {
            ASSERT_FALSE(c["trials"].empty()) << server << ": " << c.dump();
            for (const auto& t : c["trials"])
                EXPECT_GT(t["download"]["bps"].get<double>(), 1e6) << server << ": " << t.dump();
        }
        EXPECT_EQ(firstLine(mask), "3") << server; // back on the baseline
        // Nothing waits for a confirm on the router.
        EXPECT_FALSE(fs::exists(root / "tmp/coresteer/pending")) << server;
        EXPECT_NE(slurp(dir / "err").find("trial 1 of 3"), std::string::npos) << slurp(dir / "err");
        EXPECT_TRUE(fs::exists(file));
    }
    std::ifstream pid(pidFile);
    long long p = 0;
    pid >> p;
    if (p > 0)
        ::kill(static_cast<pid_t>(p), SIGTERM);
}
