// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/terminal_prompter.h"

#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <ostream>
#include <termios.h>
#include <unistd.h>

namespace coresteer::ssh {

namespace {
// One question on the terminal at a time: apply asks for several routers in parallel.
std::mutex g_terminal;
} // namespace

TerminalPrompter::TerminalPrompter(std::ostream& err, bool acceptNewHostKeys)
    : m_err(err), m_acceptNew(acceptNewHostKeys) {}

std::optional<std::string> TerminalPrompter::ask(const std::string& prompt, bool echo) {
    const std::lock_guard lock(g_terminal);
    const int fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return std::nullopt; // no terminal: nobody to ask
    termios old{};
    const bool tty = ::tcgetattr(fd, &old) == 0;
    if (tty && !echo) {
        termios quiet = old;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    (void)!::write(fd, prompt.data(), prompt.size());
    std::string answer;
    char c;
    bool ok = false;
    while (::read(fd, &c, 1) == 1) {
        if (c == '\n' || c == '\r') {
            ok = true;
            break;
        }
        if (answer.size() < 4096)
            answer += c;
    }
    if (tty && !echo) {
        ::tcsetattr(fd, TCSAFLUSH, &old);
        (void)!::write(fd, "\n", 1);
    }
    ::close(fd);
    if (!ok)
        return std::nullopt;
    return answer;
}

bool TerminalPrompter::acceptUnknownHostKey(const std::string& target, const HostKey& key) {
    if (m_acceptNew) {
        const std::lock_guard lock(g_terminal);
        m_err << "coresteer-cli: adding the " << key.type << " key of " << target << " ("
              << key.fingerprint << ") to known_hosts\n";
        return true;
    }
    const auto a = ask("The authenticity of " + target + " can't be established.\n" + key.type +
                           " key fingerprint is " + key.fingerprint +
                           ".\nAre you sure you want to continue connecting (yes/no)? ",
                       true);
    return a && *a == "yes";
}

std::optional<std::string> TerminalPrompter::password(const std::string& target) {
    return ask(target + "'s password: ", false);
}

std::optional<std::string> TerminalPrompter::passphrase(const std::string& prompt) {
    return ask(prompt + (prompt.empty() || prompt.back() == ' ' ? "" : " "), false);
}

std::optional<std::vector<std::string>>
TerminalPrompter::keyboardInteractive(const std::string& name, const std::string& instruction,
                                      const std::vector<Prompt>& prompts) {
    if (!name.empty())
        m_err << name << "\n";
    if (!instruction.empty())
        m_err << instruction << "\n";
    std::vector<std::string> answers;
    for (const auto& p : prompts) {
        auto a = ask(p.text, p.echo);
        if (!a)
            return std::nullopt;
        answers.push_back(std::move(*a));
    }
    return answers;
}

} // namespace coresteer::ssh
