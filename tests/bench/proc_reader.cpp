// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// The floor under any sampler: on each line of stdin, reads /proc/uptime, /proc/stat,
// /proc/softirqs, /proc/interrupts and /proc/net/dev (or the files given) whole with read(2)
// into one buffer, looks at nothing, and writes 400 bytes, about what the sampler sends under
// mawk. sampler_cost.sh --candidates runs it as the remote command, to tell what the kernel and
// the transport cost from what the awk adds, and with /proc/stat alone, what the least a tick
// of per-core load can cost.
//   proc_reader [FILE...]
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

int main(int argc, char** argv) {
    static char buf[1 << 16], line[256], out[400];
    const char* five[] = {"/proc/uptime", "/proc/stat", "/proc/softirqs", "/proc/interrupts",
                          "/proc/net/dev"};
    const char* const* files = argc > 1 ? argv + 1 : five;
    const int count = argc > 1 ? argc - 1 : 5;
    std::memset(out, 'x', sizeof out);
    out[sizeof out - 1] = '\n';
    while (::read(0, line, sizeof line) > 0) {
        for (int i = 0; i < count; ++i) {
            const int fd = ::open(files[i], O_RDONLY);
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
