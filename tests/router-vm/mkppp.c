// SPDX-FileCopyrightText: 2026 coresteer maintainers
// SPDX-License-Identifier: GPL-3.0-or-later
// mkppp NAME: a PPP interface in the emulated router as pppd makes one, for the tests of upper
// devices (the router has no pppd). It opens /dev/ppp, asks ppp_generic for a new unit
// (PPPIOCNEWUNIT: the kernel makes pppN, type 512, and sends its add event), renames it to NAME
// (SIOCSIFNAME, as pppd does with its "ifname" option, which netifd's ppp.sh sets to
// pppoe-wan), prints NAME and holds the unit until it is killed; the interface goes with it.
#include <linux/ppp-ioctl.h>
#include <net/if.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc != 2 || strlen(argv[1]) >= IFNAMSIZ) {
        fprintf(stderr, "usage: mkppp NAME (at most %d bytes)\n", IFNAMSIZ - 1);
        return 2;
    }
    const int fd = open("/dev/ppp", O_RDWR);
    if (fd < 0) {
        perror("/dev/ppp");
        return 1;
    }
    int unit = -1;
    if (ioctl(fd, PPPIOCNEWUNIT, &unit) < 0) {
        perror("PPPIOCNEWUNIT");
        return 1;
    }
    const int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "ppp%d", unit);
    memcpy(ifr.ifr_newname, argv[1], strlen(argv[1]));
    if (s < 0 || ioctl(s, SIOCSIFNAME, &ifr) < 0) {
        perror("SIOCSIFNAME");
        return 1;
    }
    printf("%s\n", argv[1]);
    fflush(stdout);
    for (;;)
        pause();
}
