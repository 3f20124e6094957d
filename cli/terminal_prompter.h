// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Prompter for the command line: asks on the controlling terminal, as ssh does.
#pragma once

#include "core/ssh/session.h"

#include <iosfwd>

namespace coresteer::ssh {

class TerminalPrompter : public Prompter {
public:
    // `acceptNewHostKeys`: take an unknown host key without asking (never a changed one).
    TerminalPrompter(std::ostream& err, bool acceptNewHostKeys);

    bool acceptUnknownHostKey(const std::string& target, const HostKey& key) override;
    std::optional<std::string> password(const std::string& target) override;
    std::optional<std::string> passphrase(const std::string& prompt) override;
    std::optional<std::vector<std::string>>
    keyboardInteractive(const std::string& name, const std::string& instruction,
                        const std::vector<Prompt>& prompts) override;

private:
    std::optional<std::string> ask(const std::string& prompt, bool echo);
    std::ostream& m_err;
    bool m_acceptNew;
};

} // namespace coresteer::ssh
