// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// coresteer-cli over SSH: snapshot, jump hosts, apply, persist, --verbose, and the fleet's
// Ansible playbook against two routers.
#include "tests/ssh/ssh_fixture.h"

using namespace coresteer;
using namespace coresteer::layout;
using namespace coresteer::test;
namespace fs = std::filesystem;

TEST(SshCli, SnapshotOverSshMatchesLocal) {
    const auto board = (test::boardDir("nanopi-r6s-openwrt")).string();
    const auto kh = kDir / "cli_known_hosts";
    fs::remove(kh);
    const std::string cmd = std::string(CORESTEER_CLI) + " snapshot ssh://" + env("CS_SSH_USER") +
                            "@127.0.0.1:" + env("CS_DROPBEAR_PORT") + " --root '" + board +
                            "' --known-hosts '" + kh.string() + "' --identity '" +
                            env("CS_CLIENT_KEY") + "' --accept-new-host-key --json < /dev/null";
    int status = -1;
    const auto out = test::capture(cmd, &status);
    EXPECT_EQ(status, 0);
    auto remote = nlohmann::json::parse(out);
    auto local = toJson(buildSnapshot(collectLocal(board)));
    EXPECT_EQ(remote["origin"].get<std::string>(),
              "ssh://" + env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") + board);
    remote.erase("origin");
    local.erase("origin");
    EXPECT_EQ(remote, local);
    // Without --accept-new-host-key and no terminal, an unknown key is refused.
    fs::remove(kh);
    const std::string strict = std::string(CORESTEER_CLI) + " snapshot ssh://" +
                               env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                               " --known-hosts '" + kh.string() + "' --identity '" +
                               env("CS_CLIENT_KEY") + "' < /dev/null > /dev/null 2>&1";
    const int rc = std::system(("setsid " + strict).c_str());
    EXPECT_EQ(WEXITSTATUS(rc), 2);
}

TEST(SshCli, ProxyJumpFromSshConfig) {
    // Reach dropbear through sshd as the jump host. libssh runs `ssh -W` for ProxyJump, as the
    // user who runs coresteer: here the test user, whose own ~/.ssh servers.sh prepared, so
    // nobody else's ~/.ssh is read or written.
    const auto dir = kDir / "jump";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0777);
    std::ofstream(dir / "config") << "Host behind-jump\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_DROPBEAR_PORT") << "\n  User " << env("CS_SSH_USER")
                                  << "\n  ProxyJump " << env("CS_SSH_USER")
                                  << "@127.0.0.1:" << env("CS_SSHD_PORT") << "\n";
    const auto board = (test::boardDir("bpi-r4")).string();
    const std::string cmd = "runuser -u " + env("CS_SSH_USER") + " -- " +
                            std::string(CORESTEER_CLI) + " snapshot behind-jump --ssh-config '" +
                            (dir / "config").string() + "' --known-hosts '" +
                            (dir / "known_hosts").string() + "' --accept-new-host-key --root '" +
                            board + "' --json < /dev/null 2>'" + (dir / "err").string() + "'";
    int status = -1;
    const auto out = test::capture(cmd, &status);
    ASSERT_EQ(status, 0) << slurp(dir / "err");
    auto remote = nlohmann::json::parse(out);
    auto local = toJson(buildSnapshot(collectLocal(board)));
    remote.erase("origin");
    local.erase("origin");
    EXPECT_EQ(remote, local);
    // The final hop's key went to the injected known_hosts, under the dropbear port.
    EXPECT_NE(slurp(dir / "known_hosts").find("[127.0.0.1]:" + env("CS_DROPBEAR_PORT") + " "),
              std::string::npos);
}

