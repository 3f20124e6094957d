// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Captures: a router's collected files in one file, read back by the collector's own parser, and
// laid out as a tree that the local collector reads to the same snapshot.
#include "core/base/text.h"
#include "core/collect/capture.h"
#include "core/collect/collect_local.h"
#include "core/live/recording.h"
#include "core/model/snapshot_json.h"
#include "tests/support/board_expect.h"
#include "tests/support/test_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace coresteer;
using namespace coresteer::live;
namespace fs = std::filesystem;

namespace {

std::string snapshotJson(const FileBundle& b) {
    auto snap = buildSnapshot(b);
    snap.origin.clear();
    return toJson(snap).dump();
}

} // namespace

class CaptureBoard : public ::testing::TestWithParam<std::string> {};

TEST_P(CaptureBoard, RoundTripsAndMaterializesToTheSameSnapshot) {
    const auto root = coresteer::test::boardDir(GetParam());
    const auto bundle = collectLocal(root);
    std::string error;
    const auto back = readCapture(writeCapture(bundle), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->entries(), bundle.entries());

    const auto dir = fs::path(CORESTEER_TEST_TMP) / "capture" / GetParam();
    fs::remove_all(dir);
    ASSERT_TRUE(materialize(*back, dir, &error)) << error;
    // Entry by entry first, for a readable failure; then the snapshot as a whole.
    const auto again = collectLocal(dir);
    for (const auto& [path, e] : bundle.entries()) {
        const auto* o = again.get(path);
        EXPECT_TRUE(o && *o == e) << path << ": " << (o ? o->data.substr(0, 200) : "absent")
                                  << " instead of " << e.data.substr(0, 200);
    }
    for (const auto& [path, e] : again.entries())
        EXPECT_TRUE(bundle.get(path)) << path << " appeared";
    EXPECT_TRUE(snapshotJson(again) == snapshotJson(bundle));
}

INSTANTIATE_TEST_SUITE_P(Boards, CaptureBoard, ::testing::ValuesIn(coresteer::test::boardNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             return coresteer::test::paramTestName(p.param);
                         });

TEST(Capture, RefusesWhatIsNotACapture) {
    std::string error;
    EXPECT_FALSE(readCapture("hello\n", &error));
    EXPECT_NE(error.find("line 1"), std::string::npos) << error;
    EXPECT_FALSE(readCapture("coresteer-capture 1 x\n", &error));
    EXPECT_NE(error.find("token"), std::string::npos) << error;
}

TEST(Capture, RefusesACutShortCaptureAndPathsOutsideTheSpec) {
    FileBundle b;
    b.add("proc/interrupts", {BundleEntry::Kind::File, "           CPU0\n"});
    const auto text = writeCapture(b);
    std::string error;
    EXPECT_FALSE(readCapture(text.substr(0, text.size() - 10), &error));
    EXPECT_NE(error.find("cut short"), std::string::npos) << error;

    const auto token = text.substr(20, text.find('\n') - 20);
    const std::string hostile = "coresteer-capture 1 " + token + "\n" + token +
                                " F ../../etc/passwd\nroot\n" + token + " E 0\n" + token +
                                " DONE\n";
    EXPECT_FALSE(readCapture(hostile, &error));
    EXPECT_NE(error.find("unexpected path"), std::string::npos) << error;
}

TEST(Capture, MaterializeRefusesPathsThatLeaveTheDirectory) {
    FileBundle b;
    b.add("../escape", {BundleEntry::Kind::File, "x"});
    std::string error;
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "capture" / "escape";
    EXPECT_FALSE(materialize(b, dir / "root", &error));
    EXPECT_FALSE(fs::exists(dir / "escape"));
}

