#!/usr/bin/env bash
# catsim's driver adapter for the MCP Inspector CLI (@modelcontextprotocol/inspector-cli 1.0.3,
# catsim.driver.v1, docs/BLACK-BOX.md). The Inspector runs unchanged: every step is one run of its
# command line, as a person at a terminal would use it (--method tools/list, --method tools/call),
# against the entry's URL (Streamable HTTP, with the bearer header) or the entry's stdio command.
# Needs bash, node, curl and jq. CATSIM_INSPECTOR_CLI names the Inspector's CLI program,
# build/index.js (default: the one in this repository's node_modules), run with node.
# Its bin, build/cli.js --cli, is a launcher that starts `node build/index.js` with the same words
# (the target first, then --transport and --header; -e pairs as environment variables): the
# adapter starts build/index.js itself, so each step is one node process instead of two.
# CATSIM_SERVERS is read once, and each step with one jq: a jq start costs about as much as the
# Inspector's own request, and the adapter's time is the host's time in catsim's figures.
# Run: catsim host-test --agent inspector -- bash examples/blackbox-inspector-cli/adapter.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${CATSIM_INSPECTOR_CLI:-$here/../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js}

# Every entry of CATSIM_SERVERS, by name: its transport, and the Inspector's words for it (the URL,
# --transport and the bearer --header; or the stdio command and its env pairs), shell-quoted.
names=()
declare -A transport target envs
eval "$(jq -r '.[] | (.name | @sh) as $n
  | "names+=(\($n)); transport[\($n)]=\(.transport | @sh); " +
    (if .transport == "http"
     then "target[\($n)]=\([.url, "--transport", "http", "--header", "Authorization: Bearer \(.credentials.token)"] | map(@sh) | join(" ") | @sh)"
     else "target[\($n)]=\([.command] + .args | map(@sh) | join(" ") | @sh); envs[\($n)]=\(.env | to_entries | map("\(.key)=\(.value)" | @sh) | join(" ") | @sh)"
     end)' <<<"$CATSIM_SERVERS")"

# inspector NAME ARGS...: one run of the Inspector against entry NAME of CATSIM_SERVERS; prints its JSON.
# It runs in the folder of index.js: 1.0.3's build/index.js tests fs.existsSync("../package.json")
# against the working directory but import()s that path relative to itself, so from anywhere else
# (catsim's checkout, say) every call fails with "Cannot find module .../@modelcontextprotocol/package.json".
# The target goes first, as cli.js hands it to index.js and as the Inspector's own examples write
# it; a stdio entry's env goes into index.js's environment, where cli.js puts its -e pairs
# (index.js passes its whole environment to the server it launches).
inspector() {
  local name=$1 words pairs
  shift
  eval "words=(${target[$name]})"
  if [[ ${transport[$name]} == http ]]; then
    (cd "$(dirname "$cli")" && node "$cli" "${words[@]}" "$@")
  else
    eval "pairs=(${envs[$name]})"
    (cd "$(dirname "$cli")" && env "${pairs[@]}" node "$cli" "${words[@]}" "$@")
  fi
}

# perform: runs the step in kind, server, tool, ms, args; sets status and detail (and tools, for disclose).
perform() {
  local out name
  case $kind in
    sleep)
      sleep "$ms"
      status=ok
      ;;
    disclose)
      # What the Inspector shows: the tools of its tools/list, per entry.
      local lists=()
      for name in "${names[@]}"; do
        out=$(inspector "$name" --method tools/list) || { status=error detail=$out; return; }
        lists+=("$name" "$out")
      done
      tools=$(jq -cn '[$ARGS.positional | _nwise(2) | {(.[0]): [.[1] | fromjson | .tools[].name]}] | add' --args "${lists[@]}")
      status=ok
      ;;
    call)
      if out=$(inspector "$server" --method tools/call --tool-name "$tool" "${args[@]}" 2>&1); then
        # An answer with isError is the call's error; any other answer is ok.
        if [[ $(jq -r '.isError // false' <<<"$out" 2>/dev/null) == true ]]; then status=error detail=$out; else status=ok; fi
      else
        status=error detail=$(grep -m 1 '^Failed to' <<<"$out" || tail -n 1 <<<"$out")
      fi
      ;;
    *) status=unsupported ;;
  esac
}

# Each entry gets its session before the first step (the driver waits for one per entry).
for name in "${names[@]}"; do inspector "$name" --method tools/list >/dev/null; done
seq=1
while true; do
  step=$(curl -sf "$CATSIM_DRIVER_URL/step?seq=$seq")
  [[ -z $step ]] && continue # 204: poll again
  eval "$(jq -r '@sh "kind=\(.kind) server=\(.server // "") tool=\(.tool // "") ms=\((.ms // 0) / 1000)",
    "args=(\(.arguments // {} | to_entries | map("--tool-arg", "\(.key)=\(.value | tojson)") | map(@sh) | join(" ")))"' <<<"$step")"
  if [[ $kind == end ]]; then
    curl -sf -H 'content-type: application/json' -d "{\"seq\":$seq,\"status\":\"ok\"}" "$CATSIM_DRIVER_URL/result" >/dev/null
    exit 0
  fi
  status='' detail='' tools=''
  perform
  result=$(jq -cn --argjson s "$seq" --arg st "$status" --arg d "$detail" --arg t "$tools" \
    '{seq: $s, status: $st} + (if $t != "" then {tools: ($t | fromjson)} elif $st == "error" then {detail: $d} else {} end)')
  curl -sf -H 'content-type: application/json' -d "$result" "$CATSIM_DRIVER_URL/result" >/dev/null
  seq=$((seq + 1))
done