// With --known-hosts FILE, every jump host's key is checked against FILE too, never against the
// user's own known_hosts: a changed key on the hop stops the connection (through sshd and
// through dropbear), an unknown one is asked for (refused without a terminal) or, with
// --accept-new-host-key, added to FILE.
TEST(SshCli, JumpHostsAreCheckedAgainstTheSameKnownHosts) {
    const auto dir = kDir / "jump-keys";
    fs::remove_all(dir);
    fs::create_directories(dir);
    ::chmod(dir.c_str(), 0777);
    const auto user = env("CS_SSH_USER");
    // "behind-X": the final host reached through hop X.
    std::ofstream(dir / "config") << "Host behind-sshd\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_DROPBEAR_PORT") << "\n  User " << user
                                  << "\n  ProxyJump " << user
                                  << "@127.0.0.1:" << env("CS_SSHD_PORT")
                                  << "\nHost behind-dropbear\n  HostName 127.0.0.1\n  Port "
                                  << env("CS_SSHD_PORT") << "\n  User " << user << "\n  ProxyJump "
                                  << user << "@127.0.0.1:" << env("CS_DROPBEAR_PORT") << "\n";
    const auto board = (test::boardDir("bpi-r4")).string();
    const auto kh = dir / "known_hosts";
    auto run = [&](const std::string& alias, bool acceptNew) {
        const std::string cmd = "setsid runuser -u " + user + " -- " + std::string(CORESTEER_CLI) +
                                " snapshot " + alias + " --ssh-config '" +
                                (dir / "config").string() + "' --known-hosts '" + kh.string() +
                                "' --identity '" + env("CS_CLIENT_KEY") + "'" +
                                (acceptNew ? " --accept-new-host-key" : "") + " --root '" + board +
                                "' < /dev/null > /dev/null 2>'" + (dir / "err").string() + "'";
        return WEXITSTATUS(std::system(cmd.c_str()));
    };
    const auto otherKey = slurp(env("CS_OTHER_HOST_KEY") + ".pub");
    const auto wrong = otherKey.substr(0, otherKey.find(' ', otherKey.find(' ') + 1));
    for (const auto* hop : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"}) {
        const std::string alias =
            std::string(hop) == "CS_SSHD_PORT" ? "behind-sshd" : "behind-dropbear";
        SCOPED_TRACE(alias);
        // Changed: FILE has another key for the hop (the test user's own file has the right one
        // for sshd).
        const std::string pinned = "[127.0.0.1]:" + env(hop) + " " + wrong + "\n";
        std::ofstream(kh, std::ios::trunc) << pinned;
        ::chmod(kh.c_str(), 0666);
        EXPECT_EQ(run(alias, true), 2);
        EXPECT_NE(
            slurp(dir / "err").find("The host key of the jump host to " + alias + " has CHANGED"),
            std::string::npos)
            << slurp(dir / "err");
        EXPECT_EQ(slurp(kh), pinned); // nothing added: the final host was never reached
        // Unknown, and no terminal to ask on: refused.
        std::ofstream(kh, std::ios::trunc).flush();
        EXPECT_EQ(run(alias, false), 2);
        EXPECT_NE(
            slurp(dir / "err").find("The host key of the jump host to " + alias + " is not known"),
            std::string::npos)
            << slurp(dir / "err");
        EXPECT_EQ(slurp(kh), "");
        // Unknown, --accept-new-host-key: the hop's key and the final host's go to FILE.
        EXPECT_EQ(run(alias, true), 0) << slurp(dir / "err");
        const auto known = slurp(kh);
        EXPECT_NE(known.find("[127.0.0.1]:" + env(hop) + " "), std::string::npos) << known;
        EXPECT_EQ(run(alias, false), 0) << slurp(dir / "err"); // both known now
    }
    // The private config of the hops is gone with the session.
    for (const auto& e : fs::directory_iterator("/tmp"))
        EXPECT_EQ(e.path().filename().string().rfind("coresteer-jump.", 0), std::string::npos)
            << e.path();
}

