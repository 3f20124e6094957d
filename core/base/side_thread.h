// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// A short piece of work run beside the caller on another CPU.
#pragma once

#include <exception>
#include <functional>

#include <pthread.h>

namespace coresteer {

// Runs `work` on a thread of its own that starts on a CPU other than the caller's, where the
// caller may run on another one. Left to itself, the kernel often queues a new thread on its
// parent's CPU (on virtual machines it passes over CPUs that are idle, as they look preempted),
// where it waits for the parent to finish: two halves of a parse then take as long as the
// whole. join() waits for the work and rethrows what it threw.
class SideThread {
public:
    // False (and nothing runs) when no thread could be had: the caller does the work itself.
    bool start(std::function<void()> work);
    void join();
    ~SideThread();

    SideThread() = default;
    SideThread(const SideThread&) = delete;
    SideThread& operator=(const SideThread&) = delete;

private:
    static void* run(void* self);
    std::function<void()> m_work;
    std::exception_ptr m_failed;
    pthread_t m_thread{};
    bool m_running = false;
};

} // namespace coresteer
