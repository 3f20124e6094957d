#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("coresteer"));
    QApplication::setOrganizationName(QStringLiteral("coresteer"));
    QApplication::setApplicationVersion(QStringLiteral(CORESTEER_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Spread a Linux router's NIC interrupts and packet steering across its cores."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("root"),
        QStringLiteral("Root of the /proc and /sys tree to show (default: this machine, /)."));
    parser.process(app);

    coresteer::ui::MainWindow w;
    const auto args = parser.positionalArguments();
    w.loadRoot(args.isEmpty() ? QStringLiteral("/") : args.first());
    w.show();
    return QApplication::exec();
}
