// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The floor under any sampler: on each line of stdin, reads /proc/uptime, /proc/stat,
// /proc/softirqs, /proc/interrupts and /proc/net/dev whole with read(2) into one buffer, looks
// at nothing, and writes 400 bytes, about what the sampler sends under mawk. sampler_cost.sh
// --candidates runs it as the remote command, to tell what the kernel and the transport cost
// from what the awk adds.
//   proc_reader
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

int main() {
    static char buf[1 << 16], line[256], out[400];
    const char* files[] = {"/proc/uptime", "/proc/stat", "/proc/softirqs", "/proc/interrupts",
                           "/proc/net/dev"};
    std::memset(out, 'x', sizeof out);
    out[sizeof out - 1] = '\n';
    while (::read(0, line, sizeof line) > 0) {
        for (const char* f : files) {
            const int fd = ::open(f, O_RDONLY);
            if (fd < 0)
                return 1;
            while (::read(fd, buf, sizeof buf) > 0) {
            }
            ::close(fd);
        }
        if (::write(1, out, sizeof out) != static_cast<ssize_t>(sizeof out))
            return 1;
    }
    return 0;
}
