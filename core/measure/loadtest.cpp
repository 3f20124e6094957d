// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/loadtest.h"

#include "core/base/text.h"
#include "core/live/echo.h"
#include "core/live/latency.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace coresteer::measure {

using namespace coresteer::live;

// A program this test runs (iperf3 for one phase, irtt for the whole test): its process, and a
// thread that hands what it prints to `onOut` as it comes, keeping the start of its stderr.
struct LoadTest::Child {
    pid_t pid = -1;
    int out = -1, err = -1;
    std::thread reader;
    std::string stderrText;
    int status = 0;
    bool exited = false;

    static std::unique_ptr<Child> spawn(const char* program, const std::vector<std::string>& args,
                                        std::function<void(std::string_view)> onOut,
                                        std::string* error);
    // Whether it ended by itself, without waiting; its status then in `status`.
    bool ended();
    // TERM, then KILL after 2 s; the reader joined, the pipes closed.
    void stop();
};

std::unique_ptr<LoadTest::Child> LoadTest::Child::spawn(const char* program,
                                                        const std::vector<std::string>& args,
                                                        std::function<void(std::string_view)> onOut,
                                                        std::string* error) {
    std::vector<std::string> copy(args);
    std::string name = program;
    std::vector<char*> argv{name.data()};
    for (auto& a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        *error = std::string(program) + " could not start: " + std::strerror(errno);
        return nullptr;
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        *error = std::string(program) + " could not start: " + std::strerror(errno);
        ::close(out[0]);
        ::close(out[1]);
        return nullptr;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    // A process group of its own: the terminal's Ctrl-C (SIGINT to the foreground group) reaches
    // coresteer, which ends the load and restores the router, not the load in the middle of it.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    auto c = std::make_unique<Child>();
    const int rc = ::posix_spawnp(&c->pid, program, &fa, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        *error = std::string(program) + " could not start: " + std::strerror(rc);
        return nullptr;
    }
    c->out = out[0];
    c->err = err[0];
    c->reader = std::thread([c = c.get(), onOut = std::move(onOut)] {
        pollfd fds[2] = {{c->out, POLLIN, 0}, {c->err, POLLIN, 0}};
        int open = 2;
        char buf[4096];
        while (open > 0) {
            if (::poll(fds, 2, 500) < 0 && errno != EINTR)
                break;
            for (auto& f : fds) {
                if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                const ssize_t n = ::read(f.fd, buf, sizeof buf);
                if (n <= 0) {
                    f.fd = -1;
                    --open;
                    continue;
                }
                if (f.fd == c->err) {
                    if (c->stderrText.size() < 4096)
                        c->stderrText.append(buf, static_cast<std::size_t>(n));
                    continue;
                }
                onOut(std::string_view(buf, static_cast<std::size_t>(n)));
            }
        }
    });
    return c;
}

bool LoadTest::Child::ended() {
    if (exited)
        return true;
    if (::waitpid(pid, &status, WNOHANG) != pid)
        return false;
    exited = true;
    if (reader.joinable())
        reader.join();
    return true;
}

void LoadTest::Child::stop() {
    if (!exited) {
        ::kill(pid, SIGTERM);
        for (int i = 0; i < 40 && ::waitpid(pid, &status, WNOHANG) == 0; ++i)
            ::usleep(50000);
        if (::waitpid(pid, &status, WNOHANG) == 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
        }
        exited = true;
    }
    if (reader.joinable())
        reader.join();
    ::close(out);
    ::close(err);
    out = err = -1;
}

LoadTest::LoadTest(Spec spec, std::vector<std::string>* problems)
    : m_spec(std::move(spec)),
      m_start(std::chrono::steady_clock::now() -
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(m_spec.startTime))) {
    if (m_spec.load) {
        if (!m_spec.phases.empty())
            m_phases = m_spec.phases;
        else if (m_spec.load->direction == LoadSpec::Direction::Sequence)
            m_phases = {LoadSpec::Direction::Download, LoadSpec::Direction::Upload,
                        LoadSpec::Direction::Both};
        else
            m_phases = {m_spec.load->direction};
        // A phase list runs as a sequence, one phase after the other.
        if (m_phases.size() > 1)
            m_spec.load->direction = LoadSpec::Direction::Sequence;
    }
    auto every100ms = [this](auto probeOnce, std::string name) {
        m_probes.emplace_back([this, probeOnce, name] {
            auto next = std::chrono::steady_clock::now();
            while (!m_stop.load()) {
                const double t = now();
                push({Event::Kind::Latency, t, probeOnce(), name});
                next += std::chrono::milliseconds(100);
                const auto n = std::chrono::steady_clock::now();
                if (next < n) // a slow answer skips ticks rather than piling up
                    next = n;
                std::this_thread::sleep_until(next);
            }
        });
    };
    if (!m_spec.lanHost.empty() && m_spec.lanPort > 0)
        every100ms([host = m_spec.lanHost,
                    port = m_spec.lanPort] { return tcpConnectMs(host, port, 1000, nullptr); },
                   std::string(kLanProbe));
    for (const auto& host : m_spec.beyond) {
        std::string error;
        std::shared_ptr<EchoProbe> p =
            EchoProbe::open(host, m_spec.load ? m_spec.load->port : 0, &error);
        if (!p) {
            if (problems)
                problems->push_back("no latency beyond the router to " + error);
            continue;
        }
        if (problems && p->method() == EchoProbe::Method::Tcp)
            problems->push_back(host + ": probed by a TCP handshake with port " +
                                std::to_string(m_spec.load->port) +
                                " (ICMP is not open to this user)");
        every100ms([p] { return p->once(1000); }, probeName(host));
    }
    openRouterPing(problems);
    openIrtt(problems);
}

