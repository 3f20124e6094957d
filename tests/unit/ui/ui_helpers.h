// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the UI tests share: board fixtures as snapshots, a model's cells, screenshots that must
// not be blank, a free loopback port, the Live tab's test stopped and waited for, and the log
// messages kept for the logging test.
#pragma once

#include "core/collect/collect_local.h"
#include "tests/support/board_expect.h"
#include "tests/support/loopback_port.h"
#include "ui/connection.h"
#include "ui/live/livepanel.h"

#include <QAbstractItemModel>
#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTest>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <filesystem>
#include <memory>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace coresteer::test {

inline ui::SnapshotPtr load(const std::string& board) {
    return std::make_shared<const Snapshot>(buildSnapshot(collectLocal(boardDir(board))));
}

// A cell of `model`'s top level in `role`.
inline QVariant cell(const QAbstractItemModel& model, int row, int column,
                     int role = Qt::DisplayRole) {
    return model.index(row, column).data(role);
}

// Saves the picture under the screenshot folder and checks that it shows something.
inline void expectNotBlank(const QImage& img, const QString& file) {
    std::filesystem::create_directories(CORESTEER_SCREENSHOT_DIR);
    ASSERT_TRUE(img.save(file)) << file.toStdString();
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            colours.insert(img.pixel(x, y));
    EXPECT_GT(colours.size(), 30) << file.toStdString();
    EXPECT_GT(QFileInfo(file).size(), 20000) << file.toStdString();
}

// Stops the Live tab's test and waits for its end: the test runs on the connection's worker,
// and its recording comes back queued.
inline bool stopTestAndWait(ui::LivePanel& panel, int ms = 20000) {
    panel.stopTest();
    return QTest::qWaitFor([&] { return !panel.testRunning(); }, ms);
}

} // namespace coresteer::test
