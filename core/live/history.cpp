// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/live/history.h"

#include "core/base/text.h"

#include <algorithm>
#include <cmath>

namespace coresteer::live {

namespace {
std::uint16_t toShare(double share) {
    return static_cast<std::uint16_t>(std::lround(std::clamp(share, 0.0, 1.0) * 65535.0));
}
} // namespace

History::Core History::Core::from(const CoreLoad& l) {
    return {toShare(l.user), toShare(l.system), toShare(l.irq), toShare(l.softirq),
            toShare(l.idle)};
}

History::History(std::size_t capacity, int cores, std::vector<std::uint32_t> irqs)
    : m_capacity(std::max<std::size_t>(capacity, 1)), m_cores(std::max(cores, 0)),
      m_irqs(std::move(irqs)), m_time(m_capacity, 0.0), m_gap(m_capacity, false),
      m_core(m_capacity * static_cast<std::size_t>(m_cores)),
      m_irq(m_capacity * m_irqs.size(), 0.0f) {}

std::size_t History::next() {
    std::size_t s;
    if (m_size < m_capacity) {
        s = slot(m_size);
        ++m_size;
    } else {
        s = m_head; // the oldest goes
        m_head = (m_head + 1) % m_capacity;
    }
    return s;
}

void History::push(const Rates& r) {
    const auto s = next();
    m_time[s] = r.end;
    m_gap[s] = false;
    auto* row = &m_core[s * static_cast<std::size_t>(m_cores)];
    std::fill(row, row + m_cores, Core{});
    for (const auto& c : r.cores)
        if (c.cpu >= 0 && c.cpu < m_cores)
            row[c.cpu] = Core::from(c);
    for (std::size_t k = 0; k < m_irqs.size(); ++k) {
        const auto* ir = r.irq(m_irqs[k]);
        m_irq[s * m_irqs.size() + k] = ir ? static_cast<float>(ir->total) : 0.0f;
    }
}

void History::pushGap(double uptime) {
    const auto s = next();
    m_time[s] = uptime;
    m_gap[s] = true;
    auto* row = &m_core[s * static_cast<std::size_t>(m_cores)];
    std::fill(row, row + m_cores, Core{});
    std::fill(m_irq.begin() + static_cast<std::ptrdiff_t>(s * m_irqs.size()),
              m_irq.begin() + static_cast<std::ptrdiff_t>((s + 1) * m_irqs.size()), 0.0f);
}

std::size_t History::bytes() const {
    return m_time.size() * sizeof(double) + m_gap.size() / 8 + m_core.size() * sizeof(Core) +
           m_irq.size() * sizeof(float);
}

History::Stats History::stats(int cpu) const {
    Stats st;
    std::size_t n = 0;
    for (std::size_t i = 0; i < m_size; ++i) {
        if (isGap(i))
            continue;
        const double b = core(i, cpu).busy();
        st.peak = std::max(st.peak, b);
        st.mean += b;
        ++n;
    }
    if (n)
        st.mean /= static_cast<double>(n);
    return st;
}

std::string historyCsv(const History& h) {
    using text::fixed;
    std::string out = "t_s,uptime_s";
    for (int c = 0; c < h.cores(); ++c)
        for (const char* part : {"busy", "user", "system", "irq", "softirq"})
            out += ",cpu" + std::to_string(c) + '_' + part + "_pct";
    for (auto irq : h.irqs())
        out += ",irq" + std::to_string(irq) + "_per_s";
    out += '\n';
    const double t0 = h.size() ? h.time(0) : 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        out += fixed(h.time(i) - t0, 3) + ',' + fixed(h.time(i), 2);
        if (h.isGap(i)) {
            // The router did not answer: the row says when, and nothing else.
            out.append(static_cast<std::size_t>(h.cores()) * 5 + h.irqs().size(), ',');
            out += '\n';
            continue;
        }
        for (int c = 0; c < h.cores(); ++c) {
            const auto& k = h.core(i, c);
            for (double v :
                 {k.busy(), k.share(k.user), k.share(k.system), k.share(k.irq), k.share(k.softirq)})
                out += ',' + fixed(v * 100, 1);
        }
        for (std::size_t k = 0; k < h.irqs().size(); ++k)
            out += ',' + fixed(h.irqRate(i, k), 1);
        out += '\n';
    }
    return out;
}

} // namespace coresteer::live
