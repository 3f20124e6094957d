// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/http_load.h"

#include "core/base/text.h"

#include <curl/curl.h>

#include <array>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <vector>

namespace coresteer::live {

namespace {

constexpr curl_off_t kPostBytes = curl_off_t(1) << 30; // one POST: 1 GiB, then another
constexpr auto kReportEvery = std::chrono::milliseconds(500);

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// The bytes an upload sends: of no meaning, and not compressible by anything on the way.
const std::array<char, 65536>& uploadBytes() {
    static const auto bytes = [] {
        std::array<char, 65536> b{};
        std::uint32_t x = 2463534242u;
        for (auto& c : b) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            c = static_cast<char>(x);
        }
        return b;
    }();
    return bytes;
}

} // namespace

struct HttpLoad::Transfer {
    HttpLoad* load = nullptr;
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;
    bool upload = false;
    std::string url;
    std::uint64_t bytes = 0; // this run of it
    std::size_t offset = 0;  // into uploadBytes()
    char errbuf[CURL_ERROR_SIZE] = {};

    ~Transfer() {
        if (easy)
            curl_easy_cleanup(easy);
        curl_slist_free_all(headers);
    }

    static size_t onData(char*, size_t size, size_t n, void* self) {
        auto* t = static_cast<Transfer*>(self);
        if (!t->upload) { // an upload's answer is no download
            t->bytes += size * n;
            t->load->m_down += size * n;
        }
        return size * n;
    }
    static size_t onRead(char* out, size_t size, size_t n, void* self) {
        auto* t = static_cast<Transfer*>(self);
        const auto& src = uploadBytes();
        std::size_t want = size * n, done = 0;
        while (done < want) {
            const std::size_t k = std::min(want - done, src.size() - t->offset);
            std::memcpy(out + done, src.data() + t->offset, k);
            done += k;
            t->offset = (t->offset + k) % src.size();
        }
        t->bytes += done;
        t->load->m_up += done;
        return done;
    }
    // A redirected POST sends its body again from the start: any bytes will do.
    static int onSeek(void*, curl_off_t, int) { return CURL_SEEKFUNC_OK; }
    // The upload's congestion control, as a server on the internet would send with.
    static int onSocket(void* self, curl_socket_t fd, curlsocktype purpose) {
        auto* t = static_cast<Transfer*>(self);
        const auto& cc = t->load->m_spec.congestion;
        if (purpose == CURLSOCKTYPE_IPCXN && isCongestionName(cc))
            ::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc.data(),
                         static_cast<socklen_t>(cc.size()));
        return CURL_SOCKOPT_OK; // where the kernel lacks it: its default
    }

    bool setUp() {
        easy = curl_easy_init();
        if (!easy)
            return false;
        const auto& spec = load->m_spec;
        curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
        curl_easy_setopt(easy, CURLOPT_PRIVATE, this);
        curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(easy, CURLOPT_MAXREDIRS, 10L);
        curl_easy_setopt(easy, CURLOPT_FAILONERROR, 1L);
        curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
        // One TCP connection a stream, as the web's tests load the path (HTTP/2 would carry
        // them all on one).
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
        if (!spec.caFile.empty())
            curl_easy_setopt(easy, CURLOPT_CAINFO, spec.caFile.c_str());
        curl_easy_setopt(easy, CURLOPT_USERAGENT, "coresteer/" CORESTEER_VERSION);
        curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, &Transfer::onSocket);
        curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, this);
        if (upload) {
            curl_easy_setopt(easy, CURLOPT_POST, 1L);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, kPostBytes);
            curl_easy_setopt(easy, CURLOPT_READFUNCTION, &Transfer::onRead);
            curl_easy_setopt(easy, CURLOPT_READDATA, this);
            curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, &Transfer::onSeek);
            curl_easy_setopt(easy, CURLOPT_SEEKDATA, this);
            curl_easy_setopt(
                easy, CURLOPT_POSTREDIR,
                static_cast<long>(CURL_REDIR_POST_301 | CURL_REDIR_POST_302 | CURL_REDIR_POST_303));
            headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
            headers = curl_slist_append(headers, "Expect:"); // no wait for 100-continue
            curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        }
        // What the answer holds is counted (a download's) and dropped.
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Transfer::onData);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, this);
        return true;
    }
};

HttpLoad::HttpLoad(LoadSpec spec, ReportFn report)
    : m_spec(std::move(spec)), m_report(std::move(report)) {}