TEST(SshCli, ApplyWithoutConfirmIsRevertedByTheRouter) {
    const auto dir = kDir / "cli-apply";
    const auto root = writableBoard(dir, "nanopi-r6s-friendlywrt");
    const auto layout = dir / "layout.json";
    { std::ofstream(layout) << toJson(plan(buildSnapshot(collectLocal(root)))).dump(2); }
    const std::string base = std::string(CORESTEER_CLI) + " %s ssh://" + env("CS_SSH_USER") +
                             "@127.0.0.1:" + env("CS_SSHD_PORT") + " --root '" + root.string() +
                             "' --known-hosts '" + (dir / "kh").string() + "' --identity '" +
                             env("CS_CLIENT_KEY") + "' --accept-new-host-key < /dev/null > '" +
                             (dir / "out").string() + "' 2>&1";
    auto run = [&](const std::string& verb) {
        char cmd[4096];
        std::snprintf(cmd, sizeof cmd, base.c_str(), verb.c_str());
        return WEXITSTATUS(std::system(cmd));
    };
    const auto irq = root / "proc/irq/141/smp_affinity";
    EXPECT_EQ(firstLine(irq), "04");
    // The fixture's effective_affinity does not follow the writes, as on x86 until the next
    // interrupt: "applied, moves at the next interrupt", which counts as applied.
    EXPECT_EQ(run("apply '" + layout.string() + "' --no-confirm --revert-after 5 --json"), 0)
        << slurp(dir / "out");
    const auto eth0Irq = root / "proc/irq/63/smp_affinity";
    EXPECT_EQ(firstLine(eth0Irq), "01") << slurp(dir / "out");
    const auto report = slurp(dir / "out");
    EXPECT_NE(report.find("\"revert_pending\": true"), std::string::npos) << report;
    std::this_thread::sleep_for(std::chrono::seconds(8));
    EXPECT_EQ(firstLine(eth0Irq), "02"); // FriendlyWrt's value is back
    EXPECT_EQ(run("confirm"), 1);        // nothing left to confirm
    // apply, then revert by hand.
    EXPECT_EQ(run("apply '" + layout.string() + "' --no-confirm"), 0) << slurp(dir / "out");
    EXPECT_EQ(firstLine(eth0Irq), "01");
    EXPECT_EQ(run("revert"), 0) << slurp(dir / "out");
    EXPECT_EQ(firstLine(eth0Irq), "02");
}

// Every verb that changes the router answers in JSON, with exit codes scripts can rely on.
TEST(SshCli, PersistUnpersistConfirmAnswerInJson) {
    const auto dir = kDir / "cli-persist";
    const auto root = writableBoard(dir, "nanopi-r6s-openwrt");
    const auto layout = dir / "layout.json";
    { std::ofstream(layout) << toJson(plan(buildSnapshot(collectLocal(root)))).dump(2); }
    auto run = [&](const std::string& verb, nlohmann::json* j) {
        const std::string cmd = std::string(CORESTEER_CLI) + " " + verb + " ssh://" +
                                env("CS_SSH_USER") + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                                " --root '" + root.string() + "' --known-hosts '" +
                                (dir / "kh").string() + "' --identity '" + env("CS_CLIENT_KEY") +
                                "' --accept-new-host-key --json < /dev/null > '" +
                                (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
        const int rc = WEXITSTATUS(std::system(cmd.c_str()));
        *j = nlohmann::json::parse(slurp(dir / "out"), nullptr, false);
        return rc;
    };
    nlohmann::json j;
    ASSERT_EQ(run("persist '" + layout.string() + "'", &j), 0) << slurp(dir / "err");
    EXPECT_EQ(j["flavor"], "openwrt");
    EXPECT_EQ(j["written"].size(), 2u);
    EXPECT_TRUE(j["unresolved_conflicts"].empty());
    ASSERT_EQ(run("unpersist", &j), 0) << slurp(dir / "err");
    EXPECT_EQ(j["removed"].size(), 2u);
    EXPECT_TRUE(j["sysupgrade_restored"].get<bool>());
    EXPECT_FALSE(fs::exists(root / "etc/sysupgrade.conf")); // there was none before
    EXPECT_EQ(run("confirm", &j), 1);
    EXPECT_FALSE(j["confirmed"].get<bool>());
    EXPECT_NE(j["error"].get<std::string>().find("nothing is waiting"), std::string::npos);
    ASSERT_EQ(run("apply '" + layout.string() + "' --no-confirm", &j), 0) << slurp(dir / "err");
    EXPECT_TRUE(j["revert_pending"].get<bool>());
    EXPECT_EQ(run("revert", &j), 0) << slurp(dir / "err");
    EXPECT_TRUE(j["reverted"].get<bool>());
}

// --verbose over SSH: the host key, the login, each command and its size, on stderr.
TEST(SshCli, VerboseSaysWhatHappens) {
    const auto dir = kDir / "cli-verbose";
    const auto root = writableBoard(dir, "nanopi-r4s");
    const std::string cmd = std::string(CORESTEER_CLI) + " snapshot ssh://" + env("CS_SSH_USER") +
                            "@127.0.0.1:" + env("CS_SSHD_PORT") + " --root '" + root.string() +
                            "' --known-hosts '" + (dir / "kh").string() + "' --identity '" +
                            env("CS_CLIENT_KEY") + "' --accept-new-host-key --verbose < /dev/null" +
                            " 2> '" + (dir / "err").string() + "' > /dev/null";
    ASSERT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0);
    const auto err = slurp(dir / "err");
    for (const char* want : {"[coresteer.ssh] ", ": host key ssh-ed25519 SHA256:", " (new)",
                             ": the server offers ", ": logged in to 127.0.0.1:", " with publickey",
                             ": ran `sh -s` (", " bytes out in ", "[coresteer.collect] "})
        EXPECT_NE(err.find(want), std::string::npos) << want << "\n" << err;
}

