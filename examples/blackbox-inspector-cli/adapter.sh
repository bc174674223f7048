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
# Run: catsim host-test --agent inspector -- bash examples/blackbox-inspector-cli/adapter.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${CATSIM_INSPECTOR_CLI:-$here/../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js}

# inspector NAME ARGS...: one run of the Inspector against entry NAME of CATSIM_SERVERS; prints its JSON.
# It runs in the folder of index.js: 1.0.3's build/index.js tests fs.existsSync("../package.json")
# against the working directory but import()s that path relative to itself, so from anywhere else
# (catsim's checkout, say) every call fails with "Cannot find module .../@modelcontextprotocol/package.json".
inspector() {
  local entry token
  entry=$(jq -c --arg n "$1" '.[] | select(.name == $n)' <<<"$CATSIM_SERVERS")
  token=$(jq -r .credentials.token <<<"$entry")
  shift
  if [[ $(jq -r .transport <<<"$entry") == http ]]; then
    (cd "$(dirname "$cli")" && node "$cli" "$(jq -r .url <<<"$entry")" --transport http --header "Authorization: Bearer $token" "$@")
  else
    local command
    mapfile -t command < <(jq -r '.command, .args[]' <<<"$entry")
    local envs=()
    while IFS= read -r pair; do envs+=("$pair"); done < <(jq -r '.env | to_entries[] | "\(.key)=\(.value)"' <<<"$entry")
    # The server command goes first, as cli.js hands it to index.js and as the Inspector's own
    # examples write it; the entry's env goes into index.js's environment, where cli.js puts its
    # -e pairs (index.js passes its whole environment to the server it launches).
    (cd "$(dirname "$cli")" && env "${envs[@]}" node "$cli" "${command[@]}" "$@")
  fi
}

# perform STEP: the step's result (without seq), as JSON.
perform() {
  local step=$1 out
  case $(jq -r .kind <<<"$step") in
    sleep)
      sleep "$(jq -r '.ms / 1000' <<<"$step")"
      echo '{"status":"ok"}'
      ;;
    disclose)
      # What the Inspector shows: the tools of its tools/list, per entry.
      local tools='{}' name
      for name in $(jq -r '.[].name' <<<"$CATSIM_SERVERS"); do
        out=$(inspector "$name" --method tools/list) || { jq -cn --arg d "$out" '{status:"error",detail:$d}'; return; }
        tools=$(jq -c --arg n "$name" --argjson t "$(jq -c '[.tools[].name]' <<<"$out")" '. + {($n): $t}' <<<"$tools")
      done
      jq -cn --argjson t "$tools" '{status:"ok",tools:$t}'
      ;;
    call)
      local args=()
      while IFS= read -r pair; do args+=(--tool-arg "$pair"); done < <(jq -r '.arguments | to_entries[] | "\(.key)=\(.value | tojson)"' <<<"$step")
      if out=$(inspector "$(jq -r .server <<<"$step")" --method tools/call --tool-name "$(jq -r .tool <<<"$step")" "${args[@]}" 2>&1); then
        if [[ $(jq -r '.isError // false' <<<"$out" 2>/dev/null) == true ]]; then jq -cn --arg d "$out" '{status:"error",detail:$d}'; else echo '{"status":"ok"}'; fi
      else
        jq -cn --arg d "$(grep -m 1 '^Failed to' <<<"$out" || tail -n 1 <<<"$out")" '{status:"error",detail:$d}'
      fi
      ;;
  esac
}

# Each entry gets its session before the first step (the driver waits for one per entry).
for name in $(jq -r '.[].name' <<<"$CATSIM_SERVERS"); do inspector "$name" --method tools/list >/dev/null; done
seq=1
while true; do
  step=$(curl -sf "$CATSIM_DRIVER_URL/step?seq=$seq")
  [[ -z $step ]] && continue # 204: poll again
  if [[ $(jq -r .kind <<<"$step") == end ]]; then
    curl -sf -H 'content-type: application/json' -d "{\"seq\":$seq,\"status\":\"ok\"}" "$CATSIM_DRIVER_URL/result" >/dev/null
    exit 0
  fi
  result=$(perform "$step" | jq -c --argjson s "$seq" '{seq:$s} + .')
  curl -sf -H 'content-type: application/json' -d "$result" "$CATSIM_DRIVER_URL/result" >/dev/null
  seq=$((seq + 1))
done
