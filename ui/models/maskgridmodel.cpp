// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
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
using namespace coresteer::live;

namespace {

QString explain(MaskGridModel::RowKind k) {
    switch (k) {
    case MaskGridModel::RowKind::Irq:
        return QStringLiteral("smp_affinity: the CPUs that may take this interrupt.");
    case MaskGridModel::RowKind::RxQueue:
        return QStringLiteral(
            "RPS: the CPUs that process the packets this queue receives, in software.");
    case MaskGridModel::RowKind::TxQueue:
        return QStringLiteral("XPS: the CPUs that send their packets through this queue.");
    case MaskGridModel::RowKind::Napi:
        return QStringLiteral("Threaded NAPI: the CPUs the interface's poll threads may run on.");
    case MaskGridModel::RowKind::TxWorker:
        return QStringLiteral("mt76's TX worker: the CPUs the radio's transmit thread may run "
                              "on. Off the CPUs of its receive poll, neither waits for the other.");
    case MaskGridModel::RowKind::Interface:
        break;
    }
    return {};
}

// "850/s", "12.4k/s", "1.20M/s"
} // namespace

MaskGridModel::MaskGridModel(QObject* parent) : QAbstractTableModel(parent) {}

MaskGridModel::Row MaskGridModel::makeRow(RowKind kind, QString label, QString iface,
                                          std::uint32_t irq, int queue,
                                          std::optional<CpuMask> mask) {
    Row r;
    r.kind = kind;
    r.label = std::move(label);
    r.iface = std::move(iface);
    r.irq = irq;
    r.queue = queue;
    r.current = mask;
    r.pending = std::move(mask);
    return r;
}

std::vector<MaskGridModel::Row> MaskGridModel::buildRows(const Snapshot& s) const {
    std::vector<Row> rows;
    std::set<std::uint32_t> shown; // a shared IRQ is listed under its first interface only
    std::set<int> shownWorkers;
    for (const auto& nif : s.interfaces) {
        if ((nif.isVirtual() && nif.irqs.empty()) || !validInterfaceName(nif.name))
            continue;
        const auto name = qs(nif.name);
        Row head = makeRow(RowKind::Interface, name, name, 0, 0, std::nullopt);
        if (!nif.driver.empty())
            head.label += QStringLiteral("  ") + qs(nif.driver);
        if (nif.speedMbps)
            head.label += QStringLiteral("  %1 Mb/s").arg(*nif.speedMbps);
        std::vector<Row> body;
        for (auto irq : nif.irqs) {
            const auto* info = s.irq(irq);
            const auto* row = s.interrupts.findIrq(irq);
            if (!info || !info->smpAffinity || !shown.insert(irq).second)
                continue;
            QString label = QStringLiteral("IRQ %1").arg(irq);
            if (row && !row->actions.empty())
                label += QStringLiteral("  ") + qs(row->actions.front());
            // A threaded IRQ's handler thread follows the IRQ's CPUs: this row places it too.
            for (const auto& t : nif.irqThreads)
                if (t.device == std::to_string(irq))
                    label += QStringLiteral("  + ") + qs(t.name);
            body.push_back(makeRow(RowKind::Irq, label, name, irq, 0, info->smpAffinity));
        }
        for (const auto& q : nif.rx)
            if (q.rpsCpus)
                body.push_back(makeRow(RowKind::RxQueue, QStringLiteral("rx-%1  RPS").arg(q.index),
                                       name, 0, q.index, q.rpsCpus));
        for (const auto& q : nif.tx)
            if (q.xpsCpus)
                body.push_back(makeRow(RowKind::TxQueue, QStringLiteral("tx-%1  XPS").arg(q.index),
                                       name, 0, q.index, q.xpsCpus));
        if (const auto m = nif.napiMask())
            body.push_back(makeRow(RowKind::Napi,
                                   QStringLiteral("NAPI threads (%1)").arg(nif.napi.size()), name,
                                   0, 0, m));
        // A radio's TX worker serves all of its interfaces: listed under the first.
        if (const auto m = nif.txWorkerMask();
            m && shownWorkers.insert(nif.txWorkers.front().pid).second)
            body.push_back(
                makeRow(RowKind::TxWorker, qs(nif.txWorkers.front().name), name, 0, 0, m));
        if (body.empty())
            continue;
        for (auto& b : body) {
            const auto dir = "sys/class/net/" + nif.name + "/queues/";
            switch (b.kind) {
            case RowKind::Irq:
                b.paths = {"proc/irq/" + std::to_string(b.irq) + "/smp_affinity"};
                break;
            case RowKind::RxQueue:
                b.paths = {dir + "rx-" + std::to_string(b.queue) + "/rps_cpus"};
                break;
            case RowKind::TxQueue:
                b.paths = {dir + "tx-" + std::to_string(b.queue) + "/xps_cpus"};
                break;
            case RowKind::Napi:
            case RowKind::TxWorker:
                for (const auto& t : b.kind == RowKind::Napi ? nif.napi : nif.txWorkers)
                    b.paths.push_back("napi:" + std::to_string(t.pid));
                break;
            case RowKind::Interface:
                break;
            }
        }
        rows.push_back(std::move(head));
        rows.insert(rows.end(), body.begin(), body.end());
    }
    return rows;
}