// irtt for the whole test, one process a server: its replies become three probes' latencies.
void LoadTest::openIrtt(std::vector<std::string>* problems) {
    double seconds = m_spec.duration;
    if (m_spec.load && m_spec.load->direction == LoadSpec::Direction::Sequence)
        seconds = m_spec.idleSeconds +
                  static_cast<double>(m_phases.size()) * std::max(1.0, m_spec.phaseSeconds);
    const int limit = static_cast<int>(std::min(seconds + 5, 7.0 * 86400));
    for (const auto& target : m_spec.irtt) {
        auto reader = std::make_shared<IrttReader>();
        std::string error;
        auto child = Child::spawn(
            "irtt", irttArguments(target, limit),
            [this, reader, rtt = irttProbe(target), up = irttUpProbe(target),
             down = irttDownProbe(target)](std::string_view data) {
                for (const auto& r : reader->feed(data)) {
                    const double t = now();
                    push({Event::Kind::Latency, t, r.rttMs, rtt});
                    push({Event::Kind::Latency, t, r.rttMs ? r.upMs : std::nullopt, up});
                    push({Event::Kind::Latency, t, r.rttMs ? r.downMs : std::nullopt, down});
                }
            },
            &error);
        if (!child) {
            if (problems)
                problems->push_back("no irtt to " + target.host + ": " + error);
            continue;
        }
        m_irtt.push_back({target, std::move(child)});
    }
}

void LoadTest::stopIrtt() {
    for (auto& i : m_irtt)
        i.child->stop();
    m_irtt.clear();
}

void LoadTest::openRouterPing(std::vector<std::string>* problems) {
    if (!m_spec.session || m_spec.beyond.empty())
        return;
    const auto command = routerPingCommand(m_spec.beyond.front());
    if (!command.empty())
        m_routerPing = m_spec.session->openStream(command);
    if (!m_routerPing && problems)
        problems->push_back("no latency from the router: its ping did not start (" +
                            m_spec.session->error().message + ")");
}

LoadTest::~LoadTest() {
    m_stop = true;
    for (auto& t : m_probes)
        if (t.joinable())
            t.join();
    stopLoad();
    stopIrtt();
}

double LoadTest::now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void LoadTest::push(Event e) {
    std::lock_guard lock(m_mutex);
    m_events.push_back(std::move(e));
}

void LoadTest::drain(RecordingWriter& rec) {
    std::vector<Event> events;
    {
        std::lock_guard lock(m_mutex);
        events.swap(m_events);
    }
    for (const auto& e : events)
        if (e.kind == Event::Kind::Latency)
            rec.latency(e.t, e.ms, e.probe);
        else
            rec.throughput(e.t, e.down, e.up);
}

