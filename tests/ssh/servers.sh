#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts (or stops) a real OpenSSH sshd and a real dropbear on free ports of 127.0.0.1 for the
# tests and the benchmark, with generated host and client keys and a test user with a password.
#
#   servers.sh start DIR   writes DIR/env (shell assignments) and leaves both servers running
#   servers.sh stop DIR    stops them
#
# Needs root: it creates the user coresteer-test (no login shell beyond /bin/sh, home under
# /home) once, and sshd must run as root to log other users in. Nothing listens beyond 127.0.0.1.
set -euo pipefail
cmd=${1:?start or stop}
dir=$(realpath -m "${2:?directory}")
user=coresteer-test
password='Cs-test-pw-7'

free_port() { # a port on 127.0.0.1 where nothing listens now
    local p
    while :; do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
    done
}

wait_port() { # wait_port PORT PID
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        kill -0 "$2" 2>/dev/null || { echo "servers.sh: server on port $1 died" >&2; return 1; }
        sleep 0.05
    done
    echo "servers.sh: nothing listens on 127.0.0.1:$1" >&2
    return 1
}

stop() {
    for f in "$dir"/sshd.pid "$dir"/dropbear.pid; do
        if [ -f "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
        rm -f "$f"
    done
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "servers.sh: must run as root (to start sshd and create $user)" >&2; exit 1; }
stop
mkdir -p "$dir"
chmod 755 "$dir"

# The test user, with a password for the password and keyboard-interactive paths.
if ! id "$user" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/sh "$user"
fi
echo "$user:$password" | chpasswd
home=$(getent passwd "$user" | cut -d: -f6)

# Keys: host keys for both servers (and a second one to play a changed key), client keys with and
# without a passphrase. Made once per directory.
[ -f "$dir/host_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C host -f "$dir/host_ed25519"
[ -f "$dir/other_host_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C other -f "$dir/other_host_ed25519"
[ -f "$dir/other_host_ecdsa" ] || ssh-keygen -q -t ecdsa -N '' -C other-type -f "$dir/other_host_ecdsa"
[ -f "$dir/client_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C client -f "$dir/client_ed25519"
[ -f "$dir/client_pp_ed25519" ] ||
    ssh-keygen -q -t ed25519 -N 'correct horse' -C client-pp -f "$dir/client_pp_ed25519"
[ -f "$dir/client_sampler_ed25519" ] ||
    ssh-keygen -q -t ed25519 -N '' -C client-sampler -f "$dir/client_sampler_ed25519"
[ -f "$dir/dropbear_host" ] || dropbearkey -t ed25519 -f "$dir/dropbear_host" >/dev/null 2>&1
chmod 644 "$dir"/*.pub
# A router whose sampler misbehaves: the sampler key's sessions run the command as sent, with
# fake_sampler.sh first on PATH as mawk and awk. The key's forced command, which sshd and
# dropbear both honour, is a script that sets PATH and runs the original command.
install -d -m 755 "$dir/fakebin"
for awk in mawk awk; do
    install -m 755 "$(dirname "$(realpath "$0")")/fake_sampler.sh" "$dir/fakebin/$awk"
done
cat > "$dir/fake_sampler_session" <<SESSION
#!/bin/sh
PATH=$dir/fakebin:\$PATH
export PATH
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
SESSION
chmod 755 "$dir/fake_sampler_session"
{
    cat "$dir/client_ed25519.pub" "$dir/client_pp_ed25519.pub"
    printf 'command="%s",no-pty %s\n' "$dir/fake_sampler_session" \
        "$(cat "$dir/client_sampler_ed25519.pub")"
} > "$dir/authorized_keys"
chmod 644 "$dir/authorized_keys"
# dropbear only reads ~/.ssh/authorized_keys: add the test keys there once.
install -d -m 700 -o "$user" -g "$user" "$home/.ssh"
touch "$home/.ssh/authorized_keys"
while read -r line; do
    grep -qxF "$line" "$home/.ssh/authorized_keys" || echo "$line" >> "$home/.ssh/authorized_keys"
done < "$dir/authorized_keys"
chown "$user:$user" "$home/.ssh/authorized_keys"
chmod 600 "$home/.ssh/authorized_keys"
# The test user's own client key, for the `ssh -W` that a ProxyJump runs as that user.
install -m 600 -o "$user" -g "$user" "$dir/client_ed25519" "$home/.ssh/id_ed25519"
install -m 644 -o "$user" -g "$user" "$dir/client_ed25519.pub" "$home/.ssh/id_ed25519.pub"

sshd_port=$(free_port)
cat > "$dir/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $sshd_port
HostKey $dir/host_ed25519
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
StrictModes no
UsePAM yes
PubkeyAuthentication yes
PasswordAuthentication yes
KbdInteractiveAuthentication yes
PermitRootLogin no
AllowUsers $user
X11Forwarding no
PrintMotd no
LogLevel ERROR
CONF
mkdir -p /run/sshd
/usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log"
sleep 0.1
wait_port "$sshd_port" "$(cat "$dir/sshd.pid")"

dropbear_port=$(free_port)
/usr/sbin/dropbear -r "$dir/dropbear_host" -p "127.0.0.1:$dropbear_port" -P "$dir/dropbear.pid" \
    -w 2>"$dir/dropbear.log"
sleep 0.1
wait_port "$dropbear_port" "$(cat "$dir/dropbear.pid")"

# ... and its known_hosts for the jump host (sshd), so the jump needs no question.
printf '[127.0.0.1]:%s %s\n' "$sshd_port" "$(cut -d' ' -f1-2 "$dir/host_ed25519.pub")" > "$home/.ssh/known_hosts"
chown "$user:$user" "$home/.ssh/known_hosts"

cat > "$dir/env" <<ENV
CS_SSH_USER=$user
CS_SSH_PASSWORD=$password
CS_SSHD_PORT=$sshd_port
CS_DROPBEAR_PORT=$dropbear_port
CS_CLIENT_KEY=$dir/client_ed25519
CS_CLIENT_PP_KEY=$dir/client_pp_ed25519
CS_CLIENT_PP='correct horse'
CS_SAMPLER_KEY=$dir/client_sampler_ed25519
CS_HOST_KEY=$dir/host_ed25519
CS_OTHER_HOST_KEY=$dir/other_host_ed25519
CS_OTHER_TYPE_HOST_KEY=$dir/other_host_ecdsa
CS_DROPBEAR_HOST_KEY=$dir/dropbear_host
ENV
echo "sshd on 127.0.0.1:$sshd_port, dropbear on 127.0.0.1:$dropbear_port"
