// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// What the UI tests share: board fixtures as snapshots, screenshots that must not be blank, a
// free loopback port, and the log messages kept for the logging test.
#pragma once

#include "core/collect/collect_local.h"
#include "tests/support/board_expect.h"
#include "ui/connection.h"

#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QString>
#include <QStringList>

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

// A port on 127.0.0.1 that nothing listens on now.
inline int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        return -1;
    ::close(fd);
    return ntohs(a.sin_port);
}

} // namespace coresteer::test
