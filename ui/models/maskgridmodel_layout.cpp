// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridModel and layouts: the pending masks as a Layout (to apply, save or persist), a
// Layout (a preset, the planner's) as pending masks, and what of a layout the grid has no row for.
#include "ui/models/maskgridmodel.h"

#include "ui/base/qtext.h"

#include "core/layout/resolve.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <map>
#include <set>

namespace coresteer::ui {

using namespace coresteer::layout;

void MaskGridModel::setExtras(Layout extras) {
    m_extras = std::move(extras);
    if (!m_rows.empty()) // the headings say what threaded NAPI becomes
        emit dataChanged(index(0, Change), index(rowCount() - 1, Change), {Qt::DisplayRole});
    emit extrasChanged();
}

Layout MaskGridModel::offGrid(const Layout& layout) const {
    Layout x;
    if (!m_snap)
        return x;
    const IrqNames names(*m_snap);
    for (const auto& t : layout.irqs) {
        const auto irq = names.find(t.irq);
        if (irq && std::none_of(m_rows.begin(), m_rows.end(), [&](const Row& r) {
                return r.kind == RowKind::Irq && r.irq == *irq;
            }))
            x.irqs.push_back(t);
    }
    for (const auto& t : layout.rx)
        if (t.rpsFlowCnt)
            x.rx.push_back({t.interface, t.queue, std::nullopt, t.rpsFlowCnt, t.why});
    for (const auto& t : layout.interfaces)
        if (t.rxUsecs || t.rxFrames || t.threaded || t.channels.any() || t.rss) {
            InterfaceTarget e;
            e.interface = t.interface;
            e.threaded = t.threaded;
            e.rxUsecs = t.rxUsecs;
            e.rxFrames = t.rxFrames;
            e.channels = t.channels;
            e.rss = t.rss;
            e.why = t.why;
            x.interfaces.push_back(std::move(e));
        }
    x.governors = layout.governors;
    x.rpsSockFlowEntries = layout.rpsSockFlowEntries;
    return x;
}

Layout MaskGridModel::pendingLayout(bool everyRow) const {
    Layout l;
    if (!m_snap)
        return l;
    const IrqNames names(*m_snap);
    for (const auto& r : m_rows) {
        if (!r.pending || !r.current || (!everyRow && *r.pending == *r.current))
            continue;
        const auto iface = r.iface.toStdString();
        const auto why = r.why.isEmpty() && *r.pending == *r.current ? std::string("as it is")
                                                                     : r.why.toStdString();
        switch (r.kind) {
        case RowKind::Irq:
            if (const auto sel = names.selectorOf(r.irq))
                l.irqs.push_back({*sel, *r.pending, why});
            break;
        case RowKind::RxQueue:
            l.rx.push_back({iface, r.queue, *r.pending, std::nullopt, why});
            break;
        case RowKind::TxQueue:
            l.tx.push_back({iface, r.queue, *r.pending, why});
            break;
        case RowKind::Napi:
        case RowKind::TxWorker: {
            auto it = std::find_if(l.interfaces.begin(), l.interfaces.end(),
                                   [&](const InterfaceTarget& t) { return t.interface == iface; });
            if (it == l.interfaces.end()) {
                l.interfaces.emplace_back();
                it = std::prev(l.interfaces.end());
                it->interface = iface;
                it->why = why;
            }
            (r.kind == RowKind::Napi ? it->napiCpus : it->txWorkerCpus) = *r.pending;
            break;
        }
        case RowKind::Interface:
            break;
        }
    }
    // The extras, merged into the targets of the same queue or interface.
    for (const auto& e : m_extras.rx) {
        const auto it = std::find_if(l.rx.begin(), l.rx.end(), [&](const RxQueueTarget& t) {
            return t.interface == e.interface && t.queue == e.queue;
        });
        if (it != l.rx.end())
            it->rpsFlowCnt = e.rpsFlowCnt;
        else
            l.rx.push_back(e);
    }
    for (const auto& e : m_extras.interfaces) {
        const auto it =
            std::find_if(l.interfaces.begin(), l.interfaces.end(),
                         [&](const InterfaceTarget& t) { return t.interface == e.interface; });
        if (it != l.interfaces.end()) {
            it->rxUsecs = e.rxUsecs;
            it->rxFrames = e.rxFrames;
            it->threaded = e.threaded;
            it->channels = e.channels;
            it->rss = e.rss;
        } else
            l.interfaces.push_back(e);
    }
    l.irqs.insert(l.irqs.end(), m_extras.irqs.begin(), m_extras.irqs.end());
    l.governors = m_extras.governors;
    if (m_extras.rpsSockFlowEntries)
        l.rpsSockFlowEntries = m_extras.rpsSockFlowEntries;
    return l;
}

QStringList MaskGridModel::setPendingLayout(const Layout& layout) {
    QStringList unplaced;
    if (!m_snap)
        return unplaced;
    const IrqNames names(*m_snap);
    auto find = [&](RowKind k, const QString& iface, std::uint32_t irq, int queue) -> int {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            const auto& r = m_rows[i];
            if (r.kind == k && (k == RowKind::Irq ? r.irq == irq : r.iface == iface) &&
                (k != RowKind::RxQueue && k != RowKind::TxQueue ? true : r.queue == queue))
                return static_cast<int>(i);
        }
        return -1;
    };
    auto place = [&](int row, const CpuMask& m, const std::string& why, const QString& what) {
        if (row < 0 || (!m.none() && m.highest() >= m_cpus)) {
            unplaced << what;
            return;
        }
        auto& r = m_rows[static_cast<std::size_t>(row)];
        auto w = m;
        w.setWidth(m_cpus);
        r.pending = w;
        r.why = qs(why);
    };
    for (const auto& t : layout.irqs) {
        const auto irq = names.find(t.irq);
        const int row = irq ? find(RowKind::Irq, {}, *irq, 0) : -1;
        if (irq && row < 0)
            continue; // on the router, off the grid: an extra
        place(row, t.cpus, t.why, QStringLiteral("IRQ ") + qs(t.irq.display()));
    }
    for (const auto& t : layout.rx)
        if (t.rpsCpus)
            place(find(RowKind::RxQueue, qs(t.interface), 0, t.queue), *t.rpsCpus, t.why,
                  qs(t.interface) + QStringLiteral(" rx-%1").arg(t.queue));
    for (const auto& t : layout.tx)
        place(find(RowKind::TxQueue, qs(t.interface), 0, t.queue), t.xpsCpus, t.why,
              qs(t.interface) + QStringLiteral(" tx-%1").arg(t.queue));
    for (const auto& t : layout.interfaces) {
        if (t.napiCpus)
            place(find(RowKind::Napi, qs(t.interface), 0, 0), *t.napiCpus, t.why,
                  qs(t.interface) + QStringLiteral(" NAPI threads"));
        if (t.txWorkerCpus)
            place(find(RowKind::TxWorker, qs(t.interface), 0, 0), *t.txWorkerCpus, t.why,
                  qs(t.interface) + QStringLiteral(" TX worker"));
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    return unplaced;
}

} // namespace coresteer::ui
