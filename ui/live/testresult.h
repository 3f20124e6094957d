// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The bufferbloat test's result as the Live tab says it, in HTML: while the test runs, the
// grade so far with the probe it comes from and how that probe measures; after the test, one
// card with the throughput each way beside the grade (the load generator's, or the demo's
// model's), each phase's grade and the load's throughput in it, each way's delay to an irtt
// server, and the busiest core. A finished replay says its recording's grade and throughput.
// Also the names of the test's phases as the heatmap marks them.
#pragma once

#include "core/live/recording.h"

#include <QCoreApplication>
#include <QString>

#include <functional>

namespace coresteer::ui {

class BufferbloatTest;

class TestResult {
    Q_DECLARE_TR_FUNCTIONS(TestResult)
public:
    // "download", "upload", "both" as shown; any other phase is "load".
    static QString phaseLabel(const QString& name);
    // What `test` has measured so far, or its card once it has ended; `coreLabel` names a CPU
    // as the heatmap does.
    static QString text(const BufferbloatTest& test, const std::function<QString(int)>& coreLabel);
    // A replayed recording's grade (empty when it has none).
    static QString ofRecording(const live::Recording& recording);
    // The load's throughput each way, as measured under it: download in the phases that load
    // downward (download, both, a load of the person's own), upload in those that load upward;
    // empty when no load generator (nor the demo's model) reported any.
    static QString throughput(const live::RecordingSummary& summary);

private:
    static QString card(const BufferbloatTest& test, const QString& probe,
                        const std::function<QString(int)>& coreLabel);
};

} // namespace coresteer::ui
