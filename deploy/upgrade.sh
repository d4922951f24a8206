#!/bin/sh
# An upgrade while tables play, as root: the new version installed, a backup, the migrations,
# then each app server restarted in turn, the next only once the last answers again, so Caddy
# always has one to send phones to.
#   upgrade.sh scorekeeper-X.Y.Z-py3-none-any.whl requirements.txt
set -eu
if [ $# -ne 2 ]; then
    echo "upgrade.sh WHEEL requirements.txt" >&2
    exit 2
fi
set -a
. /etc/scorekeeper/scorekeeper.env
set +a
venv=/opt/scorekeeper/venv
as_app() { runuser -u scorekeeper -- "$@"; }
"$venv/bin/pip" install --quiet --require-hashes --only-binary :all: -r "$2"
"$venv/bin/pip" install --quiet --no-deps --force-reinstall "$1"
as_app "$venv/bin/flask" --app scorekeeper backup --before-upgrade
as_app "$venv/bin/flask" --app scorekeeper db upgrade
as_app "$venv/bin/flask" --app scorekeeper games rebuild --if-stale
for unit in $(systemctl list-units --plain --no-legend 'scorekeeper@*.service' | awk '{print $1}'); do
    port=${unit#scorekeeper@}; port=${port%.service}
    systemctl restart "$unit"
    "$venv/bin/python" - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(120):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/manifest.webmanifest", timeout=2)
        break
    except OSError:
        time.sleep(0.5)
else:
    sys.exit(f"The app server on port {sys.argv[1]} did not answer after its restart: journalctl -u scorekeeper@{sys.argv[1]}")
PY
    # Until Caddy sends to it again (its health check every 2 s, fail_duration 2 s): only then
    # may the next one stop.
    sleep 5
    echo "$unit restarted"
done
