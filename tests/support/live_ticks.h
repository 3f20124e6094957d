// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The live samples a connection delivers, counted on the UI thread. A QSignalSpy on
// Connection::live would record them on the worker thread that emits them, and Qt 6.4's spy is
// not safe across threads (its wait() can return false while a sample arrives).
#pragma once

#include "ui/connection.h"

#include <QObject>
#include <QTest>

#include <vector>

namespace coresteer::test {

class LiveTicks : public QObject {
public:
    explicit LiveTicks(ui::Connection* c) {
        QObject::connect(
            c, &ui::Connection::live, this,
            [this](quint64, ui::RatesPtr r) { m_rates.push_back(std::move(r)); },
            Qt::QueuedConnection);
    }
    int count() const { return static_cast<int>(m_rates.size()); }
    // Waits until `n` samples are here (at most `ms`).
    bool waitFor(int n, int ms = 5000) {
        return QTest::qWaitFor([&] { return count() >= n; }, ms);
    }
    // One more sample than now, within `ms`.
    bool waitNext(int ms = 5000) { return waitFor(count() + 1, ms); }
    const ui::RatesPtr& last() const { return m_rates.back(); }
    void clear() { m_rates.clear(); }

private:
    std::vector<ui::RatesPtr> m_rates;
};

} // namespace coresteer::test