// The playbook of `export ansible`, run by Ansible itself over the test sshd and dropbear against
// two fixture routers (two roots), then a multi-router apply from the same inventory.
TEST(SshFleet, AnsiblePlaybookTunesTwoRoutersOnceAndApplyTakesTheInventory) {
    const auto dir = kDir / "ansible";
    fs::remove_all(dir);
    const auto rootA = writableBoard(dir / "a", "nanopi-r6s-openwrt");
    const auto rootB = writableBoard(dir / "b", "nanopi-r6s-friendlywrt");
    for (const auto& r : {rootA, rootB})
        std::ofstream(r / "etc/sysupgrade.conf") << "/etc/mine.conf\n";
    const auto kh = dir / "known_hosts";
    const std::string cli = CORESTEER_CLI;
    const std::string user = env("CS_SSH_USER");
    const std::string key = env("CS_CLIENT_KEY");
    auto sh = [&](const std::string& cmd, std::string* out = nullptr) {
        const int st = std::system((cmd + " > '" + (dir / "out").string() + "' 2>&1").c_str());
        if (out)
            *out = slurp(dir / "out");
        return WEXITSTATUS(st);
    };
    // The host keys, taken once by coresteer itself: Ansible then checks them strictly.
    for (const auto* port : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"})
        ASSERT_EQ(sh(cli + " snapshot ssh://" + user + "@127.0.0.1:" + env(port) + " --root '" +
                     rootA.string() + "' --known-hosts '" + kh.string() + "' --identity '" + key +
                     "' --accept-new-host-key < /dev/null"),
                  0)
            << slurp(dir / "out");
    const auto inventory = dir / "hosts.ini";
    std::ofstream(inventory) << "# two routers behind one test server each\n[r6s]\n"
                             << "openwrt ansible_host=127.0.0.1 ansible_port="
                             << env("CS_SSHD_PORT") << " coresteer_root='" << rootA.string()
                             << "'\nfriendlywrt ansible_host=127.0.0.1 ansible_port="
                             << env("CS_DROPBEAR_PORT") << " coresteer_root='" << rootB.string()
                             << "'\n\n[r6s:vars]\nansible_user=" << user
                             << "\nansible_ssh_private_key_file=" << key
                             << "\nansible_ssh_common_args='-o UserKnownHostsFile=" << kh.string()
                             << " -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes'\n";
    const auto preset =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option1.json";
    const auto playbook = dir / "r6s.yml";
    ASSERT_EQ(sh(cli + " export ansible --preset '" + preset.string() +
                 "' --inventory-group r6s --output '" + playbook.string() + "'"),
              0)
        << slurp(dir / "out");
    fs::create_directories(dir / "home");
    const std::string ansible =
        "env HOME='" + (dir / "home").string() + "' ANSIBLE_LOCAL_TEMP='" +
        (dir / "home/tmp").string() + "' ANSIBLE_SSH_CONTROL_PATH_DIR='" +
        (dir / "home/cp").string() +
        "' ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=1 "
        "ansible-playbook -i '" +
        inventory.string() + "' '" + playbook.string() + "'";
    auto recap = [](const std::string& out, const std::string& host) {
        const auto at = out.find("\n" + host + " ", out.find("PLAY RECAP"));
        return at == std::string::npos ? std::string()
                                       : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
    };
    std::string out;
    ASSERT_EQ(sh(ansible, &out), 0) << out;
    // Applied (with the revert armed), confirmed, persisted: three changes on each.
    for (const auto* host : {"openwrt", "friendlywrt"}) {
        EXPECT_NE(recap(out, host).find("changed=3 "), std::string::npos) << out;
        EXPECT_NE(recap(out, host).find("failed=0 "), std::string::npos) << out;
    }
    Preset p = *parsePreset(slurp(preset), nullptr);
    for (const auto& root : {rootA, rootB}) {
        SCOPED_TRACE(root.string());
        const auto snap = buildSnapshot(collectLocal(root));
        const auto r = resolve(p.layout, snap);
        EXPECT_FALSE(r.writes.empty());
        EXPECT_TRUE(changedWrites(r).empty());                    // the layout is in force
        EXPECT_FALSE(fs::exists(root / "tmp/coresteer/pending")); // and confirmed
        EXPECT_NE(slurp(root / "etc/hotplug.d/net/95-coresteer").find(kPersistMarker),
                  std::string::npos);
        EXPECT_EQ(slurp(root / "etc/sysupgrade.conf"),
                  "/etc/mine.conf\n/etc/hotplug.d/net/95-coresteer\n/etc/coresteer/\n");
        EXPECT_TRUE(parseLayout(slurp(root / "etc/coresteer/layout.json"), nullptr));
    }
    // A second run changes nothing, and says so.
    std::map<std::string, std::string> before;
    for (const auto& root : {rootA, rootB})
        for (const auto& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file())
                before[e.path().string()] = slurp(e.path());
    ASSERT_EQ(sh(ansible, &out), 0) << out;
    for (const auto* host : {"openwrt", "friendlywrt"})
        EXPECT_NE(recap(out, host).find("changed=0 "), std::string::npos) << out;
    for (const auto& [path, content] : before)
        EXPECT_EQ(slurp(path), content) << path;

    // The same inventory for coresteer-cli apply: one line per router.
    const auto other =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option2a.json";
    const std::string apply = cli + " apply --inventory '" + inventory.string() +
                              "' --inventory-group r6s '" + other.string() + "' --known-hosts '" +
                              kh.string() + "' --parallel 2 < /dev/null";
    const int rc = sh(apply, &out);
    EXPECT_LE(rc, 1) << out; // 1: targets of the preset that these fixtures do not have
    // One line per router, as each finishes.
    EXPECT_NE(out.find("friendlywrt  applied "), std::string::npos) << out;
    EXPECT_NE(out.find("openwrt      applied "), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
    EXPECT_NE(out.find(", confirmed\n"), std::string::npos) << out;
    const Preset p2 = *parsePreset(slurp(other), nullptr);
    for (const auto& root : {rootA, rootB})
        EXPECT_TRUE(changedWrites(resolve(p2.layout, buildSnapshot(collectLocal(root)))).empty());
    sh(apply, &out);
    EXPECT_NE(out.find("openwrt      nothing to change"), std::string::npos) << out;
    // A router that cannot be reached is one line too; the others go on.
    std::ofstream(inventory, std::ios::app)
        << "[r6s]\ngone ansible_host=127.0.0.1 ansible_port=1\n";
    EXPECT_EQ(sh(apply, &out), 2) << out;
    EXPECT_NE(out.find("gone         failed: "), std::string::npos) << out;
    EXPECT_NE(out.find("openwrt      nothing to change"), std::string::npos) << out;
    // Several ssh:// targets on the command line, one at a time: here both servers reach the
    // same root, so the first applies and the second finds nothing to change.
    const auto third =
        fs::path(CORESTEER_SOURCE_DIR) / "resources/presets/nanopi-r6s-option2b.json";
    const std::string two = cli + " apply ssh://" + user + "@127.0.0.1:" + env("CS_SSHD_PORT") +
                            " ssh://" + user + "@127.0.0.1:" + env("CS_DROPBEAR_PORT") +
                            " --root '" + rootA.string() + "' '" + third.string() +
                            "' --known-hosts '" + kh.string() + "' --identity '" + key +
                            "' --parallel 1 < /dev/null";
    EXPECT_LE(sh(two, &out), 1) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
    EXPECT_NE(out.find("@127.0.0.1:" + env("CS_SSHD_PORT") + "  applied "), std::string::npos)
        << out;
    EXPECT_NE(out.find("@127.0.0.1:" + env("CS_DROPBEAR_PORT") + "  nothing to change"),
              std::string::npos)
        << out;
}

// A bufferbloat test over SSH probes three ways at once, on one time axis: the router's SSH
// port from the LAN side ("lan"), the host beyond it from this machine (ICMP), and the same
// host from the router itself, by the router's own ping on a channel of the session that
// samples it ("router"). Against sshd and dropbear; the "router" is this machine (its own /proc,
// read), and 127.0.0.1 stands for the host past the WAN.
TEST(SshCli, BufferbloatProbesTheRouterAndBeyondFromBothEnds) {
    for (const char* port : {"CS_SSHD_PORT", "CS_DROPBEAR_PORT"}) {
        const auto kh = kDir / "bufferbloat_known_hosts";
        fs::remove(kh);
        const auto file = (kDir / "bufferbloat.csrec").string();
        fs::remove(file);
        const std::string target = "ssh://" + env("CS_SSH_USER") + "@127.0.0.1:" + env(port);
        const std::string cmd = std::string(CORESTEER_CLI) + " monitor " + target +
                                " --root / --known-hosts '" + kh.string() + "' --identity '" +
                                env("CS_CLIENT_KEY") +
                                "' --accept-new-host-key --bufferbloat --probe 127.0.0.1 "
                                "--duration 5 --json --record '" +
                                file + "' < /dev/null";
        int status = -1;
        const auto err = test::capture(cmd + " 2>&1 > /dev/null", &status);
        ASSERT_EQ(status, 0) << port << ": " << err;
        const auto summary = test::capture(
            std::string(CORESTEER_CLI) + " recording summary --json '" + file + "'", &status);
        ASSERT_EQ(status, 0) << summary;
        const auto j = nlohmann::json::parse(summary);
        const auto& probes = j["by_probe"];
        for (const char* name : {"lan", "127.0.0.1", "router"}) {
            ASSERT_TRUE(probes.contains(name)) << port << ": " << probes.dump();
            EXPECT_LT(probes[name]["idle_ms"].get<double>(), 20.0) << port << " " << name;
            EXPECT_EQ(probes[name]["lost"], 0) << port << " " << name;
        }
        // Five echoes a second from the router over the 2 s under "load", and more from here.
        EXPECT_GE(probes["router"]["probes"].get<int>(), 15) << port;
        EXPECT_GE(probes["127.0.0.1"]["probes"].get<int>(), 30) << port;
        EXPECT_EQ(j["latency"]["probe"], "127.0.0.1") << port;
    }
}