// A copy of the R6S OpenWrt fixture under the build tree, with an /etc/config to write into.
fs::path openwrtCopy(const std::string& name) {
    const auto root = fs::path(CORESTEER_TEST_TMP) / name / "root";
    fs::remove_all(root.parent_path());
    fs::create_directories(root.parent_path());
    fs::copy(test::boardDir("nanopi-r6s-openwrt"), root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(root / "etc/config");
    return root;
}

// /etc/config/network holds passwords and private keys: a capture (and so a bug report, a
// recording, the demo) keeps only its globals section, which is all the snapshot reads.
TEST(Capture, KeepsNoSecretOfTheNetworkConfig) {
    const auto root = openwrtCopy("capture-secrets");
    std::ofstream(root / "etc/config/network") << R"(config interface 'wan'
	option proto 'pppoe'
	option password 'hunter2-pppoe'

config globals 'globals'
	option ula_prefix 'fd00:1::/48'
	option packet_steering '1'

config interface 'wg0'
	option private_key 'WG-PRIVATE-KEY='
)";
    const auto bundle = collectLocal(root);
    const auto* kept = bundle.file("etc/config/network");
    ASSERT_NE(kept, nullptr);
    // What is dropped stays as empty lines: what is kept keeps its line numbers.
    EXPECT_EQ(*kept, "\n\n\n\nconfig globals 'globals'\n\toption ula_prefix 'fd00:1::/48'\n"
                     "\toption packet_steering '1'\n\n\n\n");
    const auto text = writeCapture(bundle);
    EXPECT_EQ(text.find("hunter2"), std::string::npos);
    EXPECT_EQ(text.find("WG-PRIVATE"), std::string::npos);
    EXPECT_EQ(buildSnapshot(bundle).system.services.packetSteering, "1");
}

// The firewall's configuration and nftables' hold addresses and port forwards: a capture keeps
// only the firewall's defaults section, the flowtables, and of each rule that adds flows to one
// only that it does, each on its own line number.
TEST(Capture, KeepsNothingOfTheFirewallButItsOffloading) {
    const auto root = openwrtCopy("capture-firewall");
    std::ofstream(root / "etc/config/firewall") << R"(config redirect
	option name 'nas-SECRET-FORWARD'
	option dest_ip '10.9.8.7'

config defaults
	option flow_offloading '1'
)";
    std::ofstream(root / "etc/nftables.conf") << R"(table inet filter {
  set admins { type ipv4_addr; elements = { 10.1.2.3 } }
  flowtable ft {
    hook ingress priority 0; devices = { eth0, eth1 };
  }
  chain forward {
    ip saddr 10.1.2.3 tcp dport 8443 flow add @ft comment "SECRET-RULE"
  }
}
)";
    const auto bundle = collectLocal(root);
    const auto text = writeCapture(bundle);
    EXPECT_EQ(text.find("SECRET"), std::string::npos);
    EXPECT_EQ(text.find("10.9.8.7"), std::string::npos);
    EXPECT_EQ(text.find("10.1.2.3"), std::string::npos);
    ASSERT_NE(bundle.file("etc/nftables.conf"), nullptr);
    EXPECT_EQ(*bundle.file("etc/nftables.conf"),
              "\n\n  flowtable ft {\n    hook ingress priority 0; devices = { eth0, eth1 };\n  }\n"
              "\nflow add @\n\n\n");
    // The snapshot reads the same from the capture as from the router.
    const auto o = buildSnapshot(bundle).system.services.offloading;
    EXPECT_TRUE(o.software);
    EXPECT_EQ(o.where, "/etc/config/firewall:6");
}

// ---- hostile captures -----------------------------------------------------------------------

namespace {

using namespace std::string_literals;

struct Entry {
    char kind;           // F, L, D, M, or anything else
    std::string path;    // as the header line has it
    std::string content; // a file's bytes, a link's target, a directory's names
};

// A capture made by hand, as a hostile router or file would: the entries as written, and the
// line each entry's header is on.
struct Hostile {
    std::string text;
    std::vector<int> lines;
};

Hostile hostileCapture(const std::vector<Entry>& entries) {
    const std::string token = "@@cs0123456789abcdef";
    Hostile h{"coresteer-capture 1 " + token + "\n", {}};
    int line = 2;
    for (const auto& e : entries) {
        h.lines.push_back(line);
        h.text += token + " " + e.kind + " " + e.path + "\n" + e.content + "\n" + token + " E" +
                  (e.kind == 'F' ? " 0" : "") + "\n";
        line += 2 + static_cast<int>(std::count(e.content.begin(), e.content.end(), '\n')) + 1;
    }
    h.text += token + " DONE\n";
    return h;
}

// A directory beside the one a capture is laid out in, which nothing may reach.
struct Sandbox {
    fs::path base, root, outside;
    explicit Sandbox(const std::string& name)
        : base(fs::path(CORESTEER_TEST_TMP) / "capture-hostile" / name), root(base / "root"),
          outside(base / "outside") {
        fs::remove_all(base);
        fs::create_directories(outside);
        std::ofstream(outside / "target") << "untouched\n";
    }
    // Everything under `outside`, as path -> content ("" for directories and links).
    std::map<std::string, std::string> outsideTree() const {
        std::map<std::string, std::string> m;
        for (const auto& e : fs::recursive_directory_iterator(outside))
            m[e.path().lexically_relative(outside).string()] =
                e.is_regular_file() ? test::slurp(e.path()) : "";
        return m;
    }
    bool untouched() const {
        return outsideTree() == std::map<std::string, std::string>{{"target", "untouched\n"}};
    }
};

} // namespace

