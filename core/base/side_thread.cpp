// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/side_thread.h"

#include <sched.h>

#include <utility>

namespace coresteer {

namespace {

// The CPUs the caller may run on, less the one it runs on; false when that leaves none.
bool otherCpus(cpu_set_t& set) {
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return false;
    const int here = sched_getcpu();
    if (here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &set))
        return false;
    CPU_CLR(here, &set);
    return CPU_COUNT(&set) > 0;
}

} // namespace

void* SideThread::run(void* self) {
    auto* t = static_cast<SideThread*>(self);
    try {
        t->m_work();
    } catch (...) {
        t->m_failed = std::current_exception();
    }
    return nullptr;
}

bool SideThread::start(std::function<void()> work) {
    if (m_running)
        return false;
    m_work = std::move(work);
    m_failed = nullptr;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    cpu_set_t cpus;
    if (otherCpus(cpus))
        pthread_attr_setaffinity_np(&attr, sizeof cpus, &cpus); // where it fails: anywhere
    pthread_t thread;
    const int rc = pthread_create(&thread, &attr, &SideThread::run, this);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return false;
    m_thread = thread;
    m_running = true;
    return true;
}

void SideThread::join() {
    if (!m_running)
        return;
    pthread_join(m_thread, nullptr);
    m_running = false;
    if (m_failed)
        std::rethrow_exception(std::exchange(m_failed, nullptr));
}

SideThread::~SideThread() {
    if (m_running)
        pthread_join(m_thread, nullptr);
}

} // namespace coresteer
