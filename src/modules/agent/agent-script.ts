/**
 * The monitoring agent served by `GET /api/agent/install.sh`: POSIX sh, no dependencies beyond
 * awk, df and curl or wget. The server never embeds a token or URL in it; both are passed when
 * it is run or installed. The token never appears on a command line (visible in `ps`): curl reads
 * the header from stdin, GNU wget from a private WGETRC file. (Plain sh, so no `${...}` forms: the
 * text lives in a JS template literal.)
 */
export const AGENT_SCRIPT = String.raw`#!/bin/sh
# Fleet Admin monitoring agent: posts CPU, memory and disk usage every 30 s.
#
#   FLEET_AGENT_TOKEN=<token> sh install.sh --url https://fleet.example.com --once
#   sh install.sh --url https://fleet.example.com --token-file /opt/fleet-agent/token
#   FLEET_AGENT_TOKEN=<token> sh install.sh --url https://fleet.example.com --install
#
# --once     post one heartbeat and exit (status 0 when it was accepted)
# --cron     post twice, 30 s apart (for a once-a-minute cron entry)
# --install  copy this script and the token to /opt/fleet-agent (root) or ~/.fleet-agent and
#            run it as a systemd unit, else from cron, else as a detached background process
# The token comes from --token-file or FLEET_AGENT_TOKEN; the URL from --url or FLEET_API_URL.

# awk must print decimal points, whatever the locale.
LC_ALL=C
export LC_ALL
URL=$FLEET_API_URL
TOKEN_FILE=$FLEET_AGENT_TOKEN_FILE
INTERVAL=30
MODE=loop
DISK_PATH=/
DIR=""
# Sent with every heartbeat, shown on the monitoring page.
AGENT_VERSION=1.1.0

usage() {
  echo "usage: $0 --url URL [--token-file FILE] [--once | --cron | --install [--dir DIR]] [--interval SECONDS] [--disk-path PATH]" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --url) [ $# -ge 2 ] || usage; URL=$2; shift 2 ;;
    --token-file) [ $# -ge 2 ] || usage; TOKEN_FILE=$2; shift 2 ;;
    --interval) [ $# -ge 2 ] || usage; INTERVAL=$2; shift 2 ;;
    --disk-path) [ $# -ge 2 ] || usage; DISK_PATH=$2; shift 2 ;;
    --dir) [ $# -ge 2 ] || usage; DIR=$2; shift 2 ;;
    --once) MODE=once; shift ;;
    --cron) MODE=cron; shift ;;
    --install) MODE=install; shift ;;
    -h | --help) usage ;;
    *) echo "fleet-agent: unknown argument: $1" >&2; usage ;;
  esac
done

URL=$(printf '%s' "$URL" | sed 's:/*$::')
[ -n "$URL" ] || { echo "fleet-agent: --url (or FLEET_API_URL) is required" >&2; usage; }
case "$INTERVAL" in '' | *[!0-9]*) usage ;; esac
[ "$INTERVAL" -ge 5 ] || INTERVAL=5

read_token() {
  if [ -n "$TOKEN_FILE" ]; then
    [ -r "$TOKEN_FILE" ] || return 1
    TOKEN=$(head -n 1 "$TOKEN_FILE" | tr -d ' \t\r\n')
  else
    TOKEN=$FLEET_AGENT_TOKEN
  fi
  [ -n "$TOKEN" ]
}

cpu_times() {
  awk '/^cpu / { t = 0; for (i = 2; i <= 9 && i <= NF; i++) t += $i; print t, $5 + $6; exit }' /proc/stat 2>/dev/null
}

# Usage since the previous sample (the whole interval); the first time over one second.
PREV=""
cpu_percent() {
  if [ -z "$PREV" ]; then PREV=$(cpu_times); sleep 1; fi
  NOW=$(cpu_times)
  CPU=$(printf '%s %s\n' "$PREV" "$NOW" | awk 'NF == 4 { dt = $3 - $1; di = $4 - $2; v = 0; if (dt > 0) v = (dt - di) * 100 / dt; if (v < 0) v = 0; if (v > 100) v = 100; printf "%.1f", v; exit } { printf "0" }')
  PREV=$NOW
}

mem_percent() {
  awk '/^MemTotal:/ { t = $2 } /^MemAvailable:/ { a = $2; h = 1 } /^MemFree:/ { f = $2 } /^Buffers:/ { b = $2 } /^Cached:/ { c = $2 }
    END { if (!h) a = f + b + c; v = 0; if (t > 0) v = (t - a) * 100 / t; if (v < 0) v = 0; if (v > 100) v = 100; printf "%.1f", v }' /proc/meminfo 2>/dev/null
}

disk_percent() {
  df -P "$DISK_PATH" 2>/dev/null | awk 'NR == 2 { v = $5; sub(/%/, "", v); v = v + 0; if (v > 100) v = 100; printf "%d", v }'
}

collect() {
  cpu_percent
  mem=$(mem_percent)
  disk=$(disk_percent)
  BODY="{\"cpu\":$CPU,\"mem\":$([ -n "$mem" ] && echo "$mem" || echo 0),\"disk\":$([ -n "$disk" ] && echo "$disk" || echo 0),\"ts\":$(date +%s)"
  load=$(awk '{ printf "%s", $1 }' /proc/loadavg 2>/dev/null)
  [ -n "$load" ] && BODY="$BODY,\"load\":$load"
  up=$(awk '{ printf "%d", $1 }' /proc/uptime 2>/dev/null)
  [ -n "$up" ] && BODY="$BODY,\"uptime\":$up"
  BODY="$BODY,\"version\":\"$AGENT_VERSION\"}"
}

post() {
  read_token || { echo "fleet-agent: no token (use --token-file or FLEET_AGENT_TOKEN)" >&2; return 1; }
  endpoint="$URL/api/agent/heartbeat"
  if command -v curl >/dev/null 2>&1; then
    printf 'header = "Authorization: Bearer %s"\n' "$TOKEN" |
      curl -fsS -m 10 -o /dev/null -K - -H 'Content-Type: application/json' --data-binary "$BODY" "$endpoint"
  elif command -v wget >/dev/null 2>&1; then
    if wget --help 2>&1 | grep -qi busybox; then
      # BusyBox wget reads no config file: --header is its only way to send the token.
      wget -q -T 10 -O /dev/null --header "Authorization: Bearer $TOKEN" --header 'Content-Type: application/json' \
        --post-data "$BODY" "$endpoint"
    else
      rc=$(mktemp) || return 1
      printf 'header = Authorization: Bearer %s\n' "$TOKEN" >"$rc"
      WGETRC=$rc wget -q -T 10 -t 1 -O /dev/null --header='Content-Type: application/json' --post-data="$BODY" "$endpoint"
      st=$?
      rm -f "$rc"
      return $st
    fi
  else
    echo "fleet-agent: neither curl nor wget is installed" >&2
    return 1
  fi
}

beat() {
  collect
  post || { echo "fleet-agent: heartbeat to $URL failed" >&2; return 1; }
}

# Single-quotes one word for sh (a ' inside becomes '\'').
shq() {
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# Drops our line from the user's crontab, if it has one.
remove_cron_line() {
  command -v crontab >/dev/null 2>&1 || return 0
  crontab -l 2>/dev/null | grep -q '# fleet-agent$' || return 0
  crontab -l 2>/dev/null | grep -v '# fleet-agent$' | crontab -
}

stop_background_agent() {
  [ -f "$DIR/agent.pid" ] || return 0
  pid=$(cat "$DIR/agent.pid" 2>/dev/null)
  case "$pid" in '' | *[!0-9]*) ;; *)
    if tr '\000' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'agent.sh'; then kill "$pid" 2>/dev/null; fi ;;
  esac
  rm -f "$DIR/agent.pid"
}

install_agent() {
  read_token || { echo "fleet-agent: no token to install (use --token-file or FLEET_AGENT_TOKEN)" >&2; exit 2; }
  if [ -z "$DIR" ]; then
    if [ "$(id -u)" = 0 ]; then DIR=/opt/fleet-agent; else DIR="$HOME/.fleet-agent"; fi
  fi
  # These would need a different escape in each of sh, a crontab line and a unit file.
  nl='
'
  case "$DIR$URL" in *[%\"\\\$\`]* | *"$nl"*)
    echo 'fleet-agent: the install directory and URL may not contain %, ", \, $, a backquote or a newline' >&2
    exit 2 ;;
  esac
  umask 077
  mkdir -p "$DIR" && chmod 700 "$DIR" || exit 1
  if [ "$0" != "$DIR/agent.sh" ]; then
    [ -f "$0" ] || { echo "fleet-agent: save this script to a file and run it from there to install" >&2; exit 2; }
    cp "$0" "$DIR/agent.sh.new" && mv "$DIR/agent.sh.new" "$DIR/agent.sh" || exit 1
  fi
  if [ "$TOKEN_FILE" != "$DIR/token" ]; then
    printf '%s\n' "$TOKEN" >"$DIR/token.new" && mv "$DIR/token.new" "$DIR/token" || exit 1
  fi
  chmod 600 "$DIR/token"
  stop_background_agent
  if [ "$(id -u)" = 0 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    cat >/etc/systemd/system/fleet-agent.service <<EOF
[Unit]
Description=Fleet Admin monitoring agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=/bin/sh "$DIR/agent.sh" --url "$URL" --token-file "$DIR/token" --interval $INTERVAL
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
EOF
    chmod 644 /etc/systemd/system/fleet-agent.service
    systemctl daemon-reload && systemctl enable fleet-agent >/dev/null 2>&1 && systemctl restart fleet-agent || exit 1
    remove_cron_line
    METHOD=systemd
  elif command -v crontab >/dev/null 2>&1; then
    line="* * * * * /bin/sh $(shq "$DIR/agent.sh") --cron --url $(shq "$URL") --token-file $(shq "$DIR/token") >/dev/null 2>&1 # fleet-agent"
    { crontab -l 2>/dev/null | grep -v '# fleet-agent$'; printf '%s\n' "$line"; } | crontab - || exit 1
    METHOD=cron
  else
    # Neither systemd nor cron: a detached process (it does not survive a reboot).
    if command -v setsid >/dev/null 2>&1; then
      setsid /bin/sh "$DIR/agent.sh" --url "$URL" --token-file "$DIR/token" --interval "$INTERVAL" >/dev/null 2>&1 </dev/null &
    else
      nohup /bin/sh "$DIR/agent.sh" --url "$URL" --token-file "$DIR/token" --interval "$INTERVAL" >/dev/null 2>&1 </dev/null &
    fi
    echo $! >"$DIR/agent.pid"
    METHOD=background
  fi
  echo "fleet-agent installed: method=$METHOD dir=$DIR"
}

case "$MODE" in
  once) beat; exit $? ;;
  cron) beat; sleep 30; beat; exit $? ;;
  install) install_agent; exit 0 ;;
esac

while :; do
  # Removing the token file (uninstall) stops the agent.
  if [ -n "$TOKEN_FILE" ] && [ ! -f "$TOKEN_FILE" ]; then exit 0; fi
  beat
  sleep "$INTERVAL"
done
`;
