// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/logging.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace {

std::atomic<bool> g_quit{false};

extern "C" void onSignal(int) {
    g_quit.store(true);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("coresteer"));
    QApplication::setOrganizationName(QStringLiteral("coresteer"));
    QApplication::setApplicationVersion(QStringLiteral(CORESTEER_VERSION));
    // The installed desktop file's name: the shell finds the icon and groups the windows by it.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.coresteer.coresteer"));
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Spread a Linux router's NIC interrupts and packet steering across its cores.\n"
        "With no argument it opens the built-in demo router."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption local(QStringLiteral("this-computer"),
                             QStringLiteral("Open this machine's own /proc and /sys."));
    QCommandLineOption quitAfter(QStringLiteral("quit-after"),
                                 QStringLiteral("Quit after MS milliseconds (for tests)."),
                                 QStringLiteral("MS"));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("With --quit-after: save the window as a PNG just before quitting."),
        QStringLiteral("FILE"));
    QCommandLineOption verbose(
        QStringLiteral("verbose"),
        QStringLiteral("Log what happens (the coresteer.* logging categories) on stderr."));
    parser.addOption(verbose);
    parser.addOption(local);
    parser.addOption(quitAfter);
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("root"),
                                 QStringLiteral("A /proc and /sys tree on this machine to open."),
                                 QStringLiteral("[root]"));
    parser.process(app);
    coresteer::ui::installLogging(parser.isSet(verbose));

    coresteer::ui::MainWindow w;
    const auto args = parser.positionalArguments();
    if (!args.isEmpty())
        w.loadRoot(args.first());
    else if (parser.isSet(local))
        w.openThisComputer();
    else
        w.openDemo();
    w.show();

    // SIGINT and SIGTERM end the event loop, so the window saves its state and the
    // connection threads are joined as on a normal quit.
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&w] {
        if (g_quit.load())
            w.close();
    });
    poll.start(100);
    if (parser.isSet(quitAfter)) {
        bool ok = false;
        const int ms = parser.value(quitAfter).toInt(&ok);
        if (!ok || ms < 0) {
            fprintf(stderr, "coresteer: --quit-after takes milliseconds\n");
            return 2;
        }
        const QString shot = parser.value(screenshot);
        QTimer::singleShot(ms, &w, [&w, shot] {
            if (!shot.isEmpty() && !w.grab().save(shot))
                fprintf(stderr, "coresteer: cannot write %s\n", qPrintable(shot));
            w.close();
        });
    }
    return QApplication::exec();
}
