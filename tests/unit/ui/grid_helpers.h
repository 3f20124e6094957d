// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the mask grid's tests share: a board's snapshot, a row by its label, the writes a layout
// changes, and the grid view shown with its model and undo stack.
#pragma once

#include "core/collect/collect_local.h"
#include "core/layout/resolve.h"
#include "tests/support/board_expect.h"
#include "ui/models/maskgridmodel.h"
#include "ui/views/maskgridview.h"

#include <QApplication>
#include <QMouseEvent>
#include <QUndoStack>

#include <map>
#include <memory>
#include <string>

namespace coresteer::test {

using namespace coresteer::layout;

using namespace coresteer::ui;

inline SnapshotPtr board(const std::string& name) {
    return std::make_shared<const Snapshot>(buildSnapshot(collectLocal(test::boardDir(name))));
}

inline int findRow(const MaskGridModel& m, const QString& label) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, MaskGridModel::Target).data().toString() == label)
            return r;
    return -1;
}

// Path -> value of the writes that change something.
inline std::map<std::string, std::string> changes(const Layout& l, const Snapshot& s) {
    std::map<std::string, std::string> m;
    for (const auto& w : resolve(l, s).writes)
        if (w.changes() && (w.kind == Write::Kind::IrqAffinity || w.kind == Write::Kind::RpsCpus ||
                            w.kind == Write::Kind::XpsCpus || w.kind == Write::Kind::NapiAffinity))
            m[w.path] = w.value;
    return m;
}

struct GridUi {
    MaskGridModel model;
    QUndoStack undo;
    MaskGridView view{&model, &undo};
    explicit GridUi(const std::string& b) : GridUi(board(b)) {}
    explicit GridUi(SnapshotPtr snap) {
        model.setSnapshot(std::move(snap));
        view.resize(1400, 900);
        view.show();
    }
    QPoint cell(int row, int cpu) {
        const auto i = model.index(row, MaskGridModel::FirstCpu + cpu);
        view.scrollTo(i);
        return view.visualRect(i).center();
    }
    void send(QEvent::Type t, QPoint pos, Qt::MouseButton b, Qt::MouseButtons held) {
        QMouseEvent e(t, pos, view.viewport()->mapToGlobal(pos), b, held, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &e);
    }
};

} // namespace coresteer::test