QString MaskGridModel::threadedText(const QString& iface) const {
    const auto* nif = threadedSwitch(iface);
    if (!nif)
        return {};
    const auto onOff = [](bool on) { return on ? QStringLiteral("on") : QStringLiteral("off"); };
    QString text = QStringLiteral("threaded NAPI ") + onOff(*nif->threadedNapi);
    if (const auto pending = pendingThreaded(iface); pending && *pending != *nif->threadedNapi)
        text += QStringLiteral(" → ") + onOff(*pending);
    return text;
}

QString MaskGridModel::queuesText(const QString& iface) const {
    const auto* nif = m_snap ? m_snap->interface(iface.toStdString()) : nullptr;
    if (!nif)
        return {};
    QStringList parts;
    if (nif->channels && nif->channels->combined.current && nif->channels->combined.max > 1u) {
        QString text =
            QString::number(*nif->channels->combined.current) + QStringLiteral(" queue pairs");
        if (const auto p = pendingCombined(iface); p && *p != *nif->channels->combined.current)
            text += QStringLiteral(" → ") + QString::number(*p);
        parts << text;
    }
    if (nif->rss && !nif->rss->table.empty()) {
        const auto now = RssSpread::of(nif->rss->table, nif->rss->rings);
        QString text = QStringLiteral("RSS ") +
                       (now ? qs(now->toString()) : QStringLiteral("as the driver's table says"));
        if (const auto p = pendingRss(iface); p && (!now || !(*p == *now)))
            text += QStringLiteral(" → ") + qs(p->toString());
        parts << text;
    }
    return parts.join(QStringLiteral("  ·  "));
}

std::optional<std::uint32_t> MaskGridModel::pendingCombined(const QString& iface) const {
    for (const auto& t : m_extras.interfaces)
        if (t.channels.combined && qs(t.interface) == iface)
            return t.channels.combined;
    return std::nullopt;
}

std::optional<RssSpread> MaskGridModel::pendingRss(const QString& iface) const {
    for (const auto& t : m_extras.interfaces)
        if (t.rss && qs(t.interface) == iface)
            return t.rss;
    return std::nullopt;
}

std::optional<bool> MaskGridModel::pendingThreaded(const QString& iface) const {
    for (const auto& t : m_extras.interfaces)
        if (t.threaded && qs(t.interface) == iface)
            return t.threaded;
    return std::nullopt;
}

const NetInterface* MaskGridModel::threadedSwitch(const QString& iface) const {
    const auto* nif = m_snap ? m_snap->interface(iface.toStdString()) : nullptr;
    return nif && nif->threadedNapi ? nif : nullptr;
}

QString MaskGridModel::interfaceOf(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).iface;
}