// Entries that no collector makes are refused when the capture is read, with the line of the
// entry and its path.
TEST(Capture, RefusesEntriesNoCollectorMakesByLine) {
    const std::string longName(300, 'x');
    const struct {
        std::vector<Entry> entries;
        std::size_t bad;    // the refused entry
        std::string reason; // a part of the message
    } cases[] = {
        {{{'F', "../x", "x"}}, 0, "unexpected path"},
        {{{'F', "/etc/x", "x"}}, 0, "unexpected path"},
        {{{'F', "proc/../../x", "x"}}, 0, "unexpected path"},
        // A device node, a FIFO: a capture holds files, links and directories only.
        {{{'C', "proc/interrupts", "1 3"}}, 0, "unknown entry kind 'C'"},
        {{{'P', "proc/stat", ""}}, 0, "unknown entry kind 'P'"},
        // Kinds the collection spec does not give that path.
        {{{'L', "proc/interrupts", "/etc/shadow"}},
         0,
         "a link where the collection spec has a file"},
        {{{'F', "sys/class/net/eth0/device/msi_irqs", ""}},
         0,
         "a file where the collection spec has a directory"},
        {{{'D', "sys/class/net/eth0/device", "driver"}},
         0,
         "a directory where the collection spec has a link"},
        {{{'L', "etc/init.d", "/etc"}}, 0, "a link where the collection spec has a directory"},
        // A file over a declared link: the same path twice.
        {{{'L', "sys/class/net/eth0/device", "../../../devices/x"},
          {'F', "sys/class/net/eth0/device", ""}},
         1,
         "declared a second time (first on line 2)"},
        {{{'F', "sys/class/net/eth\0x/ifindex"s, "2"}}, 0, "a name with a NUL byte"},
        {{{'F', "sys/class/net/" + longName + "/ifindex", "2"}}, 0, "a name longer than 255 bytes"},
        {{{'D', "sys/class/net", "eth0\n" + longName}}, 0, "lists a name longer than 255 bytes"},
        {{{'D', "sys/class/net", "eth0\n..\n"}}, 0, "lists the name '..'"},
        {{{'L', "sys/class/net/eth0/device", "../x\0y"s}}, 0, "a link target with a NUL byte"},
    };
    for (const auto& c : cases) {
        const auto h = hostileCapture(c.entries);
        std::string error;
        EXPECT_FALSE(readCapture(h.text, &error)) << text::printable(h.text, 300);
        const auto& bad = c.entries[c.bad];
        EXPECT_EQ(error.rfind("line " + std::to_string(h.lines[c.bad]) + ": ", 0), 0u) << error;
        EXPECT_NE(error.find(text::printable(bad.path, 60).substr(0, 40)), std::string::npos)
            << error;
        EXPECT_NE(error.find(c.reason), std::string::npos) << error;
    }
}

// What could not be read is written as a file that failed, whatever kind the spec reads there:
// it reads back the same.
TEST(Capture, WhatCouldNotBeReadRoundTripsAtAnyKind) {
    FileBundle b;
    b.add("sys/class/net/eth0/device", {BundleEntry::Kind::Unreadable, "Permission denied"});
    b.add("proc/stat", {BundleEntry::Kind::Unreadable, "Input/output error"});
    b.add("proc/interrupts", {BundleEntry::Kind::Missing, {}});
    std::string error;
    const auto back = readCapture(writeCapture(b), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->entries(), b.entries());
}