HttpLoad::~HttpLoad() {
    stop();
}

std::string HttpLoad::error() const {
    std::lock_guard lock(m_mutex);
    return m_error;
}

void HttpLoad::fail(std::string why) {
    {
        std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = std::move(why);
    }
    m_failed = true;
}

bool HttpLoad::start() {
    std::string why;
    if (m_thread.joinable())
        return true;
    bool ok = !m_spec.urls.empty() && m_spec.urls.size() <= LoadSpec::kMaxUrls;
    for (const auto& u : m_spec.urls)
        ok = ok && isLoadUrl(u, &why);
    if (!ok ||
        (m_spec.direction != LoadSpec::Direction::Download && !isLoadUrl(m_spec.postUrl, &why))) {
        if (why.empty())
            why = "no URL to download from";
        if (m_spec.direction != LoadSpec::Direction::Download && m_spec.postUrl.empty())
            why = "an upload needs a URL that takes POST: give it after the download's URL";
        fail(why);
        return false;
    }
    if (m_spec.direction == LoadSpec::Direction::Sequence) {
        fail("one direction at a time");
        return false;
    }
    globalInit();
    m_stop = false;
    m_thread = std::thread([this] { run(); });
    return true;
}

void HttpLoad::stop() {
    m_stop = true;
    {
        std::lock_guard lock(m_mutex);
        if (m_multi)
            curl_multi_wakeup(static_cast<CURLM*>(m_multi));
    }
    if (m_thread.joinable())
        m_thread.join();
}

void HttpLoad::run() {
    CURLM* multi = curl_multi_init();
    if (!multi) {
        fail("libcurl could not start");
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_multi = multi;
    }
    const int n = std::clamp(m_spec.streams, 1, 32);
    const bool down = m_spec.direction != LoadSpec::Direction::Upload;
    const bool up = m_spec.direction != LoadSpec::Direction::Download;
    std::vector<std::unique_ptr<Transfer>> transfers;
    auto add = [&](bool upload, int i) {
        auto t = std::make_unique<Transfer>();
        t->load = this;
        t->upload = upload;
        t->url =
            upload ? m_spec.postUrl : m_spec.urls[static_cast<std::size_t>(i) % m_spec.urls.size()];
        if (!t->setUp()) {
            fail("libcurl could not start a transfer");
            return;
        }
        curl_multi_add_handle(multi, t->easy);
        transfers.push_back(std::move(t));
    };
    for (int i = 0; i < n; ++i) {
        if (down)
            add(false, i);
        if (up)
            add(true, i);
    }
    const auto begin = std::chrono::steady_clock::now();
    auto last = begin;
    std::uint64_t lastDown = 0, lastUp = 0;
    while (!m_stop.load() && !m_failed.load()) {
        int running = 0;
        curl_multi_perform(multi, &running);
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            Transfer* t = nullptr;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
            const CURLcode code = msg->data.result;
            const std::string& url = t->url;
            if (code != CURLE_OK) {
                const std::string detail =
                    t->errbuf[0] ? std::string(t->errbuf) : curl_easy_strerror(code);
                fail(text::printable(url, 120) + ": " + text::printable(detail, 200));
                break;
            }
            if (!t->upload && t->bytes == 0) {
                fail(text::printable(url, 120) + ": answered with nothing to download");
                break;
            }
            // It ran to its end: again, on the same connection where the server keeps it.
            curl_multi_remove_handle(multi, t->easy);
            t->bytes = 0;
            t->errbuf[0] = 0;
            curl_multi_add_handle(multi, t->easy);
            ++m_restarts;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now - last >= kReportEvery) {
            const double dt = std::chrono::duration<double>(now - last).count();
            const auto d = m_down.load(), u = m_up.load();
            if (m_report)
                m_report({std::chrono::duration<double>(now - begin).count(),
                          static_cast<double>(d - lastDown) * 8 / dt,
                          static_cast<double>(u - lastUp) * 8 / dt});
            last = now;
            lastDown = d;
            lastUp = u;
        }
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
            kReportEvery - (std::chrono::steady_clock::now() - last));
        curl_multi_poll(multi, nullptr, 0, static_cast<int>(std::max<long>(1, wait.count())),
                        nullptr);
    }
    {
        std::lock_guard lock(m_mutex);
        m_multi = nullptr;
    }
    for (auto& t : transfers)
        curl_multi_remove_handle(multi, t->easy);
    transfers.clear();
    curl_multi_cleanup(multi);
}

} // namespace coresteer::live