void MaskGridModel::setSnapshot(SnapshotPtr snap) {
    auto rows = snap ? buildRows(*snap) : std::vector<Row>{};
    const int cpus = snap ? std::max(snap->topology.maskWidth, 1) : 0;
    if (rows == m_rows && cpus == m_cpus) {
        // The same router again: current values move, pending edits stay.
        m_snap = std::move(snap);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            auto& r = m_rows[i];
            const bool unchanged = r.pending == r.current;
            r.current = rows[i].current;
            if (unchanged)
                r.pending = r.current;
        }
        if (!m_rows.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_snap = std::move(snap);
    m_rows = std::move(rows);
    m_cpus = cpus;
    m_extras = {}; // a new router: the old extras mean nothing there
    endResetModel();
    emit extrasChanged();
}

namespace {

// How much an outcome needs the person's attention: the row shows its worst target.
int severity(TargetResult::Status s) {
    switch (s) {
    case TargetResult::Status::Applied:
        return 0;
    case TargetResult::Status::AppliedPending:
        return 1;
    case TargetResult::Status::AppliedDifferently:
        return 2;
    case TargetResult::Status::NotRun:
        return 3;
    case TargetResult::Status::Refused:
        return 4;
    case TargetResult::Status::Failed:
        return 5;
    }
    return 5;
}

} // namespace

void MaskGridModel::setOutcomes(const ApplyReport& report) {
    std::map<std::string, const TargetResult*> byPath;
    for (const auto& t : report.results)
        byPath[t.write.path] = &t;
    for (auto& r : m_rows) {
        r.outcome.reset();
        r.outcomeText.clear();
        for (const auto& p : r.paths) {
            const auto it = byPath.find(p);
            if (it == byPath.end())
                continue;
            const auto& t = *it->second;
            if (r.outcome && severity(*r.outcome) >= severity(t.status))
                continue;
            r.outcome = t.status;
            r.outcomeText = qs(toString(t.status));
            if (t.status == TargetResult::Status::AppliedDifferently)
                r.outcomeText += QStringLiteral(": reads back %1").arg(qs(t.readBack));
            else if (t.status == TargetResult::Status::AppliedPending && !t.effective.empty())
                r.outcomeText += QStringLiteral(" (effective now %1)").arg(qs(t.effective));
            else if (!t.error.empty())
                r.outcomeText += QStringLiteral(": ") + qs(t.error);
        }
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, FirstCpu - 1));
}

void MaskGridModel::setLive(const Rates& rates) {
    std::vector<double> load(static_cast<std::size_t>(std::max(m_cpus, 0)), 0.0);
    for (const auto& c : rates.cores)
        if (c.cpu >= 0 && c.cpu < m_cpus)
            load[static_cast<std::size_t>(c.cpu)] = std::clamp(c.busy(), 0.0, 1.0);
    m_load = std::move(load);
    m_irqRate.clear();
    for (const auto& i : rates.irqs)
        m_irqRate[i.irq] = i.total;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::DisplayRole, CpuLoadRole, Qt::BackgroundRole, Qt::ToolTipRole});
    if (m_cpus > 0)
        emit headerDataChanged(Qt::Horizontal, FirstCpu, columnCount() - 1);
}

void MaskGridModel::setCpuLoad(std::vector<double> load) {
    m_load = std::move(load);
    if (!m_rows.empty() && m_cpus > 0)
        emit dataChanged(index(0, FirstCpu), index(rowCount() - 1, columnCount() - 1),
                         {CpuLoadRole, Qt::BackgroundRole});
    if (m_cpus > 0)
        emit headerDataChanged(Qt::Horizontal, FirstCpu, columnCount() - 1);
}

int MaskGridModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MaskGridModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstCpu + m_cpus;
}

int MaskGridModel::cpuCount() const {
    return m_cpus;
}

MaskGridModel::RowKind MaskGridModel::kind(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).kind;
}

std::optional<CpuMask> MaskGridModel::current(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).current;
}

std::optional<CpuMask> MaskGridModel::pending(int row) const {
    return m_rows.at(static_cast<std::size_t>(row)).pending;
}

int MaskGridModel::changedCount() const {
    const auto rows =
        static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) {
            return r.pending && r.current && !(*r.pending == *r.current);
        }));
    return rows + (m_snap && !m_extras.empty()
                       ? static_cast<int>(resolve(m_extras, *m_snap).changeCount())
                       : 0);
}

