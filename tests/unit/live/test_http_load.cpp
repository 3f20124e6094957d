// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// HTTP(S) load (core/live/http_load.h) against a real web server on 127.0.0.1
// (tests/support/web_server.h): parallel downloads and POST uploads with their throughput,
// redirects, certificates, and the errors a person reads when a URL does not serve.
#include "core/live/http_load.h"
#include "tests/support/loopback_port.h"
#include "tests/support/web_server.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <thread>

using namespace coresteer;
using namespace coresteer::live;
using coresteer::test::WebServer;
namespace fs = std::filesystem;

namespace {

LoadSpec httpSpec(const std::string& url, const std::string& postUrl, LoadSpec::Direction d,
                  int streams = 4) {
    LoadSpec s;
    s.urls = {url};
    s.postUrl = postUrl;
    s.direction = d;
    s.streams = streams;
    return s;
}

struct Reports {
    std::mutex mutex;
    std::vector<HttpLoad::Report> all;
    HttpLoad::ReportFn fn() {
        return [this](const HttpLoad::Report& r) {
            std::lock_guard lock(mutex);
            all.push_back(r);
        };
    }
};

// Runs `load` for `seconds`, or until it fails.
void runFor(HttpLoad& load, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end && !load.failed())
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// The error of a load that should fail, within 20 s.
std::string failureOf(LoadSpec spec) {
    HttpLoad load(std::move(spec), {});
    if (!load.start())
        return load.error();
    runFor(load, 20);
    load.stop();
    return load.failed() ? load.error() : std::string("(did not fail)");
}

} // namespace

TEST(HttpLoad, DownloadsInParallelWithTheirThroughputEveryHalfSecond) {
    WebServer web;
    ASSERT_TRUE(web.running());
    Reports reports;
    // 2 MB a file: each stream ends and starts again many times a second.
    HttpLoad load(httpSpec(web.url("/bytes/2000000"), {}, LoadSpec::Direction::Download),
                  reports.fn());
    ASSERT_TRUE(load.start()) << load.error();
    runFor(load, 1.8);
    load.stop();
    EXPECT_FALSE(load.failed()) << load.error();
    EXPECT_GT(load.bytesDown(), 4u * 2000000u);
    EXPECT_EQ(load.bytesUp(), 0u);
    EXPECT_GE(load.restarts(), 4);
    std::lock_guard lock(reports.mutex);
    ASSERT_GE(reports.all.size(), 3u);
    double bits = 0;
    for (std::size_t i = 0; i < reports.all.size(); ++i) {
        const auto& r = reports.all[i];
        EXPECT_GT(r.downBitsPerSec, 0) << i;
        EXPECT_EQ(r.upBitsPerSec, 0) << i;
        if (i > 0) {
            EXPECT_GT(r.seconds, reports.all[i - 1].seconds);
            bits += r.downBitsPerSec * (r.seconds - reports.all[i - 1].seconds);
        } else {
            bits += r.downBitsPerSec * r.seconds;
        }
    }
    EXPECT_NEAR(reports.all.front().seconds, 0.5, 0.2);
    // The reports add up to what came, but for the part after the last one.
    EXPECT_LE(bits, static_cast<double>(load.bytesDown()) * 8 * 1.01);
    EXPECT_GT(bits, static_cast<double>(load.bytesDown()) * 8 * 0.5);
}

// Several URLs: the streams take them in turn, so the second one's failure is the second
// stream's, and is named.
TEST(HttpLoad, StreamsTakeTheUrlsInTurn) {
    WebServer web;
    ASSERT_TRUE(web.running());
    auto spec = httpSpec(web.url("/bytes/1000000"), {}, LoadSpec::Direction::Download, 4);
    spec.urls.push_back(web.url("/redirect/1000000"));
    HttpLoad load(spec, {});
    ASSERT_TRUE(load.start());
    runFor(load, 1.0);
    load.stop();
    EXPECT_FALSE(load.failed()) << load.error();
    EXPECT_GT(load.bytesDown(), 4u * 1000000u);

    spec.urls = {web.url("/bytes/1000000"), web.url("/gone")};
    const auto gone = failureOf(spec);
    EXPECT_NE(gone.find(web.url("/gone") + ": "), std::string::npos) << gone;
    EXPECT_NE(gone.find("404"), std::string::npos) << gone;

    spec.urls.clear();
    HttpLoad none(spec, {});
    EXPECT_FALSE(none.start());
    EXPECT_EQ(none.error(), "no URL to download from");
}

TEST(HttpLoad, UploadsByPostAndBothWaysAtOnce) {
    WebServer web;
    ASSERT_TRUE(web.running());
    Reports reports;
    HttpLoad load(
        httpSpec(web.url("/bytes/5000000"), web.url("/sink"), LoadSpec::Direction::Both, 2),
        reports.fn());
    ASSERT_TRUE(load.start()) << load.error();
    runFor(load, 1.6);
    load.stop();
    EXPECT_FALSE(load.failed()) << load.error();
    EXPECT_GT(load.bytesUp(), 1000000u);
    EXPECT_GT(load.bytesDown(), 1000000u);
    std::lock_guard lock(reports.mutex);
    ASSERT_GE(reports.all.size(), 2u);
    EXPECT_GT(reports.all.back().upBitsPerSec, 0);
    EXPECT_GT(reports.all.back().downBitsPerSec, 0);

    HttpLoad up(httpSpec(web.url("/bytes/1"), web.url("/sink"), LoadSpec::Direction::Upload, 1),
                {});
    ASSERT_TRUE(up.start());
    runFor(up, 0.8);
    up.stop();
    EXPECT_FALSE(up.failed()) << up.error();
    EXPECT_GT(up.bytesUp(), 0u);
    EXPECT_EQ(up.bytesDown(), 0u); // nothing downloaded: "ok N" comes only at a POST's end
}