bool LoadTest::tick(double t, RecordingWriter& rec, std::string* problem) {
    drain(rec);
    const double at = t - m_spec.startTime; // into the test
    readRouterPing(t, rec);
    for (auto& i : m_irtt)
        if (!i.said && i.child->ended() && problem &&
            !(WIFEXITED(i.child->status) && WEXITSTATUS(i.child->status) == 0)) {
            i.said = true;
            *problem = "irtt to " + i.target.host +
                       " stopped: " + std::string(text::trim(i.child->stderrText));
        }
    if (m_spec.model) {
        const auto state = m_spec.model();
        rec.latency(t, state.latencyMs, kDemoProbe);
        if (!m_spec.load) {
            const bool testing = at >= m_spec.idleSeconds - 0.2;
            const std::string name = state.phase == "download and upload" ? "both" : state.phase;
            if (testing && name == "idle" && !m_modelPhase.empty())
                return false; // the model's test is over
            // The model's throughput, as a load generator reports its own, every tick.
            if (t > m_lastModelThroughput) {
                m_lastModelThroughput = t;
                rec.throughput(t, state.downBitsPerSec, state.upBitsPerSec);
            }
            if (testing) {
                if (name != "idle" && name != m_modelPhase) {
                    m_modelPhase = name;
                    rec.phase(t, name);
                }
                return true;
            }
        }
    }
    if (at < m_spec.idleSeconds)
        return true;
    if (m_phases.empty()) {
        if (!m_started) {
            m_started = true;
            if (!m_spec.model)
                rec.phase(t, "load");
        }
        return at < m_spec.duration;
    }
    // A load generator that stopped by itself (a server that refused) is said once.
    if (!m_loadError.empty() && problem) {
        *problem = m_loadError;
        m_loadError.clear();
    }
    if (m_http && m_http->failed() && problem) {
        *problem = "the HTTP load stopped: " + m_http->error();
        m_http.reset();
    }
    if (m_iperf && !m_iperf->exited && m_iperf->ended() && problem &&
        !(WIFEXITED(m_iperf->status) && WEXITSTATUS(m_iperf->status) == 0))
        *problem = "iperf3 stopped: " + m_iperf->stderrText;
    const double into = at - m_spec.idleSeconds;
    const bool sequence = m_spec.load->direction == LoadSpec::Direction::Sequence;
    const std::size_t want =
        sequence ? static_cast<std::size_t>(into / std::max(1.0, m_spec.phaseSeconds)) : 0;
    if (!m_started || want != m_phase) {
        // The phase before ends first, its last reports drained, so that none of them is
        // counted in the next phase.
        stopLoad();
        drain(rec);
        if (want >= m_phases.size())
            return false;
        m_started = true;
        m_phase = want;
        static const char* names[] = {"download", "upload", "both"};
        rec.phase(t, names[static_cast<int>(m_phases[m_phase])]);
        startLoad(m_phases[m_phase]);
    }
    return sequence || at < m_spec.duration;
}

// What the router's ping printed since the last tick, at this tick's time.
void LoadTest::readRouterPing(double t, RecordingWriter& rec) {
    if (!m_routerPing)
        return;
    const auto data = m_routerPing->read(0);
    if (!data) {
        m_routerPing.reset(); // it ended: the router has no such host, or no ping
        return;
    }
    for (const auto& ms : m_pingReader.feed(*data))
        rec.latency(t, ms, kRouterProbe);
}

void LoadTest::finish(double t, RecordingWriter& rec) {
    readRouterPing(t, rec);
    m_routerPing.reset();
    m_stop = true;
    for (auto& th : m_probes)
        if (th.joinable())
            th.join();
    m_probes.clear();
    stopLoad();
    stopIrtt();
    drain(rec);
    rec.phase(t, "done");
}

void LoadTest::startLoad(LoadSpec::Direction d) {
    stopLoad();
    auto spec = *m_spec.load;
    spec.direction = d;
    if (spec.isHttp()) {
        m_http = std::make_unique<HttpLoad>(spec, [this](const HttpLoad::Report& r) {
            push({Event::Kind::Throughput,
                  now(),
                  std::nullopt,
                  {},
                  r.downBitsPerSec,
                  r.upBitsPerSec});
        });
        if (!m_http->start()) {
            m_loadError = "the HTTP load could not start: " + m_http->error();
            m_http.reset();
        }
        return;
    }
    auto reader = std::make_shared<IperfReader>(spec);
    m_iperf = Child::spawn(
        "iperf3", iperfArguments(spec),
        [this, reader](std::string_view data) {
            for (const auto& r : reader->feed(data))
                push({Event::Kind::Throughput,
                      now(),
                      std::nullopt,
                      {},
                      r.downBitsPerSec,
                      r.upBitsPerSec});
        },
        &m_loadError);
}

void LoadTest::stopLoad() {
    m_http.reset(); // stops and joins its thread
    if (m_iperf)
        m_iperf->stop();
    m_iperf.reset();
}

} // namespace coresteer::measure
