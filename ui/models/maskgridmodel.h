// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// MaskGridModel: the mask grid. Rows are grouped by interface: a heading row per interface,
// then its IRQs (smp_affinity), its receive queues (RPS), its transmit queues (XPS) and its
// threaded-NAPI threads. Columns: the target, current -> pending as hex, the pending mask as an
// editable cpulist, then one column per CPU.
//
// Each row holds the router's current mask and a pending one; a pending mask equal to the
// current one is no change. Edits go through setPending() (the view wraps them in QUndoStack
// commands); pendingLayout() turns the changed rows into a Layout for resolve/apply/persist.
// A new snapshot of the same router keeps the rows and only updates current values (one
// dataChanged); another row set resets the model.
#pragma once

#include "core/layout/apply.h"
#include "core/layout/layout.h"
#include "core/live/sample.h"
#include "ui/base/snapshotptr.h"

#include <QAbstractTableModel>

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace coresteer::ui {

class MaskGridModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Target, Change, CpuList, FirstCpu };
    enum class RowKind { Interface, Irq, RxQueue, TxQueue, Napi, TxWorker };
    enum Role {
        KindRole = Qt::UserRole + 1, // RowKind as int
        CurrentRole,                 // CPU cells: bool, the CPU is in the current mask
        PendingRole,                 // CPU cells: bool, the CPU is in the pending mask
        ChangedRole,                 // any cell: bool, this row's pending mask differs
        MaskRole,                    // Change column: the pending mask, as hex
        CpuLoadRole,                 // CPU cells and header: the CPU's busy share 0..1, or null
        InterfaceRole,               // the interface of the row
        OutcomeRole,  // TargetResult::Status as int, of the last apply on this row, or null
        CpuClassRole, // CPU headers: {class, its top frequency or ""}; empty when uniform
    };

    explicit MaskGridModel(QObject* parent = nullptr);

    void setSnapshot(SnapshotPtr snap);
    SnapshotPtr snapshot() const { return m_snap; }
    // Per-CPU busy share (0..1) for the load shading, indexed by CPU id; empty: none.
    void setCpuLoad(std::vector<double> load);
    // One live tick: each CPU's busy share and each IRQ's rate, in one dataChanged.
    void setLive(const live::Rates& rates);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // CPU cells: Qt::CheckStateRole toggles; CpuList and Change columns: a cpulist or hex mask.
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    // The mask a row has now, and the one pending (nullopt for heading rows).
    std::optional<CpuMask> current(int row) const;
    std::optional<CpuMask> pending(int row) const;
    // Sets the pending mask of a row, and the sentence that explains it (planner, preset).
    // False for heading rows and masks with CPUs this router does not have.
    bool setPending(int row, const CpuMask& mask, const QString& why = {});
    // Edits made through setData (a click, a typed mask) go to this hook when set, so the view
    // can put them on its undo stack; it returns whether the edit was taken.
    void setEditHook(std::function<bool(int row, const CpuMask& mask)> hook) {
        m_editHook = std::move(hook);
    }
    // Whether setPending would take this mask for this row.
    bool acceptable(int row, const CpuMask& mask) const;
    // Every pending mask back to the current one.
    void clearPending();
    int cpuCount() const;
    RowKind kind(int row) const;
    QString interfaceOf(int row) const; // the interface a row belongs to
    // Threaded NAPI as the router has it and as the pending extras switch it: "threaded NAPI
    // off → on" on the interface's heading row; empty where the kernel has no switch for it.
    QString threadedText(const QString& iface) const;
    // The interface of that name where its kernel has the threaded-NAPI switch, else null.
    const NetInterface* threadedSwitch(const QString& iface) const;
    std::optional<bool> pendingThreaded(const QString& iface) const;
    // Queue pairs and the RSS spread as the router has them and as the pending extras set them
    // ("2 queue pairs → 4  ·  RSS equal 2 → default"); empty where ethtool showed neither.
    QString queuesText(const QString& iface) const;
    std::optional<std::uint32_t> pendingCombined(const QString& iface) const;
    std::optional<RssSpread> pendingRss(const QString& iface) const;
    // Rows whose mask changes, and values of the extras that change.
    int changedCount() const;

    // The changed rows as a layout (IRQs by action name and rank, queues by interface); with
    // `everyRow`, every row as it will be after apply (what persist and presets keep).
    layout::Layout pendingLayout(bool everyRow = false) const;
    // The outcome of an apply, per row (the worst of its targets): shown beside the mask
    // until the rows change; an empty report clears them.
    void setOutcomes(const layout::ApplyReport& report);
    // Shows `layout` as pending: each of its targets found on this router becomes that row's
    // pending mask and reason. Returns the targets not on this router (an IRQ the router has
    // but the grid shows no row for is not one: it goes with offGrid()).
    QStringList setPendingLayout(const layout::Layout& layout);

    // What `layout` holds beyond the grid's masks: rps_flow_cnt, rps_sock_flow_entries,
    // coalescing, and IRQs this router has that the grid has no row for. These pending extras
    // go with the masks into pendingLayout(), so apply and persist carry the whole layout.
    layout::Layout offGrid(const layout::Layout& layout) const;
    const layout::Layout& extras() const { return m_extras; }
    void setExtras(layout::Layout extras);

signals:
    // The extras changed (an edit, its undo, a layout shown, a new router).
    void extrasChanged();

private:
    struct Row {
        RowKind kind = RowKind::Interface;
        QString label;
        QString iface;
        std::uint32_t irq = 0; // IRQ rows
        int queue = 0;         // queue rows
        std::optional<CpuMask> current;
        std::optional<CpuMask> pending;
        QString why;
        std::vector<std::string> paths; // what apply writes for this row (Write::path)
        std::optional<layout::TargetResult::Status> outcome;
        QString outcomeText;
        bool operator==(const Row& o) const {
            return kind == o.kind && label == o.label && iface == o.iface;
        }
    };
    static Row makeRow(RowKind kind, QString label, QString iface, std::uint32_t irq, int queue,
                       std::optional<CpuMask> mask);
    std::vector<Row> buildRows(const Snapshot& s) const;
    void rowChanged(int row);

    SnapshotPtr m_snap;
    std::vector<Row> m_rows;
    std::vector<double> m_load;
    std::map<std::uint32_t, double> m_irqRate; // interrupts per second, from the live view
    std::function<bool(int, const CpuMask&)> m_editHook;
    layout::Layout m_extras;
    int m_cpus = 0;
};

} // namespace coresteer::ui