TEST(HttpLoad, FollowsRedirectsButNotForever) {
    WebServer web;
    ASSERT_TRUE(web.running());
    HttpLoad load(httpSpec(web.url("/redirect/300000"), {}, LoadSpec::Direction::Download, 2), {});
    ASSERT_TRUE(load.start());
    runFor(load, 0.8);
    load.stop();
    EXPECT_FALSE(load.failed()) << load.error();
    EXPECT_GT(load.bytesDown(), 300000u);

    const auto loop = failureOf(httpSpec(web.url("/loop"), {}, LoadSpec::Direction::Download));
    EXPECT_NE(loop.find(web.url("/loop") + ": "), std::string::npos) << loop;
    EXPECT_NE(loop.find("redirects"), std::string::npos) << loop;
}

TEST(HttpLoad, AUrlThatDoesNotServeEndsTheLoadWithItsReason) {
    WebServer web;
    ASSERT_TRUE(web.running());
    auto down = [&](const std::string& path) {
        return failureOf(httpSpec(web.url(path), {}, LoadSpec::Direction::Download));
    };
    const auto missing = down("/missing");
    EXPECT_NE(missing.find(web.url("/missing") + ": "), std::string::npos) << missing;
    EXPECT_NE(missing.find("404"), std::string::npos) << missing;
    EXPECT_NE(down("/empty").find("answered with nothing to download"), std::string::npos);

    // A static file does not take a POST.
    const auto post = failureOf(
        httpSpec(web.url("/bytes/10"), web.url("/bytes/10"), LoadSpec::Direction::Upload));
    EXPECT_NE(post.find("405"), std::string::npos) << post;

    // Nothing listens: a port that was just free.
    const int port = coresteer::test::freeLoopbackPort();
    ASSERT_GT(port, 0);
    const auto closed = "http://127.0.0.1:" + std::to_string(port) + "/x";
    const auto refused = failureOf(httpSpec(closed, {}, LoadSpec::Direction::Download));
    EXPECT_NE(refused.find(closed + ": "), std::string::npos) << refused;
    EXPECT_NE(refused.find("onnect"), std::string::npos) << refused;

    // An upload with nowhere to go is refused before anything is contacted.
    HttpLoad noPost(httpSpec(web.url("/bytes/10"), {}, LoadSpec::Direction::Both), {});
    EXPECT_FALSE(noPost.start());
    EXPECT_NE(noPost.error().find("an upload needs a URL that takes POST"), std::string::npos)
        << noPost.error();
    EXPECT_EQ(noPost.bytesDown(), 0u);
}

TEST(HttpLoad, CertificatesAreCheckedAndACaOfTheUsersOwnIsTrusted) {
    const auto dir = fs::path(CORESTEER_TEST_TMP) / "http-load-tls";
    fs::remove_all(dir);
    WebServer web(dir, true);
    ASSERT_TRUE(web.running());
    ASSERT_FALSE(web.caFile().empty());
    const auto url = web.url("/bytes/1000000");
    ASSERT_EQ(url.substr(0, 8), "https://");

    // Signed by a CA the system does not know: refused, and said so.
    const auto untrusted = failureOf(httpSpec(url, {}, LoadSpec::Direction::Download));
    EXPECT_NE(untrusted.find(url + ": "), std::string::npos) << untrusted;
    EXPECT_NE(untrusted.find("certificate"), std::string::npos) << untrusted;

    auto spec = httpSpec(url, web.url("/sink"), LoadSpec::Direction::Both, 2);
    spec.caFile = web.caFile();
    HttpLoad load(spec, {});
    ASSERT_TRUE(load.start());
    runFor(load, 1.2);
    load.stop();
    EXPECT_FALSE(load.failed()) << load.error();
    EXPECT_GT(load.bytesDown(), 1000000u);
    EXPECT_GT(load.bytesUp(), 0u);

    // The name in the URL must be the certificate's: "localhost" is not 127.0.0.1's.
    auto byName = spec;
    byName.urls = {"https://localhost:" + std::to_string(web.port()) + "/bytes/10"};
    byName.direction = LoadSpec::Direction::Download;
    const auto wrongName = failureOf(byName);
    EXPECT_NE(wrongName.find("localhost"), std::string::npos) << wrongName;
    EXPECT_EQ(wrongName.find("did not fail"), std::string::npos) << wrongName;
}

TEST(HttpLoad, NothingIsContactedBeforeStartAndStopIsPrompt) {
    WebServer web;
    ASSERT_TRUE(web.running());
    {
        HttpLoad idle(httpSpec(web.url("/bytes/10"), {}, LoadSpec::Direction::Download), {});
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        EXPECT_EQ(idle.bytesDown(), 0u);
        EXPECT_FALSE(idle.failed());
    }
    HttpLoad load(
        httpSpec(web.url("/bytes/1000000000"), web.url("/sink"), LoadSpec::Direction::Both), {});
    ASSERT_TRUE(load.start());
    runFor(load, 0.5);
    const auto t0 = std::chrono::steady_clock::now();
    load.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    const auto after = load.bytesDown();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(load.bytesDown(), after);
}
