// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// Names a router controls, made hostile: valid UTF-8 with controls in it, and bytes that are not
// UTF-8, in a copy of the NanoPi R6S fixture (its PCIe NICs' vectors are attributed by msi_irqs,
// so they stay in a plan whatever their action names). For the tests of every JSON writer.
#pragma once

#include "tests/support/board_expect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace coresteer::test {

using namespace std::string_literals;

// Valid UTF-8 that is still hostile: é, U+2028, NEL and CSI (C1), SOH and ESC (C0), a NUL.
inline const std::string kValidIrq =
    "eth1-TxRx-0-\xc3\xa9\xe2\x80\xa8\xc2\x85\xc2\x9b\x01\x1b[31m\0x"s;
// Not UTF-8: a stray continuation byte, 0xff, an overlong '/', a surrogate, a cut sequence.
inline const std::string kInvalidIrq = "eth2-TxRx-0-\x80\xff\xc0\xaf\xed\xa0\x80\xe2\x80"s;
// Interface names: the kernel forbids '/' and NUL in them, nothing else.
inline const std::string kValidIf = "wan-\xc3\xa9\xe2\x80\xa8\xc2\x85\x01\x1b";
inline const std::string kInvalidIf = "wan-\xff\xc0\xaf";

// The fixture copied to `root`, with those names as IRQ actions and interfaces, and a hostname
// and board name that are neither printable nor UTF-8.
inline void makeHostileRoot(const std::filesystem::path& root) {
    std::filesystem::remove_all(root);
    copyBoard("nanopi-r6s-openwrt", root);
    auto irqs = slurp(root / "proc/interrupts");
    for (const auto& [from, to] :
         {std::pair{"Edge      eth1\n"s, "Edge      " + kValidIrq + "\n"},
          std::pair{"Edge      eth2\n"s, "Edge      " + kInvalidIrq + "\n"}}) {
        const auto at = irqs.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        irqs.replace(at, from.size(), to);
    }
    std::ofstream(root / "proc/interrupts", std::ios::binary) << irqs;
    std::ofstream(root / "proc/uptime") << "1000.00 2000.00\n"; // for the live sampler
    std::ofstream(root / "proc/sys/kernel/hostname", std::ios::binary)
        << "r\xc3\xa9\xff\x01\xe2\x80\xa8\n";
    std::filesystem::create_directories(root / "tmp/sysinfo");
    std::ofstream(root / "tmp/sysinfo/board_name", std::ios::binary)
        << "b\xc3\xa9\xff\x1b\xc2\x9b\n";
    for (const auto& name : {kValidIf, kInvalidIf}) {
        const auto dir = root / "sys/class/net" / name;
        std::filesystem::create_directories(dir / "queues/rx-0");
        std::ofstream(dir / "ifindex") << "40\n";
        std::ofstream(dir / "operstate") << "up\n";
        std::ofstream(dir / "queues/rx-0/rps_cpus") << "03\n";
    }
}

} // namespace coresteer::test