QVariant MaskGridModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& r = m_rows[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    const bool heading = r.kind == RowKind::Interface;
    const bool changed = r.pending && r.current && !(*r.pending == *r.current);
    switch (role) {
    case KindRole:
        return static_cast<int>(r.kind);
    case InterfaceRole:
        return r.iface;
    case ChangedRole:
        return changed;
    case OutcomeRole:
        return r.outcome ? QVariant(static_cast<int>(*r.outcome)) : QVariant();
    case Qt::ForegroundRole:
        if (col == Change && r.outcome && severity(*r.outcome) >= 2)
            return QColor(severity(*r.outcome) >= 4 ? 0xc62828 : 0xb26a00);
        return {};
    case Qt::FontRole:
        if (heading || (changed && col < FirstCpu)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        break;
    }
    if (col >= FirstCpu) {
        const int cpu = col - FirstCpu;
        const auto load = static_cast<std::size_t>(cpu) < m_load.size()
                              ? QVariant(m_load[static_cast<std::size_t>(cpu)])
                              : QVariant();
        if (role == CpuLoadRole)
            return load;
        if (heading)
            return {};
        const bool cur = r.current && r.current->test(cpu);
        const bool pen = r.pending && r.pending->test(cpu);
        switch (role) {
        case CurrentRole:
            return cur;
        case PendingRole:
            return pen;
        case Qt::CheckStateRole:
            return pen ? Qt::Checked : Qt::Unchecked;
        case Qt::BackgroundRole:
            if (pen && cur)
                return QColor(0x3b, 0x7d, 0xd8); // kept
            if (pen)
                return QColor(0x4c, 0xaf, 0x50); // added
            if (cur)
                return QColor(0xe5, 0x73, 0x73); // removed
            if (load.isValid()) {
                const double l = std::clamp(load.toDouble(), 0.0, 1.0);
                return QColor::fromHsvF(0.08, 0.6 * l, 1.0); // the hot cores show through
            }
            return {};
        case Qt::ToolTipRole:
            return QStringLiteral("CPU %1: %2 now, %3 after apply")
                .arg(cpu)
                .arg(cur ? QStringLiteral("in") : QStringLiteral("not in"))
                .arg(pen ? QStringLiteral("in") : QStringLiteral("not in"));
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = explain(r.kind);
        if (!r.why.isEmpty())
            tip += QStringLiteral("\n") + r.why;
        if (!r.outcomeText.isEmpty())
            tip += QStringLiteral("\nLast apply: ") + r.outcomeText;
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (role == MaskRole)
        return r.pending ? QVariant(qs(r.pending->toHex(m_cpus))) : QVariant();
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (col) {
    case Target:
        if (r.kind == RowKind::Irq && role == Qt::DisplayRole)
            if (const auto it = m_irqRate.find(r.irq); it != m_irqRate.end())
                return QString(r.label + QStringLiteral("  ·  ") + eventRate(it->second));
        return r.label;
    case Change:
        if (heading && role == Qt::DisplayRole) {
            QStringList parts;
            for (const auto& part : {threadedText(r.iface), queuesText(r.iface)})
                if (!part.isEmpty())
                    parts << part;
            return parts.join(QStringLiteral("  ·  "));
        }
        if (!r.pending || !r.current)
            return {};
        if (role == Qt::EditRole)
            return qs(r.pending->toHex(m_cpus));
        {
            QString text = changed ? QString(qs(r.current->toHex(m_cpus)) + QStringLiteral(" → ") +
                                             qs(r.pending->toHex(m_cpus)))
                                   : qs(r.pending->toHex(m_cpus));
            if (!r.outcomeText.isEmpty())
                text += QStringLiteral("  ") + r.outcomeText;
            return text;
        }
    case CpuList:
        if (!r.pending)
            return {};
        return r.pending->none() ? QString() : qs(r.pending->toList());
    default:
        return {};
    }
}

QVariant MaskGridModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal)
        return {};
    if (section >= FirstCpu && section < columnCount()) {
        const int cpu = section - FirstCpu;
        const auto* cls = m_snap ? m_snap->topology.classOf(cpu) : nullptr;
        if (role == Qt::DisplayRole)
            return QString::number(cpu);
        if (role == CpuClassRole) {
            // The class, and its top frequency where cpufreq gives one: the header shows them
            // once over the CPUs of the class (MaskGridHeader).
            if (!cls || cls->name == "uniform")
                return QStringList();
            std::uint32_t khz = 0;
            for (const auto& c : m_snap->topology.cpus)
                if (cls->cpus.test(c.id) && c.maxFreqKHz)
                    khz = std::max(khz, *c.maxFreqKHz);
            return QStringList{qs(cls->name),
                               khz ? QStringLiteral("%1 GHz").arg(khz / 1e6, 0, 'f', 1)
                                   : QString()};
        }
        if (role == CpuLoadRole && static_cast<std::size_t>(cpu) < m_load.size())
            return m_load[static_cast<std::size_t>(cpu)];
        if (role == Qt::ToolTipRole) {
            QString tip = QStringLiteral("CPU %1").arg(cpu);
            if (cls)
                tip += QStringLiteral(", %1 core").arg(qs(cls->name));
            if (static_cast<std::size_t>(cpu) < m_load.size())
                tip += QStringLiteral(", %1% busy")
                           .arg(qRound(m_load[static_cast<std::size_t>(cpu)] * 100));
            return tip;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Target:
        return QStringLiteral("Interface, IRQ or queue");
    case Change:
        return QStringLiteral("Mask (now → pending)");
    case CpuList:
        return QStringLiteral("CPUs");
    default:
        return {};
    }
}

Qt::ItemFlags MaskGridModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    const auto& r = m_rows[static_cast<std::size_t>(index.row())];
    if (r.kind == RowKind::Interface)
        return Qt::ItemIsEnabled;
    auto f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() >= FirstCpu)
        f |= Qt::ItemIsUserCheckable;
    else if (index.column() == Change || index.column() == CpuList)
        f |= Qt::ItemIsEditable;
    return f;
}