// What the spec allows can still point outside: a link whose target leaves the directory, with
// entries under it. The capture reads, and laying it out is refused with the entry's line;
// nothing outside the directory is written.
TEST(Capture, LayingOutRefusesEntriesUnderALinkThatLeavesTheDirectory) {
    Sandbox box("link-out");
    for (const auto& target :
         {box.outside.string(), std::string("../../../../../../outside"),
          std::string("../../../../../../../../../../../../../../../../../../../../") +
              box.outside.relative_path().string()}) {
        const auto h = hostileCapture({{'L', "sys/class/net/eth0/device", target},
                                       {'L', "sys/class/net/eth0/device/driver", "../../x"},
                                       {'D', "sys/class/net/eth0/device/msi_irqs", "42\n43"}});
        std::string error;
        const auto bundle = readCapture(h.text, &error);
        ASSERT_TRUE(bundle) << error;
        fs::remove_all(box.root);
        EXPECT_FALSE(materialize(*bundle, box.root, &error)) << target;
        EXPECT_EQ(error.rfind("sys/class/net/eth0/device/driver: ", 0), 0u) << error;
        EXPECT_NE(error.find("under the link sys/class/net/eth0/device"), std::string::npos)
            << error;
        EXPECT_TRUE(box.untouched()) << target;
        // As the app lays a capture out: the same refusal, with the entry's line.
        fs::remove_all(box.root);
        EXPECT_FALSE(layOutCapture(h.text, box.root, &error)) << target;
        EXPECT_EQ(error.rfind("line " + std::to_string(h.lines[1]) +
                                  ": sys/class/net/eth0/device/driver: ",
                              0),
                  0u)
            << error;
        EXPECT_TRUE(box.untouched()) << target;
    }
}

// The bundle as anyone may build it: paths that leave the directory, a file where a directory
// is needed, a file written over a link, links that point out, names the file system cannot
// hold. Each is refused by materialize() with the entry's path, and nothing outside changes.
TEST(Capture, MaterializeRefusesWhatWouldLeaveTheDirectoryOrChangeKind) {
    using K = BundleEntry::Kind;
    Sandbox box("materialize");
    const auto out = box.outside.string();
    const struct {
        std::vector<std::pair<std::string, BundleEntry>> entries;
        std::string refused, reason;
    } cases[] = {
        {{{"../x", {K::File, "x"}}}, "../x", "'..'"},
        {{{out + "/x", {K::File, "x"}}}, out + "/x", "an absolute path"},
        {{{"a/../../x", {K::File, "x"}}}, "a/../../x", "'..'"},
        {{{"a//x", {K::File, "x"}}}, "a//x", "an empty name"},
        {{{"a/\0x"s, {K::File, "x"}}}, "a/\\x00x", "a NUL byte"},
        {{{"a/" + std::string(256, 'n'), {K::File, "x"}}}, "a/nnn", "longer than 255 bytes"},
        // Symlink entry, then a file under it.
        {{{"a/l", {K::Link, out}}, {"a/l/x", {K::File, "x"}}}, "a/l/x", "under the link a/l"},
        {{{"a/l", {K::Link, "../.."}}, {"a/l/outside/target", {K::File, "x"}}},
         "a/l/outside/target",
         "under the link a/l"},
        // A link to a link that leaves.
        {{{"a/j", {K::Link, "../../outside"}}, {"a/k", {K::Link, "j"}}, {"a/k/x", {K::File, ""}}},
         "a/k/x",
         "under the link a/j"},
        // A declared directory that is a file.
        {{{"a", {K::File, "x"}}, {"a/d", {K::Dir, ""}}}, "a/d", "a is a file"},
        // A file over a declared link: a/c is a/, so a/c/b is the link a/b.
        {{{"a/b", {K::Link, out + "/target"}}, {"a/c", {K::Link, "."}}, {"a/c/b", {K::File, "x"}}},
         "a/c/b",
         "a/b is there already as a link"},
        // A loop of links.
        {{{"l1", {K::Link, "l2"}},
          {"l2", {K::Link, "l1"}},
          {"m", {K::Link, "l1"}},
          {"m/x", {K::File, ""}}},
         "m/x",
         "links"},
    };
    for (const auto& c : cases) {
        FileBundle b;
        for (const auto& [path, e] : c.entries)
            b.add(path, e);
        fs::remove_all(box.root);
        std::string error;
        EXPECT_FALSE(materialize(b, box.root, &error)) << c.refused;
        EXPECT_EQ(error.rfind(text::printable(c.refused), 0), 0u) << error; // (cut at 80)
        EXPECT_NE(error.find(c.reason), std::string::npos) << error;
        EXPECT_TRUE(box.untouched()) << c.refused;
    }
}

