// Captures: a router's collected files in one file, read back by the collector's own parser, and
// laid out as a tree that the local collector reads to the same snapshot.
#include "board_expect.h"
#include "core/capture.h"
#include "core/collect_local.h"
#include "core/snapshot_json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace coresteer;
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
    const auto root = fs::path(CORESTEER_FIXTURES) / "boards" / GetParam();
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
                             std::string n = p.param;
                             for (auto& c : n)
                                 if (c == '-')
                                     c = '_';
                             return n;
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

// /etc/config/network holds passwords and private keys: a capture (and so a bug report, a
// recording, the demo) keeps only its globals section, which is all the snapshot reads.
TEST(Capture, KeepsNoSecretOfTheNetworkConfig) {
    const auto root = fs::path(CORESTEER_TEST_TMP) / "capture-secrets" / "root";
    fs::remove_all(root.parent_path());
    fs::create_directories(root.parent_path());
    fs::copy(test::boardsDir() / "nanopi-r6s-openwrt", root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(root / "etc/config");
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
    EXPECT_EQ(*kept, "config globals 'globals'\n\toption ula_prefix 'fd00:1::/48'\n"
                     "\toption packet_steering '1'\n\n");
    const auto text = writeCapture(bundle);
    EXPECT_EQ(text.find("hunter2"), std::string::npos);
    EXPECT_EQ(text.find("WG-PRIVATE"), std::string::npos);
    EXPECT_EQ(buildSnapshot(bundle).system.services.packetSteering, "1");
}