bool MaskGridModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !(flags(index) & (Qt::ItemIsUserCheckable | Qt::ItemIsEditable)))
        return false;
    const int row = index.row();
    const auto& r = m_rows[static_cast<std::size_t>(row)];
    if (!r.pending)
        return false;
    if (index.column() >= FirstCpu) {
        if (role != Qt::CheckStateRole)
            return false;
        auto m = *r.pending;
        const int cpu = index.column() - FirstCpu;
        if (value.toInt() == Qt::Checked)
            m.set(cpu);
        else
            m.set(cpu, false);
        return m_editHook ? m_editHook(row, m) : setPending(row, m);
    }
    if (role != Qt::EditRole)
        return false;
    const auto text = value.toString().trimmed().toStdString();
    const auto m = index.column() == CpuList ? (text.empty() ? std::optional<CpuMask>(CpuMask())
                                                             : CpuMask::fromList(text))
                                             : CpuMask::fromHex(text);
    if (!m)
        return false;
    return m_editHook ? m_editHook(row, *m) : setPending(row, *m);
}

bool MaskGridModel::acceptable(int row, const CpuMask& mask) const {
    if (row < 0 || row >= rowCount())
        return false;
    const auto k = m_rows[static_cast<std::size_t>(row)].kind;
    if (k == RowKind::Interface || (!mask.none() && mask.highest() >= m_cpus))
        return false;
    return !(mask.none() && (k == RowKind::Irq || k == RowKind::Napi || k == RowKind::TxWorker));
}

bool MaskGridModel::setPending(int row, const CpuMask& mask, const QString& why) {
    if (row < 0 || row >= rowCount())
        return false;
    if (!acceptable(row, mask))
        return false; // a CPU this router lacks, or an IRQ or a thread with no CPU at all
    auto& r = m_rows[static_cast<std::size_t>(row)];
    auto m = mask;
    m.setWidth(m_cpus);
    r.pending = m;
    if (!why.isNull())
        r.why = why;
    rowChanged(row);
    return true;
}

void MaskGridModel::clearPending() {
    for (auto& r : m_rows) {
        r.pending = r.current;
        r.why.clear();
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void MaskGridModel::rowChanged(int row) {
    emit dataChanged(index(row, 0), index(row, columnCount() - 1));
}

} // namespace coresteer::ui