// A device node or a FIFO where an entry goes (a directory that was not empty) is never opened:
// the entry is refused, nothing waits on the FIFO.
TEST(Capture, MaterializeNeverOpensWhatIsThereAlready) {
    Sandbox box("fifo");
    fs::create_directories(box.root / "proc");
    fs::permissions(box.root, fs::perms::owner_all); // private, as a QTemporaryDir is
    ASSERT_EQ(::mkfifo((box.root / "proc/interrupts").c_str(), 0600), 0);
    ::symlink((box.outside / "target").c_str(), (box.root / "proc/stat").c_str());
    FileBundle b;
    b.add("proc/interrupts", {BundleEntry::Kind::File, "           CPU0\n"});
    std::string error;
    EXPECT_FALSE(materialize(b, box.root, &error));
    EXPECT_EQ(error.rfind("proc/interrupts: ", 0), 0u) << error;
    EXPECT_NE(error.find("there already as a FIFO"), std::string::npos) << error;
    FileBundle s;
    s.add("proc/stat", {BundleEntry::Kind::File, "cpu  1 2 3\n"});
    EXPECT_FALSE(materialize(s, box.root, &error));
    EXPECT_NE(error.find("there already as a link"), std::string::npos) << error;
    EXPECT_TRUE(box.untouched());
}

// Links inside the directory are made as links, and what lies under them is made where they
// point, inside; the directory is private to this user.
TEST(Capture, MaterializeMakesLinksAndAPrivateDirectory) {
    using K = BundleEntry::Kind;
    Sandbox box("inside");
    FileBundle b;
    b.add("sys/class/net/eth0/device", {K::Link, "../../../devices/x"});
    b.add("sys/class/net/eth0/device/driver", {K::Link, "../../bus/drivers/d"});
    b.add("sys/class/net/eth0/device/msi_irqs", {K::Dir, "42\n43\n"});
    b.add("sys/class/net/eth1/device", {K::Link, "../../../devices/x"});
    b.add("sys/class/net/eth1/device/driver", {K::Link, "../../bus/drivers/d"});
    b.add("sys/class/net/eth2/device", {K::Link, "/sys/devices/absolute"}); // made, dangling
    std::string error;
    ASSERT_TRUE(materialize(b, box.root, &error)) << error;
    EXPECT_EQ(fs::read_symlink(box.root / "sys/class/net/eth0/device"), "../../../devices/x");
    EXPECT_EQ(fs::read_symlink(box.root / "sys/devices/x/driver"), "../../bus/drivers/d");
    EXPECT_TRUE(fs::is_directory(box.root / "sys/devices/x/msi_irqs/43"));
    EXPECT_EQ(fs::read_symlink(box.root / "sys/class/net/eth2/device"), "/sys/devices/absolute");
    struct stat st {};
    ASSERT_EQ(::stat(box.root.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700u);
    EXPECT_TRUE(box.untouched());
    // A link where the directory itself should be is refused, and so is a directory that other
    // users may enter.
    const auto link = box.base / "root-link";
    fs::create_directory_symlink(box.outside, link);
    EXPECT_FALSE(materialize(b, link, &error));
    EXPECT_NE(error.find("the directory is a link"), std::string::npos) << error;
    ::chmod(box.outside.c_str(), 0755);
    EXPECT_FALSE(materialize(b, box.outside, &error));
    EXPECT_NE(error.find("not private to this user (mode 0755)"), std::string::npos) << error;
    EXPECT_TRUE(box.untouched());
}

// A recording's capture is checked when the recording is read, with the recording's line.
TEST(Capture, ARecordingWithAHostileCaptureIsRefusedByLine) {
    const auto h = hostileCapture({{'L', "proc/interrupts", "/etc/shadow"}});
    RecordingWriter w({"r", utcTimestamp(), 10, h.text, "", {}});
    std::string error;
    EXPECT_FALSE(readRecording(w.text(), &error));
    // Lines 1-5 are the header up to "capture <n>"; the capture's line 2 is the file's line 7.
    EXPECT_EQ(error.rfind("recording line 7: proc/interrupts: a link where", 0), 0u) << error;
}
